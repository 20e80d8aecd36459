import { givenWhenThen } from '@xaalis/kernel/testing';
import { assertRoomFor, phoneDayDecider } from './phone-day.decide';
import { evolve, initialState } from './phone-day.state';
import { amountReleased, amountReserved, releaseAmount, reserveAmount } from './phone-day.fixtures';

const { given } = givenWhenThen(phoneDayDecider);

/** Two exchanges of 1,000,000 and one of 500: 1,999,500 used. */
const busyDay = [amountReserved(1, 1_000_000), amountReserved(2, 999_500)];

describe('phone day decider (2,000,000 XOF per phone per Dakar day)', () => {
  it('reserves an exchange on a fresh day', () => {
    given([])
      .when(reserveAmount(1, 1_000_000))
      .then([amountReserved(1, 1_000_000)]);
  });

  it('exactly 2,000,000 passes', () => {
    given(busyDay)
      .when(reserveAmount(3, 500))
      .then([amountReserved(3, 500)]);
  });

  it('one franc more is limit_exceeded, with the limit and what is used', () => {
    const error = given(busyDay).when(reserveAmount(3, 501)).thenRefuses('limit_exceeded');
    expect(error.details).toEqual({ limit: 2_000_000, used: 1_999_500 });
  });

  it('a released amount frees room', () => {
    given([...busyDay, amountReleased(2, 999_500)])
      .when(reserveAmount(3, 1_000_000))
      .then([amountReserved(3, 1_000_000)]);
  });

  it('a repeat of a reservation decides nothing, even on a full day', () => {
    given(busyDay).when(reserveAmount(2, 999_500)).then([]);
  });

  it('releases what the exchange reserved, once', () => {
    given(busyDay)
      .when(releaseAmount(2))
      .then([amountReleased(2, 999_500)]);
    given([...busyDay, amountReleased(2, 999_500)])
      .when(releaseAmount(2))
      .then([]);
  });

  it('a release of an exchange never reserved here is not_found', () => {
    given(busyDay).when(releaseAmount(9)).thenRefuses('not_found');
  });
});

describe('assertRoomFor (what a quote and a creation ask before reserving)', () => {
  const day = busyDay.reduce(evolve, initialState());

  it('exactly the limit passes', () => {
    expect(() => assertRoomFor(day, 500)).not.toThrow();
  });

  it('one franc more is limit_exceeded, with what is used', () => {
    expect(() => assertRoomFor(day, 501)).toThrow(
      expect.objectContaining({
        code: 'limit_exceeded',
        details: { limit: 2_000_000, used: 1_999_500 },
      }),
    );
  });
});
