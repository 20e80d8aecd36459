import { assertNever, type Mode, type WalletProvider } from '@xaalis/kernel';
import type { AgentWalletEvent, WalletPolicy } from './agent-wallet.events';
import { AppendOnlyMap } from './append-only-map';

export interface AgentKeyState {
  keyId: string;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
}

/** What an `action_id` was first used for: a retry returns this payout, another body is a 409. */
export interface ActionRecord {
  payoutId: string;
  requestKey: string;
}

/** A payout the wallet accepted: what it took of which Dakar day's cap. */
export interface AcceptedPayout {
  amount: number;
  day: string;
}

/**
 * What the wallet's payouts claim of the latest Dakar day it accepted one on: the sum of that
 * day's payouts not released (pending, processing or succeeded: the spec's daily rule). An
 * earlier day's cap can no longer be asked about, so one total is enough.
 */
export interface DaySpending {
  day: string | null;
  total: number;
}

export interface AgentWallet extends WalletPolicy {
  walletId: string;
  merchantId: string;
  mode: Mode;
  provider: WalletProvider;
  /** 1 at creation, one higher with each policy change (CONTRACT 5). */
  policyVersion: number;
  createdAt: string;
  updatedAt: string;
  keys: ReadonlyMap<string, AgentKeyState>;
  /**
   * Every `action_id` the wallet accepted, for ever (CONTRACT 3: unique within the wallet), and
   * every payout with what it took. Maps, not objects: the action ids are the caller's text, and
   * `__proto__` is a fine id. Append-only, so folding a busy wallet stays linear.
   */
  actions: AppendOnlyMap<ActionRecord>;
  payouts: AppendOnlyMap<AcceptedPayout>;
  /** Payouts that failed: they no longer count against their day. */
  released: AppendOnlyMap<true>;
  /** Payout ids whose held funds were given back before the wallet accepted them: closed. */
  abandoned: AppendOnlyMap<true>;
  spending: DaySpending;
}

export type AgentWalletState = { status: 'absent' } | AgentWallet;

export const initialState = (): AgentWalletState => ({ status: 'absent' });

export const exists = (state: AgentWalletState): state is AgentWallet => state.status !== 'absent';

const NO_SPENDING: DaySpending = { day: null, total: 0 };

/** What the wallet's payouts already claim of `day`'s cap. */
export const spentOn = (wallet: AgentWallet, day: string): number =>
  wallet.spending.day === day ? wallet.spending.total : 0;

/**
 * The day a payout judged at `day` counts against: never one before the latest day the wallet
 * has seen. A replica whose clock lags behind midnight counts its payout on the newer day, which
 * can only refuse more, never let a payout past the cap (fail-closed).
 */
export const countingDay = (wallet: AgentWallet, day: string): string =>
  wallet.spending.day !== null && wallet.spending.day > day ? wallet.spending.day : day;

export const isKeyActive = (wallet: AgentWallet, keyId: string): boolean => {
  const key = wallet.keys.get(keyId);
  return key !== undefined && key.revokedAt === null;
};

const withEntry = <V>(map: ReadonlyMap<string, V>, key: string, value: V): Map<string, V> =>
  new Map(map).set(key, value);

function spend(spending: DaySpending, day: string, amount: number): DaySpending {
  if (spending.day === day) return { day, total: spending.total + amount };
  if (spending.day !== null && spending.day > day) return spending;
  return { day, total: amount };
}

/** A failed payout gives back its share, if its day is still the one counted. */
function release(spending: DaySpending, payout: AcceptedPayout | undefined): DaySpending {
  if (payout === undefined || payout.day !== spending.day) return spending;
  return { day: spending.day, total: spending.total - payout.amount };
}

export function evolve(state: AgentWalletState, event: AgentWalletEvent): AgentWalletState {
  if (event.type === 'AgentWalletCreated') {
    const data = event.data;
    return {
      walletId: data.walletId,
      merchantId: data.merchantId,
      mode: data.mode,
      name: data.name,
      provider: data.provider,
      status: 'active',
      maxPayoutAmount: data.maxPayoutAmount,
      maxDailyAmount: data.maxDailyAmount,
      allowedRecipientPhones: data.allowedRecipientPhones,
      policyVersion: 1,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
      keys: new Map(),
      actions: AppendOnlyMap.empty(),
      payouts: AppendOnlyMap.empty(),
      released: AppendOnlyMap.empty(),
      abandoned: AppendOnlyMap.empty(),
      spending: NO_SPENDING,
    };
  }
  if (!exists(state)) return state;
  switch (event.type) {
    case 'AgentWalletPolicyChanged':
      return {
        ...state,
        ...event.data.changes,
        policyVersion: event.data.policyVersion,
        updatedAt: event.data.changedAt,
      };
    case 'AgentKeyIssued':
      return {
        ...state,
        keys: withEntry(state.keys, event.data.keyId, {
          keyId: event.data.keyId,
          secretHash: event.data.secretHash,
          createdAt: event.data.issuedAt,
          revokedAt: null,
        }),
      };
    case 'AgentKeySecretReissued': {
      const key = state.keys.get(event.data.keyId);
      if (!key) return state;
      return {
        ...state,
        keys: withEntry(state.keys, key.keyId, { ...key, secretHash: event.data.secretHash }),
      };
    }
    case 'AgentKeyRevoked': {
      const key = state.keys.get(event.data.keyId);
      if (!key) return state;
      return {
        ...state,
        keys: withEntry(state.keys, key.keyId, { ...key, revokedAt: event.data.revokedAt }),
      };
    }
    case 'PayoutAccepted': {
      const data = event.data;
      return {
        ...state,
        actions: state.actions.set(data.actionId, {
          payoutId: data.payoutId,
          requestKey: data.requestKey,
        }),
        payouts: state.payouts.set(data.payoutId, { amount: data.amount, day: data.day }),
        spending: spend(state.spending, data.day, data.amount),
      };
    }
    case 'PayoutReleased': {
      const { payoutId } = event.data;
      if (state.released.has(payoutId)) return state;
      return {
        ...state,
        released: state.released.set(payoutId, true),
        spending: release(state.spending, state.payouts.get(payoutId)),
      };
    }
    case 'PayoutAbandoned':
      return { ...state, abandoned: state.abandoned.set(event.data.payoutId, true) };
    default:
      return assertNever(event);
  }
}
