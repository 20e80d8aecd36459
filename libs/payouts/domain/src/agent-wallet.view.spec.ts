import {
  at,
  keyRevoked,
  newBusyWallet,
  newWallet,
  NEXT_DAY,
  payoutReleased,
  policyChanged,
  T0,
  walletCreated,
  walletOf,
  WALLET_ID,
} from './agent-wallet.fixtures';
import {
  inAgentWalletOrder,
  toAgentKeyObject,
  toAgentWalletObject,
  toAgentWalletWithSpending,
} from './agent-wallet.view';

describe('agent wallet views', () => {
  it('toAgentWalletObject: spec 2.6 and policy_version', () => {
    expect(toAgentWalletObject(walletOf(newWallet()))).toEqual({
      id: WALLET_ID,
      object: 'agent_wallet',
      livemode: false,
      name: 'Supplier payouts bot',
      status: 'active',
      provider: 'wave',
      max_payout_amount: 50_000,
      max_daily_amount: 100_000,
      allowed_recipient_phones: ['+221771234567', '+221781112233'],
      policy_version: 1,
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
    });
  });

  it('inAgentWalletOrder: a stored object (keys sorted, as jsonb keeps them) in GET order', () => {
    const wallet = toAgentWalletObject(walletOf(newWallet()));
    const sorted = Object.fromEntries(
      Object.entries(wallet).sort(([a], [b]) => a.localeCompare(b)),
    );
    expect(JSON.stringify(sorted)).not.toBe(JSON.stringify(wallet));
    expect(JSON.stringify(inAgentWalletOrder(sorted as typeof wallet))).toBe(
      JSON.stringify(wallet),
    );
  });

  it('a policy change shows in the object, with its version and time', () => {
    const history = [
      ...newWallet(),
      policyChanged({ status: 'disabled', maxDailyAmount: null }, 2),
    ];
    expect(toAgentWalletObject(walletOf(history))).toMatchObject({
      status: 'disabled',
      max_daily_amount: null,
      policy_version: 2,
      updated_at: at(1).toISOString(),
    });
  });

  describe('spent_today and remaining_today (GET /v1/agent/wallet)', () => {
    it("what today's payouts take of the cap", () => {
      expect(toAgentWalletWithSpending(walletOf(newBusyWallet()), at(10))).toMatchObject({
        spent_today: 80_000,
        remaining_today: 20_000,
      });
    });

    it('a failed payout gives its share back', () => {
      const history = [...newBusyWallet(), payoutReleased()];
      expect(toAgentWalletWithSpending(walletOf(history), at(10))).toMatchObject({
        spent_today: 30_000,
        remaining_today: 70_000,
      });
    });

    it('a new Dakar day: nothing spent', () => {
      expect(toAgentWalletWithSpending(walletOf(newBusyWallet()), NEXT_DAY)).toMatchObject({
        spent_today: 0,
        remaining_today: 100_000,
      });
    });

    it('null without a daily cap; never below zero under a lowered cap', () => {
      const uncapped = [...newBusyWallet(), policyChanged({ maxDailyAmount: null })];
      expect(toAgentWalletWithSpending(walletOf(uncapped), at(10))).toMatchObject({
        spent_today: 80_000,
        remaining_today: null,
      });
      const lowered = [...newBusyWallet(), policyChanged({ maxDailyAmount: 50_000 })];
      expect(toAgentWalletWithSpending(walletOf(lowered), at(10)).remaining_today).toBe(0);
    });
  });

  it('toAgentKeyObject: no secret, and revoked_at once revoked', () => {
    const wallet = walletOf([
      walletCreated({ mode: 'live' }),
      ...newWallet().slice(1),
      keyRevoked(),
    ]);
    const [key] = [...wallet.keys.values()];
    expect(toAgentKeyObject(wallet, key)).toEqual({
      id: 'agk_01JD0000000000000000000000',
      object: 'agent_key',
      agent_wallet_id: WALLET_ID,
      livemode: true,
      created_at: T0.toISOString(),
      revoked_at: at(1).toISOString(),
    });
  });
});
