import {
  matchesPrefixes,
  ReadPacer,
  sleep,
  type EventStore,
  type RecordedEvent,
} from '@xaalis/event-store';
import { PrismaCheckpointStore, type CheckpointStore } from './checkpoints';
import type { Projection } from './projection';
import type { PrismaClient, PrismaTx } from './prisma';

export interface ProjectionRunnerOptions {
  store: EventStore;
  prisma: PrismaClient;
  projections: Projection[];
  /** Events per transaction. Default 500. */
  batchSize?: number;
  /** Default: `projection_checkpoints` through `prisma`. Unit tests pass a double. */
  checkpoints?: CheckpointStore;
  /** A batch that failed (it was rolled back and will be retried). Default: console.error. */
  onError?: (projection: string, error: unknown) => void;
  /** How long the background loop sleeps when nothing is appended. Default 1000 ms. */
  idleWaitMs?: number;
  /** Least time between two rounds of the background loop. Default `PROJECTION_READ_SPACING_MS`. */
  readSpacingMs?: number;
  /** Per batch transaction. Default 60 s. */
  batchTimeoutMs?: number;
  /** For the single transaction of a rebuild. Default 6 h. */
  rebuildTimeoutMs?: number;
}

export interface RebuildProgress {
  projection: string;
  events: number;
  position: string | null;
}

export type RebuildResult = RebuildProgress;

/**
 * Least time between two rounds of a runner's background loop while appends keep coming: ten times
 * a forwarder's (`DEFAULT_READ_SPACING_MS`). Whoever needs a read model to show its own writes
 * catches it up on demand (lists, identity commands), so the loop only keeps it fresh for the job
 * scheduler and other readers, and a round's cost is mostly its transaction (a handful of
 * statements through Prisma), whatever the batch. Measured under a load of payment creations: at
 * 20 ms the loop was about a seventh of a creation's CPU; at 200 ms, with batches ten times the
 * size, creations ran about 14% faster. An event after a quiet spell is still applied at once.
 */
export const PROJECTION_READ_SPACING_MS = 200;

/** Positions of one store compare as plain strings; null is before everything. */
const later = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null || a >= b ? a : b;
const reached = (position: string | null, target: string): boolean =>
  position !== null && position >= target;

/** `read`: events read for the projection (a short read means it was caught up). */
type BatchOutcome = { busy: true } | { busy: false; read: number; position: string | null };

/**
 * Keeps projections up to date with the event store. Each batch is applied in one transaction
 * that also moves the projection's checkpoint, with the checkpoint row locked and re-read inside
 * it, so any number of runners (one per app process) never apply an event twice.
 *
 * Read-your-writes needs one more fact than the checkpoints give: a projection that ignores a
 * stream never moves its checkpoint past that stream's events. So the runner also tracks a
 * frontier, a position up to which every event is visible in the store (the store never lets an
 * event be read before those ordered ahead of it), and counts a projection as covered up to the
 * frontier once a read made after the frontier was known came back short.
 */
export class ProjectionRunner {
  private readonly store: EventStore;
  private readonly projections: Projection[];
  /** Every stream some projection of this runner follows. */
  private readonly streamPrefixes: string[];
  private readonly checkpoints: CheckpointStore;
  private readonly batchSize: number;
  private readonly onError: (projection: string, error: unknown) => void;
  private readonly idleWaitMs: number;
  /** Spaces the background loop's rounds: appends arriving meanwhile are applied as one batch. */
  private readonly pacer: ReadPacer;
  private readonly batchTimeoutMs: number;
  private readonly rebuildTimeoutMs: number;

  private frontier: string | null = null;
  private readonly covered = new Map<string, string | null>();
  /**
   * The last page the frontier walk read, kept for a runner of one projection: its drain reads
   * the same page next (same start, same streams), and takes this one instead of reading and
   * parsing every event a second time.
   */
  private walked: { after: string | null; events: RecordedEvent[] } | undefined;
  /** Work on one projection is serialised within this runner (other runners meet the row lock). */
  private readonly queues = new Map<string, Promise<unknown>>();
  private walking: Promise<void> | undefined;
  private ready: Promise<void> | undefined;
  private loop: Promise<void> | undefined;
  private abort: AbortController | undefined;

