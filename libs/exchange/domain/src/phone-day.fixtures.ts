import type { ReleaseAmount, ReserveAmount } from './phone-day.commands';
import type { PhoneDayEvent } from './phone-day.events';

/** Fixture builders for the phone day's given/when/then tests. */
export const NOW = new Date('2026-11-22T10:00:00.000Z');
export const exchangeId = (n: number): string =>
  `ex_01JD00000000000000000000${String(n).padStart(2, '0')}`;

export const reserveAmount = (n: number, amount: number): ReserveAmount => ({
  type: 'ReserveAmount',
  data: { exchangeId: exchangeId(n), amount, now: NOW },
});

export const releaseAmount = (n: number): ReleaseAmount => ({
  type: 'ReleaseAmount',
  data: { exchangeId: exchangeId(n), now: NOW },
});

export const amountReserved = (n: number, amount: number): PhoneDayEvent => ({
  type: 'AmountReserved',
  data: { exchangeId: exchangeId(n), amount, reservedAt: NOW.toISOString() },
});

export const amountReleased = (n: number, amount: number): PhoneDayEvent => ({
  type: 'AmountReleased',
  data: { exchangeId: exchangeId(n), amount, releasedAt: NOW.toISOString() },
});
