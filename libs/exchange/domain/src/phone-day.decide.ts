import {
  assertNever,
  DomainError,
  notFound,
  PHONE_DAILY_LIMIT,
  type Decider,
} from '@xaalis/kernel';
import type { PhoneDayCommand, ReleaseAmount, ReserveAmount } from './phone-day.commands';
import type { PhoneDayEvent } from './phone-day.events';
import { evolve, initialState, usedToday, type PhoneDayState } from './phone-day.state';

export const limitExceeded = (used: number) =>
  new DomainError('limit_exceeded', 'This phone has reached its daily exchange limit.', {
    limit: PHONE_DAILY_LIMIT,
    used,
  });

/**
 * `limit_exceeded` unless the day has room for `amount`: exactly the limit passes, one franc more
 * is refused. The reservation's rule, which a quote and an exchange's creation also ask first.
 */
export function assertRoomFor(state: PhoneDayState, amount: number): void {
  const used = usedToday(state);
  if (used + amount > PHONE_DAILY_LIMIT) throw limitExceeded(used);
}

function reserveAmount({ data }: ReserveAmount, state: PhoneDayState): PhoneDayEvent[] {
  if (state.has(data.exchangeId)) return [];
  if (!Number.isSafeInteger(data.amount) || data.amount < 1) {
    throw new RangeError(`bad amount ${data.amount}`);
  }
  assertRoomFor(state, data.amount);
  return [
    {
      type: 'AmountReserved',
      data: {
        exchangeId: data.exchangeId,
        amount: data.amount,
        reservedAt: data.now.toISOString(),
      },
    },
  ];
}

function releaseAmount({ data }: ReleaseAmount, state: PhoneDayState): PhoneDayEvent[] {
  const reservation = state.get(data.exchangeId);
  if (reservation === undefined) throw notFound('reservation');
  if (reservation.released) return [];
  return [
    {
      type: 'AmountReleased',
      data: {
        exchangeId: data.exchangeId,
        amount: reservation.amount,
        releasedAt: data.now.toISOString(),
      },
    },
  ];
}

export function decide(command: PhoneDayCommand, state: PhoneDayState): PhoneDayEvent[] {
  switch (command.type) {
    case 'ReserveAmount':
      return reserveAmount(command, state);
    case 'ReleaseAmount':
      return releaseAmount(command, state);
    default:
      return assertNever(command);
  }
}

export const phoneDayDecider: Decider<PhoneDayState, PhoneDayCommand, PhoneDayEvent> = {
  initialState,
  evolve,
  decide,
};
