import type { PrismaClient, PrismaTx } from './prisma';

export interface LockOptions {
  /** false: give up at once (undefined) when another transaction holds the lock. */
  wait: boolean;
  /** How long the whole transaction may take. */
  timeoutMs: number;
}

/** What a locked piece of work returns: the position to leave the checkpoint at, and more. */
export interface CheckpointedResult {
  position: string | null;
}

/**
 * Projection checkpoints (`projection_checkpoints`). The runner only needs these three
 * operations, which keeps it testable with an in-memory double.
 */
export interface CheckpointStore {
  /** Creates missing rows (position null). */
  ensure(names: string[]): Promise<void>;
  /** The committed position, without locking. */
  read(name: string): Promise<string | null>;
  /**
   * Runs `work` in one transaction that holds the checkpoint row locked, re-reads the position
   * under the lock, and saves the position `work` returns in the same transaction.
   */
  withLock<T extends CheckpointedResult>(
    name: string,
    options: LockOptions,
    work: (tx: PrismaTx, position: string | null) => Promise<T>,
  ): Promise<T | undefined>;
}

interface Row {
  position: string | null;
}

export class PrismaCheckpointStore implements CheckpointStore {
  constructor(private readonly prisma: PrismaClient) {}

  async ensure(names: string[]): Promise<void> {
    for (const name of names) {
      await this.prisma.$executeRaw`
        INSERT INTO projection_checkpoints (name, position) VALUES (${name}, NULL) ON CONFLICT (name) DO NOTHING`;
    }
  }

  async read(name: string): Promise<string | null> {
    const rows = await this.prisma.$queryRaw<
      Row[]
    >`SELECT position FROM projection_checkpoints WHERE name = ${name}`;
    return rows[0]?.position ?? null;
  }

  withLock<T extends CheckpointedResult>(
    name: string,
    options: LockOptions,
    work: (tx: PrismaTx, position: string | null) => Promise<T>,
  ): Promise<T | undefined> {
    return this.prisma.$transaction(
      async (tx) => {
        // SKIP LOCKED: a runner that finds the row busy (another runner, a rebuild) moves on
        // instead of queueing behind it while holding a connection.
        const rows = options.wait
          ? await tx.$queryRaw<
              Row[]
            >`SELECT position FROM projection_checkpoints WHERE name = ${name} FOR UPDATE`
          : await tx.$queryRaw<Row[]>`
              SELECT position FROM projection_checkpoints WHERE name = ${name} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return undefined;
        const before = rows[0]!.position;
        const result = await work(tx, before);
        if (result.position !== before) {
          await tx.$executeRaw`
            UPDATE projection_checkpoints SET position = ${result.position}, updated_at = now() WHERE name = ${name}`;
        }
        return result;
      },
      { timeout: options.timeoutMs, maxWait: 10_000 },
    );
  }
}
