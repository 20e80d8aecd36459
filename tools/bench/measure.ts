import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  /** Operations per second (events or rows per second for batches: see `unitsPerOp`). */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  operations: number;
  seconds: number;
  /**
   * CPU time of this Node process per operation (load generator included, same for every
   * subject). Unlike the rate it barely moves when other processes compete for the CPUs, so it
   * shows where a gap comes from on a busy machine.
   */
  cpuMsPerOp: number;
  /**
   * The rate of each round on its own, in order. Paired with its baseline's round by round (both
   * ran side by side in time), it shows how far the machine moved the ratio during the run.
   */
  roundRates?: number[];
}

export interface MeasureOptions {
  /** Measured time, split evenly over the rounds. */
  durationMs: number;
  /** Unmeasured time before each round (connections opened, JIT warm, caches filled). */
  warmupMs?: number;
  /** Loops calling `op` at once: a closed system, the next call starts when one ends. */
  concurrency?: number;
  /** What one call counts for in `rate`, e.g. the 100 events of a batch append. */
  unitsPerOp?: number;
}

/**
 * `concurrency` closed loops of a subject's operation for `durationMs`: every operation's latency
 * (ms) and the seconds they took. Rejects at the first wrong answer, every loop stopped.
 */
export type Loops = (
  concurrency: number,
  durationMs: number,
) => Promise<{ latencies: number[]; seconds: number }>;

/**
 * One thing to measure: either `op`, called in loops on this thread (it must throw on a wrong
 * answer), or `loops` run elsewhere (the HTTP load thread of `http-load.ts`).
 */
export type Subject = {
  name: string;
  options: MeasureOptions;
} & ({ op: () => Promise<unknown>; loops?: never } | { loops: Loops; op?: never });

/** Latencies and time of the measured part of one or more rounds. */
interface Samples {
  latencies: number[];
  seconds: number;
  cpuMs: number;
  roundRates: number[];
}

/**
 * Measures subjects in alternating rounds (A B A B …) rather than one after the other. On a small
 * shared machine (here 2 CPUs, one Postgres serving other suites too) throughput drifts by tens of
 * percent over a minute; interleaving spreads that drift over a baseline and its subject alike, so
 * their ratio, which is what the report judges, stays meaningful.
 */
export async function measureInterleaved(
  subjects: Subject[],
  rounds: number,
): Promise<Measurement[]> {
  const samples: Samples[] = subjects.map(() => ({
    latencies: [],
    seconds: 0,
    cpuMs: 0,
    roundRates: [],
  }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, subject] of subjects.entries()) {
      const { durationMs, warmupMs = 500 } = subject.options;
      // A full warm-up first; later rounds only need the pool and caches refilled.
      const warm = round === 0 ? warmupMs : Math.min(warmupMs, 200);
      const result = await runRound(subject, durationMs / rounds, warm);
      // concat, not push(...): a spread of 100k+ arguments overflows the stack.
      samples[index].latencies = samples[index].latencies.concat(result.latencies);
      samples[index].seconds += result.seconds;
      samples[index].cpuMs += result.cpuMs;
      samples[index].roundRates.push(rateOf(subject, result.latencies.length, result.seconds));
    }
  }
  return subjects.map((subject, index) => summarize(subject, samples[index]));
}

export function measure(subject: Subject): Promise<Measurement> {
  return measureInterleaved([subject], 1).then(([only]) => only);
}

async function runRound(
  subject: Subject,
  durationMs: number,
  warmupMs: number,
): Promise<Omit<Samples, 'roundRates'>> {
  const run = subject.loops ?? inThreadLoops(subject.op);
  const concurrency = subject.options.concurrency ?? 1;
  await untilIdle();
  await run(concurrency, warmupMs);
  // The whole process's CPU: a load thread's share is counted too.
  const cpu = process.cpuUsage();
  const { latencies, seconds } = await run(concurrency, durationMs);
  const { user, system } = process.cpuUsage(cpu);
  return { latencies, seconds, cpuMs: (user + system) / 1000 };
}

