import { performance } from 'node:perf_hooks';

/**
 * How far apart a subscriber's reads of the store are at the least. Every append wakes every
 * subscriber of the process, and each wake costs a read and a look before sleeping again: under a
 * load of N appends a second, a subscriber reading on each wake makes about 2N queries a second
 * to hand over batches of one event. Spaced 20 ms apart, it makes at most about 100, and an event
 * waits at most 20 ms longer; an event after a quiet spell is read at once.
 */
export const DEFAULT_READ_SPACING_MS = 20;

/** Keeps a subscriber's reads at least `spacingMs` apart (see `DEFAULT_READ_SPACING_MS`). */
export class ReadPacer {
  private lastReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly spacingMs: number = DEFAULT_READ_SPACING_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isFinite(spacingMs) || spacingMs < 0) {
      throw new TypeError(`read spacing must be a number of ms ≥ 0, got ${spacingMs}`);
    }
  }

  /** Call as a read starts. */
  reading(): void {
    this.lastReadAt = this.now();
  }

  /**
   * Call before waiting for appends: resolves once `spacingMs` have passed since the last read
   * (at once when they have), or when `signal` aborts.
   */
  async spaced(signal?: AbortSignal): Promise<void> {
    const wait = this.lastReadAt + this.spacingMs - this.now();
    if (wait > 0) await sleep(wait, signal);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (already or meanwhile). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
