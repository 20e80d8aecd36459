import type { Pool, QueryConfig } from 'pg';

/** What a watched statement does: run (nothing), fail unsent, or run and then fail. */
export type WatchVerdict = void | Error | { afterRunning: Error };

/**
 * The real pool, watched: each statement's name (its text when unnamed) is passed to `watch`
 * before it runs. `watch` may make it fail as a lost connection would: before it is sent (an
 * Error), or after the server ran it, the answer lost (`{ afterRunning }`). Statements given as a
 * bare string pass unwatched; the code under test names its statements.
 */
export function watchedPool(pool: Pool, watch: (statement: string) => WatchVerdict): Pool {
  const query = pool.query.bind(pool) as (config: QueryConfig, ...rest: unknown[]) => unknown;
  const watched = Object.create(pool) as Pool;
  watched.query = ((config: QueryConfig, ...rest: unknown[]) => {
    if (typeof config !== 'object') return query(config, ...rest);
    const verdict = watch(config.name ?? config.text);
    if (verdict === undefined) return query(config, ...rest);
    if (verdict instanceof Error) return Promise.reject(verdict);
    return (query(config, ...rest) as Promise<unknown>).then(() => {
      throw verdict.afterRunning;
    });
  }) as Pool['query'];
  return watched;
}
