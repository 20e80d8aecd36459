import type { Pool } from 'pg';

/** Where a forwarder keeps the position of the last event whose publish was acknowledged. */
export interface CheckpointStore {
  load(name: string): Promise<string | null>;
  save(name: string, position: string): Promise<void>;
}

export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly positions = new Map<string, string>();

  async load(name: string): Promise<string | null> {
    return this.positions.get(name) ?? null;
  }

  async save(name: string, position: string): Promise<void> {
    this.positions.set(name, position);
  }
}

/** `bus_checkpoints` (migration 20261122000250_bus). */
export class PostgresCheckpointStore implements CheckpointStore {
  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<string | null> {
    const result = await this.pool.query<{ position: string }>(
      'SELECT position FROM bus_checkpoints WHERE name = $1',
      [name],
    );
    return result.rows[0]?.position ?? null;
  }

  async save(name: string, position: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO bus_checkpoints (name, position) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
      [name, position],
    );
  }
}
