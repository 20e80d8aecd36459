import { fold } from '@xaalis/kernel';
import type {
  AbandonPayout,
  CreateAgentWallet,
  IssueAgentKey,
  ReleasePayout,
  RequestPayout,
  RevokeAgentKey,
  UpdateAgentWalletPolicy,
} from './agent-wallet.commands';
import type {
  AgentKeyIssued,
  AgentKeyRevoked,
  AgentWalletCreated,
  AgentWalletEvent,
  AgentWalletPolicyChanged,
  PayoutAccepted,
  PayoutAbandoned,
  PayoutReleased,
  WalletPolicy,
} from './agent-wallet.events';
import {
  evolve,
  exists,
  initialState,
  type AgentWallet,
  type AgentWalletState,
} from './agent-wallet.state';
import type { PayoutFeeSchedule } from './payout-fee';

/** Fixture builders for the agent wallet's given/when/then tests. */
export const WALLET_ID = 'aw_01JD0000000000000000000000';
export const MERCHANT_ID = 'mer_01JD0000000000000000000000';
export const KEY_ID = 'agk_01JD0000000000000000000000';
export const OTHER_KEY_ID = 'agk_01JD0000000000000000000001';
export const SECRET_HASH = 'a'.repeat(64);
export const OTHER_SECRET_HASH = 'b'.repeat(64);
export const PAYOUT_ID = 'po_01JD0000000000000000000000';
export const OTHER_PAYOUT_ID = 'po_01JD0000000000000000000001';
export const ACTION_ID = 'invoice-2026-11-0042';
export const OTHER_ACTION_ID = 'invoice-2026-11-0043';

export const RECIPIENT_PHONE = '+221771234567';
export const OTHER_ALLOWED_PHONE = '+221781112233';
export const STRANGER_PHONE = '+221761234567';
export const ALLOWED_PHONES = [RECIPIENT_PHONE, OTHER_ALLOWED_PHONE];

export const MAX_PAYOUT = 50_000;
export const MAX_DAILY = 100_000;
export const AMOUNT = 10_000;
/** Distinct rates, so a fee taken from the wrong provider shows. */
export const FEES: PayoutFeeSchedule = { wave: 100, orange_money: 150 };
/** FEES.wave on AMOUNT, by hand. */
export const FEE = 100;
/** Plenty: funds are not what most tests are about. */
export const RICH = 10_000_000;

export const T0 = new Date('2026-11-22T10:00:00.000Z');
export const DAY0 = '2026-11-22';
export const MINUTE = 60_000;
export const at = (minutes: number): Date => new Date(T0.getTime() + minutes * MINUTE);
/** The next Dakar day, one minute after midnight (UTC+0). */
export const NEXT_DAY = new Date('2026-11-23T00:01:00.000Z');

// Events.

export const walletCreated = (
  overrides: Partial<AgentWalletCreated['data']> = {},
): AgentWalletCreated => ({
  type: 'AgentWalletCreated',
  data: {
    walletId: WALLET_ID,
    merchantId: MERCHANT_ID,
    mode: 'test',
    name: 'Supplier payouts bot',
    provider: 'wave',
    maxPayoutAmount: MAX_PAYOUT,
    maxDailyAmount: MAX_DAILY,
    allowedRecipientPhones: ALLOWED_PHONES,
    createdAt: T0.toISOString(),
    ...overrides,
  },
});

export const policyChanged = (
  changes: Partial<WalletPolicy>,
  policyVersion = 2,
  when = at(1),
): AgentWalletPolicyChanged => ({
  type: 'AgentWalletPolicyChanged',
  data: { walletId: WALLET_ID, changes, policyVersion, changedAt: when.toISOString() },
});

export const keyIssued = (keyId = KEY_ID, secretHash = SECRET_HASH, when = T0): AgentKeyIssued => ({
  type: 'AgentKeyIssued',
  data: { walletId: WALLET_ID, keyId, secretHash, issuedAt: when.toISOString() },
});

export const keyRevoked = (keyId = KEY_ID, when = at(1)): AgentKeyRevoked => ({
  type: 'AgentKeyRevoked',
  data: { walletId: WALLET_ID, keyId, revokedAt: when.toISOString() },
});

export const requestKeyOf = (
  amount = AMOUNT,
  phone = RECIPIENT_PHONE,
  name: string | null = 'Fatou Sarr',
) => JSON.stringify([amount, 'XOF', phone, name]);

