/** Where the bar is drawn: stderr, so a replay's stdout stays clean for its summary. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const WIDTH = 30;

/** One line of progress; `total` undefined when the store cannot count ahead (EventStoreDB). */
export function renderProgress(
  label: string,
  done: number,
  total: number | undefined,
  elapsedMs: number,
): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(done / seconds) : 0;
  const tail = `${done.toLocaleString('en-US')}${total === undefined ? '' : `/${total.toLocaleString('en-US')}`} events  ${seconds.toFixed(1)} s  ${rate.toLocaleString('en-US')} events/s`;
  if (total === undefined) return `${label} ${tail}`;
  const ratio = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(ratio * WIDTH);
  const percent = `${Math.floor(ratio * 100)}`.padStart(3);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${percent}%  ${tail}`;
}

/**
 * A hand-made progress bar. On a terminal it redraws one line (at most every 100 ms); into a file
 * or pipe it writes a line every 5 s instead, since carriage returns would pile up there.
 */
export class ProgressBar {
  private readonly started: number;
  private lastDrawn = -Infinity;
  private done = 0;

  constructor(
    private readonly out: ProgressOutput,
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  update(done: number): void {
    this.done = done;
    const interval = this.out.isTTY ? 100 : 5000;
    if (this.now() - this.lastDrawn >= interval) this.draw();
  }

  finish(): void {
    this.draw();
    if (this.out.isTTY) this.out.write('\n');
  }

  private draw(): void {
    this.lastDrawn = this.now();
    const line = renderProgress(this.label, this.done, this.total, this.lastDrawn - this.started);
    this.out.write(this.out.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
  }
}
