import type { Pool, QueryConfig } from 'pg';

/** What a watched statement does: run (nothing), fail unsent, or run and then fail. */
export type WatchVerdict = void | Error | { afterRunning: Error };

/**
 * A statement's name: given to node-postgres (a prepared statement), or, for one planned on each
 * run, the comment its text opens with (`/* jobs_complete *\/ WITH …`); else its text.
 */
function nameOf(config: QueryConfig): string {
  return config.name ?? /^\/\* ([\w.]+) \*\//.exec(config.text)?.[1] ?? config.text;
}

/**
 * The real pool, watched: each statement's name (`nameOf`) is passed to `watch` before it runs.
 * `watch` may make it fail as a lost connection would: before it is sent (an Error), or after the
 * server ran it, the answer lost (`{ afterRunning }`). Statements given as a bare string pass
 * unwatched; the code under test names its statements.
 */
function watchedPool(pool: Pool, watch: (statement: string) => WatchVerdict): Pool {
  const query = pool.query.bind(pool) as (config: QueryConfig, ...rest: unknown[]) => unknown;
  const watched = Object.create(pool) as Pool;
  watched.query = ((config: QueryConfig, ...rest: unknown[]) => {
    if (typeof config !== 'object') return query(config, ...rest);
    const verdict = watch(nameOf(config));
    if (verdict === undefined) return query(config, ...rest);
    if (verdict instanceof Error) return Promise.reject(verdict);
    return (query(config, ...rest) as Promise<unknown>).then(() => {
      throw verdict.afterRunning;
    });
  }) as Pool['query'];
  return watched;
}

/** A watched pool that records the statements a test cares about, and fails the ones it asks. */
export interface StatementWatch {
  pool: Pool;
  /** Names of the recorded statements run since the last `clear()`, in order. */
  readonly statements: string[];
  /** The next recorded statement whose name starts with `prefix` gets `verdict` (once). */
  failNext(prefix: string, verdict: Exclude<WatchVerdict, void>): void;
  /** Forgets the statements run and the failures asked for. */
  clear(): void;
}

/** Records the statements `recorded` picks (by name) on the way through `pool`. */
export function watchStatements(pool: Pool, recorded: (name: string) => boolean): StatementWatch {
  const statements: string[] = [];
  const failures: Array<{ prefix: string; verdict: Exclude<WatchVerdict, void> }> = [];
  return {
    pool: watchedPool(pool, (name) => {
      if (!recorded(name)) return;
      statements.push(name);
      const index = failures.findIndex(({ prefix }) => name.startsWith(prefix));
      if (index === -1) return;
      return failures.splice(index, 1)[0]!.verdict;
    }),
    statements,
    failNext: (prefix, verdict) => void failures.push({ prefix, verdict }),
    clear: () => {
      statements.length = 0;
      failures.length = 0;
    },
  };
}
