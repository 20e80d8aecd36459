import type { CheckpointedResult, CheckpointStore, LockOptions } from '../checkpoints';
import type { PrismaTx } from '../prisma';

/**
 * A stand-in for the transaction a projection writes through: writes are staged and reach the
 * committed read model only if the whole batch (and its checkpoint) commits.
 */
export class FakeTx {
  readonly staged: Array<(model: Map<string, unknown>) => void> = [];
  write(change: (model: Map<string, unknown>) => void): void {
    this.staged.push(change);
  }
}

export const asFake = (tx: PrismaTx): FakeTx => tx as unknown as FakeTx;

/**
 * Checkpoints and one read model in memory, with the row lock and all-or-nothing commit of the
 * Postgres version: enough to test the runner's logic without a database.
 */
export class InMemoryCheckpoints implements CheckpointStore {
  readonly positions = new Map<string, string | null>();
  readonly model = new Map<string, unknown>();
  private readonly locks = new Map<string, Promise<void>>();
  commits = 0;

  async ensure(names: string[]): Promise<void> {
    for (const name of names) if (!this.positions.has(name)) this.positions.set(name, null);
  }

  async read(name: string): Promise<string | null> {
    return this.positions.get(name) ?? null;
  }

  isLocked(name: string): boolean {
    return this.locks.has(name);
  }

  async withLock<T extends CheckpointedResult>(
    name: string,
    options: LockOptions,
    work: (tx: PrismaTx, position: string | null) => Promise<T>,
  ): Promise<T | undefined> {
    while (this.locks.has(name)) {
      if (!options.wait) return undefined;
      await this.locks.get(name);
    }
    let unlock!: () => void;
    this.locks.set(name, new Promise<void>((resolve) => (unlock = resolve)));
    try {
      const tx = new FakeTx();
      const result = await work(tx as unknown as PrismaTx, this.positions.get(name) ?? null);
      for (const change of tx.staged) change(this.model);
      this.positions.set(name, result.position);
      this.commits++;
      return result;
    } finally {
      this.locks.delete(name);
      unlock();
    }
  }
}
