import { assertNever } from '@xaalis/kernel';
import type { PhoneDayEvent } from './phone-day.events';

export interface Reservation {
  amount: number;
  released: boolean;
}

/** The day's reservations by exchange id. */
export type PhoneDayState = ReadonlyMap<string, Reservation>;

export const initialState = (): PhoneDayState => new Map();

export function evolve(state: PhoneDayState, event: PhoneDayEvent): PhoneDayState {
  const next = new Map(state);
  switch (event.type) {
    case 'AmountReserved':
      next.set(event.data.exchangeId, { amount: event.data.amount, released: false });
      return next;
    case 'AmountReleased':
      next.set(event.data.exchangeId, { amount: event.data.amount, released: true });
      return next;
    default:
      return assertNever(event);
  }
}

/** What counts against the limit: every amount reserved and not released. */
export const usedToday = (state: PhoneDayState): number =>
  [...state.values()].reduce((sum, r) => (r.released ? sum : sum + r.amount), 0);
