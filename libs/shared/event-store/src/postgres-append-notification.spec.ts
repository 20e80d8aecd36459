import { appendNotification, readAppendNotification } from './postgres-append-notification';

const POSITION = '00000000000000000812:00000000000000000007';

describe('append notifications', () => {
  it('name the categories appended to after the position, and read back as written', () => {
    const payload = appendNotification(POSITION, new Set(['payout-', 'agent_wallet-']));

    expect(payload).toBe(`${POSITION} ["payout-","agent_wallet-"]`);
    expect(readAppendNotification(payload)).toEqual({
      position: POSITION,
      categories: ['payout-', 'agent_wallet-'],
    });
  });

  it('name none when there are many or they are long: the position alone wakes every reader', () => {
    const many = Array.from({ length: 33 }, (_, n) => `c${n}-`);
    expect(appendNotification(POSITION, many)).toBe(POSITION);
    expect(appendNotification(POSITION, ['x'.repeat(5_000)])).toBe(POSITION);
    expect(appendNotification(POSITION, [])).toBe(POSITION);
    expect(readAppendNotification(POSITION)).toEqual({ position: POSITION, categories: undefined });
  });

  it('read a payload they cannot parse as naming no category', () => {
    for (const rest of ['[1]', 'not json', '{"a":1}', '["a", 2]']) {
      expect(readAppendNotification(`${POSITION} ${rest}`)).toEqual({
        position: POSITION,
        categories: undefined,
      });
    }
  });
});
