interface Store<V> {
  entries: Map<string, { value: V; index: number }>;
  count: number;
}

/**
 * An immutable map that only grows, in O(1) per `set`: a wallet's state remembers every
 * `action_id` and payout it accepted, and copying a Map per event made folding a busy wallet's
 * stream quadratic (15,000 payouts: 30 s, and 3.4 ms per decision).
 *
 * Each version sees the entries added before it (`index < size`). A version that is the newest
 * of its store adds in place; any other (an older state someone evolves again) first copies what
 * it sees. So every version reads the same for ever, as an immutable value should, and the usual
 * fold (each state evolved once) never copies.
 */
export class AppendOnlyMap<V> {
  private constructor(
    private readonly store: Store<V>,
    readonly size: number,
  ) {}

  static empty<V>(): AppendOnlyMap<V> {
    return new AppendOnlyMap<V>({ entries: new Map(), count: 0 }, 0);
  }

  get(key: string): V | undefined {
    const entry = this.store.entries.get(key);
    return entry !== undefined && entry.index < this.size ? entry.value : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** A new version with `key` set; this one is unchanged. */
  set(key: string, value: V): AppendOnlyMap<V> {
    const { store } = this;
    if (this.size === store.count && !store.entries.has(key)) {
      store.entries.set(key, { value, index: store.count });
      store.count += 1;
      return new AppendOnlyMap(store, store.count);
    }
    const copy: Store<V> = { entries: new Map(), count: 0 };
    for (const [existing, entry] of store.entries) {
      if (entry.index >= this.size || existing === key) continue;
      copy.entries.set(existing, { value: entry.value, index: copy.count++ });
    }
    copy.entries.set(key, { value, index: copy.count++ });
    return new AppendOnlyMap(copy, copy.count);
  }

  *entries(): IterableIterator<[string, V]> {
    for (const [key, entry] of this.store.entries) {
      if (entry.index < this.size) yield [key, entry.value];
    }
  }
}