/** A window in which this process used less than a tenth of a CPU is idle. */
const IDLE_WINDOW_MS = 50;
const IDLE_SHARE = 0.1;
const IDLE_WAIT_MAX_MS = 10_000;

/**
 * Waits until this process is idle: the service's subscribers have finished the work the last
 * round left them (read models, forwarders), which would otherwise land on the next round, the
 * baseline's or the next line's. A round then measures its own operations, with their background
 * work included as far as it keeps up during the round. Gives up after 10 s.
 */
export async function untilIdle(): Promise<void> {
  const deadline = performance.now() + IDLE_WAIT_MAX_MS;
  while (performance.now() < deadline) {
    const before = process.cpuUsage();
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    const { user, system } = process.cpuUsage(before);
    if ((user + system) / 1000 < IDLE_SHARE * (performance.now() - start)) return;
  }
}

/** `op` called in `concurrency` closed loops on the calling thread. */
export function inThreadLoops(op: () => Promise<unknown>): Loops {
  return async (concurrency, durationMs) => {
    const latencies: number[] = [];
    const start = performance.now();
    await loops(concurrency, start + durationMs, op, latencies);
    return { latencies, seconds: (performance.now() - start) / 1000 };
  };
}

/**
 * `concurrency` loops until `end`. The first failure stops every loop before it is rethrown:
 * with a bare Promise.all the other loops would keep loading the database behind the next
 * measurement's back.
 */
async function loops(
  concurrency: number,
  end: number,
  op: () => Promise<unknown>,
  latencies?: number[],
): Promise<void> {
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (failure === undefined && performance.now() < end) {
        const t0 = performance.now();
        try {
          await op();
        } catch (error) {
          failure ??= { error };
          return;
        }
        latencies?.push(performance.now() - t0);
      }
    }),
  );
  if (failure !== undefined) throw failure.error;
}

const rateOf = (subject: Subject, operations: number, seconds: number): number =>
  seconds === 0 ? 0 : (operations * (subject.options.unitsPerOp ?? 1)) / seconds;

function summarize(
  subject: Subject,
  { latencies, seconds, cpuMs, roundRates }: Samples,
): Measurement {
  latencies.sort((a, b) => a - b);
  return {
    name: subject.name,
    rate: rateOf(subject, latencies.length, seconds),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    operations: latencies.length,
    seconds,
    cpuMsPerOp: latencies.length === 0 ? 0 : cpuMs / latencies.length,
    roundRates,
  };
}

/** Nearest rank on sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Unmeasured load before a service line's first round: the service's code is large and the JIT
 * takes seconds to settle, while the raw baselines are a few lines; the rates compared are both
 * steady-state rates.
 */
const SERVICE_WARMUP_MS = 5_000;

export const warm = (subject: Subject): Subject => ({
  ...subject,
  options: { ...subject.options, warmupMs: SERVICE_WARMUP_MS },
});

/** What a drain has left: `running` of it can still end (a failed job waits for a later try). */
export interface Backlog {
  left: number;
  running: number;
}

/**
 * Times a burst the service drains on its own (work all due at once): `start` sets it off, and
 * `backlog` is read every 20 ms until nothing is running or `limitMs` have passed. The rate
 * counts what was done of `due`; `left` is what was not.
 */
export async function measureDrain(
  name: string,
  due: number,
  start: () => void,
  backlog: () => Promise<Backlog>,
  limitMs: number,
): Promise<{ measurement: Measurement; left: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  start();
  let now = await backlog();
  while (now.running > 0 && performance.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = await backlog();
  }
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  const done = due - now.left;
  return {
    measurement: {
      name,
      rate: done / seconds,
      p50Ms: 0,
      p99Ms: 0,
      operations: done,
      seconds,
      cpuMsPerOp: (user + system) / 1000 / Math.max(1, done),
    },
    left: now.left,
  };
}
