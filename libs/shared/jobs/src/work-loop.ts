import { performance } from 'node:perf_hooks';

/** What a pass tells the loop about the next one. */
export interface PassResult {
  /** Nothing more to do now: sleep `pollMs`, or until woken. A wake during the pass skips it. */
  idle: boolean;
  /**
   * When not sleeping: start the next pass no sooner than this long after this one started.
   * Wake-ups do not shorten it (only a stop does): it caps how often a busy loop queries.
   */
  minIntervalMs?: number;
}

export interface WorkLoopOptions {
  /** One round of work. A pass that throws is reported to `onError` and counts as idle. */
  pass: () => Promise<PassResult>;
  /** The longest sleep when idle: how late work nobody woke the loop for is found. */
  pollMs: number;
  onError: (error: Error) => void;
}

/**
 * The loop of a worker that polls a table for due work (the job scheduler, webhook deliveries):
 * passes one after the other, a sleep when idle that a wake-up ends (new work, a free slot), and
 * a stop that waits for the pass under way. Work in flight beyond the pass is the worker's to
 * wait for.
 */
export class WorkLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private woken = false;
  private interrupt: (() => void) | undefined;

  constructor(private readonly options: WorkLoopOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ends the sleep, or waits for the pass under way; then no pass starts again. */
  async stop(): Promise<void> {
    this.running = false;
    this.interrupt?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Look again now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.interrupt?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      const started = performance.now();
      let result: PassResult = { idle: true };
      try {
        result = await this.options.pass();
      } catch (error) {
        this.options.onError(error instanceof Error ? error : new Error(String(error)));
      }
      if (!this.running) break;
      if (result.idle && !this.woken) await this.sleep(this.options.pollMs, true);
      else if (result.minIntervalMs !== undefined) {
        const left = started + result.minIntervalMs - performance.now();
        if (left > 0) await this.sleep(left, false);
      }
    }
  }

  /** Until `ms` pass; a wake-up ends it early when `wakeable`, a stop always. */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.interrupt = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interrupt = () => {
        if (wakeable || !this.running) done();
      };
    });
  }
}
