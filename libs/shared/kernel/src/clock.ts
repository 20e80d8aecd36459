/** The domain never reads the wall clock: `now` comes in with each command from a Clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class FixedClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(date: Date): void {
    this.current = new Date(date.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** ISO 8601 UTC with milliseconds, the only timestamp format the API emits. */
export const iso = (date: Date): string => date.toISOString();

export const isoOrNull = (date: Date | null | undefined): string | null =>
  date ? date.toISOString() : null;
