/**
 * Batching for one kind of statement. One statement is on its way at a time; the items submitted
 * meanwhile wait for it and then go together as one statement: one round trip (and for writes one
 * commit, one WAL flush: group commit) for all of them. An item with nothing on its way goes at
 * once on its own, so a lone caller waits for nobody. Every item is served by a statement sent
 * after it was submitted, so a read sees every write that committed before it was asked for.
 *
 * A statement is all or nothing: when the one for a batch fails for any reason (a connection
 * lost, a value the database refuses, a deadlock with another process), each of its items is sent
 * again on its own and answers what it would have answered alone. `alone` must therefore be safe
 * after a batch that may have committed (a connection lost before the reply): each user says how.
 *
 * Why one lane: two statements on their way at once made batches smaller and cost more CPU per
 * item (+17%, measured on payment creates); a lane is only held up by a statement that waits.
 */
export interface StatementBatcherOptions<Item, Result> {
  /** One item in its own statement. */
  alone(item: Item): Promise<Result>;
  /**
   * Two to `maxBatch` items in one statement; one result per item, in the items' order. An item
   * the statement left to be sent on its own (a repeat, say) may be answered by a promise of its
   * own, `alone`'s: it settles that item only, and the lane moves on without waiting for it.
   */
  together(items: Item[]): Promise<Array<Result | Promise<Result>>>;
  /** Items in one statement at most (the statement's parameters are bounded). */
  maxBatch: number;
}

interface Waiting<Item, Result> {
  item: Item;
  settle: (result: Promise<Result>) => void;
}

export class StatementBatcher<Item, Result> {
  private readonly alone: (item: Item) => Promise<Result>;
  private readonly together: (items: Item[]) => Promise<Array<Result | Promise<Result>>>;
  private readonly maxBatch: number;
  /** Items waiting for the statement on its way to come back. */
  private queue: Array<Waiting<Item, Result>> = [];
  private sending = false;

  constructor(options: StatementBatcherOptions<Item, Result>) {
    if (!Number.isInteger(options.maxBatch) || options.maxBatch < 2) {
      throw new RangeError(`maxBatch must be an integer of at least 2, got ${options.maxBatch}`);
    }
    this.alone = options.alone;
    this.together = options.together;
    this.maxBatch = options.maxBatch;
  }

  submit(item: Item): Promise<Result> {
    // Nothing on its way: this one goes at once, alone, its own promise handed back.
    if (!this.sending) return this.sendAlone(item);
    return new Promise<Result>((settle) => this.queue.push({ item, settle }));
  }

  /** The lane is taken until `sent` is answered; then what gathered meanwhile goes. */
  private occupy(sent: Promise<unknown>): void {
    this.sending = true;
    const next = () => {
      this.sending = false;
      if (this.queue.length === 0) return;
      const batch = this.queue.splice(0, this.maxBatch);
      if (batch.length > 1) this.occupy(this.sendTogether(batch));
      else batch[0]!.settle(this.sendAlone(batch[0]!.item));
    };
    sent.then(next, next);
  }

  private sendAlone(item: Item): Promise<Result> {
    const result = this.alone(item);
    this.occupy(result);
    return result;
  }

  private async sendTogether(batch: Array<Waiting<Item, Result>>): Promise<void> {
    let results: Array<Result | Promise<Result>>;
    try {
      results = await this.together(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`${results.length} results for ${batch.length} items`);
      }
    } catch {
      for (const waiting of batch) waiting.settle(this.alone(waiting.item));
      return;
    }
    for (const [index, waiting] of batch.entries()) {
      waiting.settle(Promise.resolve(results[index]!));
    }
  }
}
