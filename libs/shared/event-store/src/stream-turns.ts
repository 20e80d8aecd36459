/**
 * Commands on one stream in this process take turns: each starts once the one before it has
 * appended (or given up), so they never race each other to the same expected revision. What
 * conflicts is then only another process's writer (another replica), which handleCommand retries.
 * Streams are independent: commands on different streams run at once.
 */
export class StreamTurns {
  /** The last turn asked for on each stream; its entry goes when that turn ends with none after. */
  private readonly tails = new Map<string, Promise<void>>();

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
