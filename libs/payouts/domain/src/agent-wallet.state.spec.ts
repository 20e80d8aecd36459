import {
  AGENT_WALLET_EVENT_TYPES,
  agentWalletStream,
  type AgentWalletEventType,
} from './agent-wallet.events';
import {
  AMOUNT,
  at,
  DAY0,
  keyIssued,
  keyRevoked,
  MAX_DAILY,
  newBusyWallet,
  newWallet,
  OTHER_PAYOUT_ID,
  payoutAccepted,
  payoutReleased,
  PAYOUT_ID,
  policyChanged,
  requestKeyOf,
  stateOf,
  T0,
  walletCreated,
  walletOf,
  WALLET_ID,
} from './agent-wallet.fixtures';
import { countingDay, evolve, initialState, isKeyActive, spentOn } from './agent-wallet.state';

describe('agent wallet state: one case per event type', () => {
  it('lists every event type once; streams are agent-wallet-<id>', () => {
    const ALL: Record<AgentWalletEventType, true> = {
      AgentWalletCreated: true,
      AgentWalletPolicyChanged: true,
      AgentKeyIssued: true,
      AgentKeySecretReissued: true,
      AgentKeyRevoked: true,
      PayoutAccepted: true,
      PayoutReleased: true,
      PayoutAbandoned: true,
    };
    expect([...AGENT_WALLET_EVENT_TYPES].sort()).toEqual(Object.keys(ALL).sort());
    expect(agentWalletStream(WALLET_ID)).toBe(`agent-wallet-${WALLET_ID}`);
  });

  it('AgentWalletCreated: active, version 1, no keys, nothing spent', () => {
    const wallet = walletOf([walletCreated()]);
    expect(wallet).toMatchObject({
      walletId: WALLET_ID,
      status: 'active',
      policyVersion: 1,
      maxDailyAmount: MAX_DAILY,
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      spending: { day: null, total: 0 },
    });
    expect(wallet.keys.size).toBe(0);
    expect(wallet.actions.size).toBe(0);
  });

  it('AgentWalletPolicyChanged: the changed fields, the version, updated_at', () => {
    const wallet = walletOf([
      ...newWallet(),
      policyChanged({ name: 'New', status: 'disabled' }, 2),
    ]);
    expect(wallet).toMatchObject({
      name: 'New',
      status: 'disabled',
      maxDailyAmount: MAX_DAILY,
      policyVersion: 2,
      updatedAt: at(1).toISOString(),
    });
  });

  it('AgentKeyIssued and AgentKeyRevoked: the key is active, then not', () => {
    expect(isKeyActive(walletOf(newWallet()), 'agk_01JD0000000000000000000000')).toBe(true);
    const revoked = walletOf([...newWallet(), keyRevoked()]);
    expect(isKeyActive(revoked, 'agk_01JD0000000000000000000000')).toBe(false);
    expect(isKeyActive(revoked, 'agk_unknown')).toBe(false);
    expect(revoked.keys.get('agk_01JD0000000000000000000000')).toEqual({
      keyId: 'agk_01JD0000000000000000000000',
      secretHash: 'a'.repeat(64),
      createdAt: T0.toISOString(),
      revokedAt: at(1).toISOString(),
    });
    // A revocation of a key the wallet never had changes nothing.
    const wallet = walletOf(newWallet());
    expect(evolve(wallet, keyRevoked('agk_unknown'))).toBe(wallet);
    expect(walletOf([walletCreated(), keyIssued()]).keys.size).toBe(1);
  });

  it('PayoutAccepted: the action, the payout and the day total', () => {
    const wallet = walletOf(newBusyWallet());
    expect(wallet.actions.get('invoice-2026-11-0042')).toEqual({
      payoutId: PAYOUT_ID,
      requestKey: requestKeyOf(50_000),
    });
    expect(wallet.payouts.get(OTHER_PAYOUT_ID)).toEqual({ amount: 30_000, day: DAY0 });
    expect(wallet.spending).toEqual({ day: DAY0, total: 80_000 });
  });

  it('PayoutAccepted on a later day starts its total; an earlier day is not counted', () => {
    const later = walletOf([
      ...newBusyWallet(),
      payoutAccepted({ payoutId: 'po_3', actionId: 'c', day: '2026-11-23' }),
    ]);
    expect(later.spending).toEqual({ day: '2026-11-23', total: AMOUNT });
    const earlier = walletOf([
      ...newBusyWallet(),
      payoutAccepted({ payoutId: 'po_3', actionId: 'c', day: '2026-11-21' }),
    ]);
    expect(earlier.spending).toEqual({ day: DAY0, total: 80_000 });
  });

  it('PayoutReleased: its share of its day given back, once', () => {
    expect(walletOf([...newBusyWallet(), payoutReleased(OTHER_PAYOUT_ID)]).spending).toEqual({
      day: DAY0,
      total: 50_000,
    });
    expect(walletOf([...newBusyWallet(), payoutReleased('po_never')]).spending.total).toBe(80_000);
  });

  it('spentOn and countingDay', () => {
    const wallet = walletOf(newBusyWallet());
    expect(spentOn(wallet, DAY0)).toBe(80_000);
    expect(spentOn(wallet, '2026-11-23')).toBe(0);
    expect(countingDay(wallet, '2026-11-21')).toBe(DAY0);
    expect(countingDay(wallet, '2026-11-23')).toBe('2026-11-23');
    expect(countingDay(walletOf(newWallet()), '2026-11-21')).toBe('2026-11-21');
  });

  it('events before the creation change nothing', () => {
    expect(evolve(initialState(), keyIssued())).toEqual({ status: 'absent' });
    expect(stateOf([payoutReleased()])).toEqual({ status: 'absent' });
  });
});