export const payoutAccepted = (overrides: Partial<PayoutAccepted['data']> = {}): PayoutAccepted => {
  const amount = overrides.amount ?? AMOUNT;
  return {
    type: 'PayoutAccepted',
    data: {
      walletId: WALLET_ID,
      payoutId: PAYOUT_ID,
      actionId: ACTION_ID,
      requestKey: requestKeyOf(amount),
      agentKeyId: KEY_ID,
      policyVersion: 1,
      provider: 'wave',
      amount,
      fee: FEE,
      currency: 'XOF',
      recipient: { phone: RECIPIENT_PHONE, name: 'Fatou Sarr' },
      day: DAY0,
      acceptedAt: at(2).toISOString(),
      ...overrides,
    },
  };
};

export const payoutReleased = (payoutId = PAYOUT_ID, when = at(3)): PayoutReleased => ({
  type: 'PayoutReleased',
  data: { walletId: WALLET_ID, payoutId, releasedAt: when.toISOString() },
});

export const payoutAbandoned = (payoutId = PAYOUT_ID, when = at(3)): PayoutAbandoned => ({
  type: 'PayoutAbandoned',
  data: { walletId: WALLET_ID, payoutId, abandonedAt: when.toISOString() },
});

// Histories.

/** An active wallet with one agent key. */
export const newWallet = (): AgentWalletEvent[] => [walletCreated(), keyIssued()];
export const newDisabledWallet = (): AgentWalletEvent[] => [
  ...newWallet(),
  policyChanged({ status: 'disabled' }),
];
/** 80,000 of the 100,000 daily cap taken today by two payouts. */
export const newBusyWallet = (): AgentWalletEvent[] => [
  ...newWallet(),
  payoutAccepted({ amount: 50_000, fee: 500, requestKey: requestKeyOf(50_000) }),
  payoutAccepted({
    payoutId: OTHER_PAYOUT_ID,
    actionId: OTHER_ACTION_ID,
    amount: 30_000,
    fee: 300,
    requestKey: requestKeyOf(30_000),
  }),
];

export const stateOf = (events: readonly AgentWalletEvent[]): AgentWalletState =>
  fold(evolve, initialState(), events);

export function walletOf(events: readonly AgentWalletEvent[]): AgentWallet {
  const state = stateOf(events);
  if (!exists(state)) throw new Error('fixture: these events create no agent wallet');
  return state;
}

// Commands.

export const createAgentWallet = (
  overrides: Partial<CreateAgentWallet['data']> = {},
): CreateAgentWallet => ({
  type: 'CreateAgentWallet',
  data: {
    walletId: WALLET_ID,
    merchantId: MERCHANT_ID,
    mode: 'test',
    name: 'Supplier payouts bot',
    provider: 'wave',
    maxPayoutAmount: MAX_PAYOUT,
    maxDailyAmount: MAX_DAILY,
    allowedRecipientPhones: ALLOWED_PHONES,
    now: T0,
    ...overrides,
  },
});

export const updatePolicy = (
  changes: Partial<WalletPolicy>,
  now = at(1),
): UpdateAgentWalletPolicy => ({ type: 'UpdateAgentWalletPolicy', data: { changes, now } });

export const issueAgentKey = (overrides: Partial<IssueAgentKey['data']> = {}): IssueAgentKey => ({
  type: 'IssueAgentKey',
  data: { keyId: KEY_ID, secretHash: SECRET_HASH, now: T0, ...overrides },
});

export const revokeAgentKey = (
  overrides: Partial<RevokeAgentKey['data']> = {},
): RevokeAgentKey => ({
  type: 'RevokeAgentKey',
  data: { keyId: KEY_ID, now: at(1), ...overrides },
});

export const requestPayout = (overrides: Partial<RequestPayout['data']> = {}): RequestPayout => ({
  type: 'RequestPayout',
  data: {
    payoutId: PAYOUT_ID,
    actionId: ACTION_ID,
    agentKeyId: KEY_ID,
    amount: AMOUNT,
    currency: null,
    recipient: { phone: RECIPIENT_PHONE, name: 'Fatou Sarr' },
    fees: FEES,
    available: RICH,
    now: at(2),
    ...overrides,
  },
});

export const abandonPayout = (overrides: Partial<AbandonPayout['data']> = {}): AbandonPayout => ({
  type: 'AbandonPayout',
  data: { payoutId: PAYOUT_ID, now: at(3), ...overrides },
});

export const releasePayout = (overrides: Partial<ReleasePayout['data']> = {}): ReleasePayout => ({
  type: 'ReleasePayout',
  data: { payoutId: PAYOUT_ID, now: at(3), ...overrides },
});