  constructor(options: ProjectionRunnerOptions) {
    this.store = options.store;
    this.projections = options.projections;
    this.streamPrefixes = [
      ...new Set(this.projections.flatMap((projection) => projection.streamPrefixes)),
    ];
    this.checkpoints = options.checkpoints ?? new PrismaCheckpointStore(options.prisma);
    this.batchSize = options.batchSize ?? 500;
    this.onError =
      options.onError ?? ((name, error) => console.error(`projection ${name}:`, error));
    this.idleWaitMs = options.idleWaitMs ?? 1000;
    this.pacer = new ReadPacer(options.readSpacingMs ?? PROJECTION_READ_SPACING_MS);
    this.batchTimeoutMs = options.batchTimeoutMs ?? 60_000;
    this.rebuildTimeoutMs = options.rebuildTimeoutMs ?? 6 * 3600_000;
    const names = new Set(this.projections.map((projection) => projection.name));
    if (names.size !== this.projections.length) throw new Error('Projection names must be unique');
  }

  /** Starts the background loop; resolves once the checkpoints are known. */
  async start(): Promise<void> {
    if (this.loop !== undefined) return;
    await this.init();
    this.abort = new AbortController();
    this.loop = this.runLoop(this.abort.signal);
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
    await Promise.allSettled([...this.queues.values()]);
  }

