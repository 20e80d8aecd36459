import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  /** Operations per second (events/s for batches). */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  operations: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Runs `op` from `concurrency` loops for `durationMs` after a warm-up, and reports throughput and
 * latency. `unitsPerOp` counts e.g. the events of a batch append.
 */
export async function measure(
  name: string,
  op: () => Promise<unknown>,
  { durationMs = 3000, warmupMs = 500, concurrency = 1, unitsPerOp = 1 } = {},
): Promise<Measurement> {
  const warmupEnd = performance.now() + warmupMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmupEnd) await op();
    }),
  );
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await op();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    rate: (latencies.length * unitsPerOp) / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    operations: latencies.length,
  };
}
