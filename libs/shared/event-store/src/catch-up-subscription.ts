import type { EventStore, ReadAllPage, RecordedEvent } from './event-store';
import { ReadPacer, sleep } from './read-pacer';

export interface SubscriptionLogger {
  warn(message: string, error?: unknown): void;
}

export interface SubscribeOptions {
  /** Start after this checkpoint (exclusive); null or absent: from the beginning. */
  after?: string | null;
  /** Only events of streams whose name starts with one of these. */
  streamPrefixes?: string[];
  /** Events read per round (before prefix filtering). Default 100. */
  batchSize?: number;
  /**
   * Handles one batch, in order. When it throws, the same batch is offered again after a backoff,
   * for as long as it takes: an event is never skipped. Make it idempotent (a batch may be seen
   * again after a crash), e.g. by storing the checkpoint in the same transaction as the effects.
   */
  onBatch: (events: RecordedEvent[]) => Promise<void>;
  /** Stops the subscription, like stop(). */
  signal?: AbortSignal;
  /** Longest sleep in waitForAppend when caught up. Default 5000 ms. */
  idleWaitMs?: number;
  /** Least time between two reads once caught up (see `DEFAULT_READ_SPACING_MS`). Default 20 ms. */
  readSpacingMs?: number;
  /** Backoff after a failure: doubles from initialDelayMs (default 100) up to maxDelayMs (default 30 s). */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Where failures are reported. Default console. */
  logger?: SubscriptionLogger;
  /** Names the subscription in log lines. */
  name?: string;
}

export interface Subscription {
  /** Checkpoint of the last event read and handled (also past events filtered out), null before any. */
  readonly position: string | null;
  /** Ends the loop; resolves once a batch in progress has finished. */
  stop(): Promise<void>;
}

/**
 * A catch-up subscription: read a batch after the checkpoint, hand it to onBatch, advance, and
 * when caught up sleep in waitForAppend until something is appended.
 *
 * The prefixes go to the store (readAllPage), which also says how far it scanned: the position
 * moves past the other streams' events without reading them, so waitForAppend (which sees those)
 * starts at the head and does not wake at once, again and again.
 */
export function subscribe(store: EventStore, options: SubscribeOptions): Subscription {
  const batchSize = options.batchSize ?? 100;
  const idleWaitMs = options.idleWaitMs ?? 5000;
  const initialDelayMs = options.retry?.initialDelayMs ?? 100;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const logger = options.logger ?? console;
  const pacer = new ReadPacer(options.readSpacingMs);
  const label = options.name ? `Subscription ${options.name}` : 'Subscription';
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new TypeError(`batchSize must be a positive integer, got ${batchSize}`);
  }

  const stopping = new AbortController();
  const stopOnSignal = () => stopping.abort();
  options.signal?.addEventListener('abort', stopOnSignal, { once: true });
  if (options.signal?.aborted) stopping.abort();
  const signal = stopping.signal;
  let position = options.after ?? null;

  const backoff = (failures: number) => Math.min(maxDelayMs, initialDelayMs * 2 ** (failures - 1));

  /** Calls fn until it succeeds; false when stopped first. */
  async function untilDone(what: string, fn: () => Promise<void>): Promise<boolean> {
    for (let failures = 0; !signal.aborted;) {
      try {
        await fn();
        return true;
      } catch (error) {
        failures++;
        const delayMs = backoff(failures);
        logger.warn(
          `${label}: ${what} failed (attempt ${failures}), retrying in ${delayMs} ms`,
          error,
        );
        await sleep(delayMs, signal);
      }
    }
    return false;
  }

  async function run(): Promise<void> {
    // A short batch means the read reached the head: wait rather than read again (waitForAppend
    // looks at the table before it sleeps, so nothing appended meanwhile is slept through), and
    // not sooner than the read spacing after the last read, so that appends coming in meanwhile
    // are read as one batch.
    let caughtUp = false;
    while (!signal.aborted) {
      if (caughtUp) {
        await pacer.spaced(signal);
        const waited = await untilDone('waiting for appends', () =>
          store.waitForAppend(position, idleWaitMs, signal, options.streamPrefixes),
        );
        if (!waited) return;
      }
      let page: ReadAllPage = { events: [], position };
      const read = await untilDone(`reading after ${position ?? 'the start'}`, async () => {
        pacer.reading();
        page = await store.readAllPage({
          after: position,
          maxCount: batchSize,
          streamPrefixes: options.streamPrefixes,
        });
      });
      if (!read) return;
      const batch = page.events;
      caughtUp = batch.length < batchSize;
      if (batch.length > 0) {
        const handled = await untilDone(`handling the batch from ${batch[0]!.position}`, () =>
          options.onBatch(batch),
        );
        if (!handled) return;
      }
      position = page.position;
    }
  }

  const done = run().finally(() => options.signal?.removeEventListener('abort', stopOnSignal));

  return {
    get position() {
      return position;
    },
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