  /**
   * Resolves once every projection has applied every event it cares about up to `position`
   * (as returned by an append): a request can then read its own write from any read model.
   */
  async catchUpTo(position: string, options: { timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    await this.init();
    while (!reached(this.frontier, position)) {
      const before = this.frontier;
      await this.walkFrontier();
      if (reached(this.frontier, position)) break;
      checkDeadline(deadline, `event ${position} to become visible in the store`);
      // Committed but not visible yet: an earlier transaction is still in flight.
      if (this.frontier === before) await sleep(5);
    }
    await Promise.all(
      this.projections.map(async (projection) => {
        while (!reached(this.covered.get(projection.name) ?? null, position)) {
          const done = await this.drain(projection, position);
          if (!done) {
            checkDeadline(
              deadline,
              `projection ${projection.name} (busy in another transaction) to reach ${position}`,
            );
            await sleep(20);
          }
        }
      }),
    );
  }

  /**
   * Rebuilds a read model from all its events in ONE transaction: readers keep seeing the old
   * rows until it commits, and other runners skip the projection meanwhile (its checkpoint row is
   * locked), so the service stays up. Note the store's visibility rule: while this transaction
   * runs, events appended after it started are not visible to any store reader.
   */
  async rebuild(
    name: string,
    onProgress?: (progress: RebuildProgress) => void,
  ): Promise<RebuildResult> {
    const projection = this.projections.find((candidate) => candidate.name === name);
    if (projection === undefined) {
      throw new Error(
        `No projection named ${name} (known: ${this.projections.map((p) => p.name).join(', ')})`,
      );
    }
    await this.init();
    return this.serialise(name, async () => {
      const frontier = this.frontier;
      const result = await this.checkpoints.withLock(
        name,
        { wait: true, timeoutMs: this.rebuildTimeoutMs },
        async (tx) => {
          await projection.reset(tx);
          let position: string | null = null;
          let events = 0;
          for (;;) {
            const batch = await this.read(projection, position);
            await applyAll(projection, batch, tx);
            events += batch.length;
            position = batch.at(-1)?.position ?? position;
            onProgress?.({ projection: name, events, position });
            if (batch.length < this.batchSize) return { projection: name, events, position };
          }
        },
      );
      if (result === undefined) throw new Error(`Projection ${name} has no checkpoint row`);
      this.covered.set(name, later(frontier, result.position));
      return result;
    });
  }

  /** Brings every projection up to date once (what the loop does each round). */
  async runOnce(): Promise<void> {
    await this.init();
    await this.walkFrontier();
    const results = await Promise.allSettled(
      this.projections.map((projection) => this.drain(projection, this.frontier ?? undefined)),
    );
    const failure = results.find(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    );
    if (failure !== undefined) throw failure.reason;
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      const names = this.projections.map((projection) => projection.name);
      await this.checkpoints.ensure(names);
      for (const name of names) {
        const position = await this.checkpoints.read(name);
        this.covered.set(name, position);
        // Whatever a checkpoint points at was visible, and so was everything before it.
        this.frontier = later(this.frontier, position);
      }
    })().catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async runLoop(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      this.pacer.reading();
      await this.walkFrontier().catch((error) => this.onError('(event store)', error));
      const results = await Promise.allSettled(
        this.projections.map((projection) => this.drain(projection, this.frontier ?? undefined)),
      );
      results.forEach((result, index) => {
        if (result.status === 'rejected')
          this.onError(this.projections[index]!.name, result.reason);
      });
      if (signal.aborted) break;
      if (results.some((result) => result.status === 'rejected')) {
        failures++;
        await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), signal);
        continue;
      }
      failures = 0;
      await this.pacer.spaced(signal);
      await this.store
        .waitForAppend(this.frontier, this.idleWaitMs, signal, this.streamPrefixes)
        .catch(() => sleep(this.idleWaitMs, signal));
    }
  }

  /**
   * Moves the frontier to the last visible event (one walker at a time), reading only the events
   * of this runner's streams. A projection that was covered where a read began and finds none of
   * its streams in it is covered to its end with no read of its own: most appends concern one
   * projection, and the others then cost nothing.
   */
  private walkFrontier(): Promise<void> {
    this.walking ??= (async () => {
      for (;;) {
        const from = this.frontier;
        // Only this runner's streams are read; the position still moves past the others.
        const { events, position: last } = await this.store.readAllPage({
          after: from,
          maxCount: this.batchSize,
          streamPrefixes: this.streamPrefixes,
        });
        this.frontier = later(this.frontier, last);
        if (this.projections.length === 1) this.walked = { after: from, events };
        if (last !== null) {
          for (const projection of this.projections) {
            const covered = this.covered.get(projection.name) ?? null;
            if (from !== null && !reached(covered, from)) continue;
            if (
              events.some((event) => matchesPrefixes(event.streamName, projection.streamPrefixes))
            )
              continue;
            this.cover(projection.name, last);
          }
        }
        if (events.length < this.batchSize) return;
      }
    })().finally(() => {
      this.walking = undefined;
    });
    return this.walking;
  }

  /**
   * Applies batches until a read comes back short. true: the projection is covered up to the
   * frontier as it was when we began; false: another transaction holds its checkpoint.
   */
  private drain(projection: Projection, target?: string): Promise<boolean> {
    return this.serialise(projection.name, async () => {
      // Concurrent commands queue here; the drain ahead of this one may have covered it already.
      if (target !== undefined && reached(this.covered.get(projection.name) ?? null, target)) {
        return true;
      }
      for (;;) {
        const frontier = this.frontier;
        const outcome = await this.applyBatch(projection);
        if (outcome.busy) return false;
        this.cover(projection.name, outcome.position);
        if (outcome.read < this.batchSize) {
          this.cover(projection.name, frontier);
          return true;
        }
      }
    });
  }

  /**
   * Reads after what this runner knows is covered, not after the stored checkpoint: a checkpoint
   * only moves when its projection applies something, so reading from it would scan every event
   * of the other streams since, on each drain.
   */
  private async applyBatch(projection: Projection): Promise<BatchOutcome> {
    const from = this.covered.get(projection.name) ?? null;
    const events = await this.read(projection, from);
    if (events.length === 0) return { busy: false, read: 0, position: from };
    const last = events.at(-1)!.position;
    const result = await this.checkpoints.withLock(
      projection.name,
      { wait: false, timeoutMs: this.batchTimeoutMs },
      async (tx, position) => {
        // Another runner may have applied some of these since: the checkpoint says how far. A
        // checkpoint behind `from` only means nothing of this projection lay in between.
        const fresh =
          position === null ? events : events.filter((event) => event.position > position);
        await applyAll(projection, fresh, tx);
        return { position: fresh.length > 0 ? last : position };
      },
    );
    if (result === undefined) return { busy: true };
    this.frontier = later(this.frontier, last);
    return { busy: false, read: events.length, position: later(result.position, last) };
  }

  private cover(name: string, position: string | null): void {
    this.covered.set(name, later(this.covered.get(name) ?? null, position));
  }

  /**
   * Events of the projection after `after`. The walk's page when it began there: the store never
   * shows an event before one it has shown, so a read now would only add later events, which the
   * next round reads.
   */
  private read(projection: Projection, after: string | null): Promise<RecordedEvent[]> {
    const walked = this.walked;
    if (walked !== undefined && walked.after === after && walked.events.length > 0) {
      this.walked = undefined;
      return Promise.resolve(walked.events);
    }
    return this.store.readAll({
      after,
      streamPrefixes: projection.streamPrefixes,
      maxCount: this.batchSize,
    });
  }

  private serialise<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.queues.set(name, next);
    return next;
  }
}

async function applyAll(
  projection: Projection,
  events: RecordedEvent[],
  tx: PrismaTx,
): Promise<void> {
  if (events.length === 0) return;
  if (projection.applyBatch !== undefined) return projection.applyBatch(events, tx);
  for (const event of events) await projection.apply(event, tx);
}

function checkDeadline(deadline: number, waitingFor: string): void {
  if (Date.now() > deadline) throw new Error(`Timed out waiting for ${waitingFor}`);
}
