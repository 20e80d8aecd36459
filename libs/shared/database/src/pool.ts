import { Pool, type PoolConfig } from 'pg';

export interface PoolOptions {
  /** Connections in the pool (pg's default is 10). */
  max?: number;
  /** Shows in pg_stat_activity, which is how one tells the apps apart on a shared server. */
  applicationName?: string;
  idleTimeoutMillis?: number;
  connectionTimeoutMillis?: number;
  /** Called when an idle connection breaks (server restart, network): pg would otherwise crash the process. */
  onError?: (error: Error) => void;
}

/** A node-postgres pool for a `postgres://` URL. One per process, shared by Prisma and raw SQL. */
export function createPool(url: string, options: PoolOptions = {}): Pool {
  const config: PoolConfig = {
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'xaalis',
    idleTimeoutMillis: options.idleTimeoutMillis ?? 30_000,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
  };
  const pool = new Pool(config);
  // An 'error' event with no listener throws: a dropped idle connection must not kill the service.
  pool.on(
    'error',
    options.onError ?? ((error) => console.error(`postgres pool: ${error.message}`)),
  );
  return pool;
}
