export const HTTP_EDGE_OPTIONS = 'XAALIS_HTTP_EDGE_OPTIONS';

export interface HttpEdgeOptions {
  /** How long a running request holds its idempotency key before a retry may take it over. */
  idempotencyLeaseMs: number;
  /** How long a finished idempotency key is kept (CONTRACT 3: at least 24 hours). */
  idempotencyRetentionMs: number;
  /** How often expired keys are deleted; 0 leaves it to whoever calls the store. */
  idempotencyCleanupIntervalMs: number;
  /** Report ready once Nest has bootstrapped; false leaves it to the composition root. */
  readyOnBootstrap: boolean;
  /** Node process metrics (memory, event loop, GC) next to the HTTP ones. */
  collectDefaultMetrics: boolean;
}

const HOUR_MS = 3_600_000;

export const DEFAULT_HTTP_EDGE_OPTIONS: HttpEdgeOptions = {
  idempotencyLeaseMs: 60_000,
  idempotencyRetentionMs: 24 * HOUR_MS,
  idempotencyCleanupIntervalMs: HOUR_MS,
  readyOnBootstrap: true,
  collectDefaultMetrics: true,
};
