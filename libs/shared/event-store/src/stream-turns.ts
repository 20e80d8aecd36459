/**
 * Commands on one stream in this process take turns: each starts once the one before it has
 * appended (or given up), so they never race each other to the same expected revision. What
 * conflicts is then only another process's writer (another replica), which handleCommand retries.
 * Streams are independent: commands on different streams run at once.
 */
export type GroupOutcome<Result> = { ok: true; result: Result } | { ok: false; error: unknown };

interface Waiting<Item, Result> {
  item: Item;
  settle: (outcome: GroupOutcome<Result>) => void;
}

export class StreamTurns {
  /** The last turn asked for on each stream; its entry goes when that turn ends with none after. */
  private readonly tails = new Map<string, Promise<void>>();
  /** Per stream, the items of `runGrouped` waiting for its next turn. */
  private readonly groups = new Map<string, Array<Waiting<unknown, unknown>>>();

  /**
   * As `run`, but the items that wait for the same turn go together: `work` gets every item asked
   * for by the time the turn starts, in order, and answers one outcome per item. An item asked
   * for once the turn started waits for the next one.
   */
  runGrouped<Item, Result>(
    stream: string,
    item: Item,
    work: (items: Item[]) => Promise<Array<GroupOutcome<Result>>>,
  ): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const settle = (outcome: GroupOutcome<Result>) =>
        outcome.ok ? resolve(outcome.result) : reject(outcome.error);
      const waiting = this.groups.get(stream) as Array<Waiting<Item, Result>> | undefined;
      if (waiting !== undefined) {
        waiting.push({ item, settle });
        return;
      }
      const group: Array<Waiting<Item, Result>> = [{ item, settle }];
      this.groups.set(stream, group as Array<Waiting<unknown, unknown>>);
      void this.run(stream, async () => {
        this.groups.delete(stream);
        const outcomes = await work(group.map((waiter) => waiter.item)).catch((error: unknown) =>
          group.map((): GroupOutcome<Result> => ({ ok: false, error })),
        );
        group.forEach((waiter, index) => waiter.settle(outcomes[index]!));
      });
    });
  }

  async run<T>(stream: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(stream);
    let done!: () => void;
    const turn = new Promise<void>((resolve) => (done = resolve));
    this.tails.set(stream, turn);
    try {
      if (previous !== undefined) await previous;
      return await work();
    } finally {
      if (this.tails.get(stream) === turn) this.tails.delete(stream);
      done();
    }
  }

  /** How many streams have a turn running or waiting (for tests). */
  get busyStreams(): number {
    return this.tails.size;
  }
}
