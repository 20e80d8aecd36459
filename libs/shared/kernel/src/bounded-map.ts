/**
 * A Map held to at most `maxEntries` keys: adding a new key to a full map empties it first. No
 * recency is tracked, so a lookup costs what a Map's does. For memory that only saves work (a
 * merchant's name, a payment's client secret, when a key was last written): a key lost in the
 * clearing is derived or written again, never wrong.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, value);
  }
}
