import type { RecordedEvent, StoredFact } from '@xaalis/event-store';
import {
  AGENT_WALLET_EVENT_TYPES,
  evolveAgentWallet,
  evolvePayout,
  initialAgentWalletState,
  initialPayoutState,
  AGENT_WALLET_STREAM_PREFIX,
  PAYOUT_EVENT_TYPES,
  PAYOUT_STREAM_PREFIX,
  type AgentWalletEvent,
  type PayoutEvent,
} from '@xaalis/payouts-domain';

const WALLET_TYPES = new Set<string>(AGENT_WALLET_EVENT_TYPES);
const PAYOUT_TYPES = new Set<string>(PAYOUT_EVENT_TYPES);

/** A stored event of a wallet stream as the decider's event type; undefined for another type. */
export const agentWalletEventOf = (stored: StoredFact): AgentWalletEvent | undefined =>
  WALLET_TYPES.has(stored.type)
    ? ({ type: stored.type, data: stored.data } as AgentWalletEvent)
    : undefined;

export const payoutEventOf = (stored: StoredFact): PayoutEvent | undefined =>
  PAYOUT_TYPES.has(stored.type)
    ? ({ type: stored.type, data: stored.data } as PayoutEvent)
    : undefined;

export const asAgentWalletEvent = (recorded: RecordedEvent): AgentWalletEvent | undefined =>
  recorded.streamName.startsWith(AGENT_WALLET_STREAM_PREFIX)
    ? agentWalletEventOf(recorded)
    : undefined;

export const asPayoutEvent = (recorded: RecordedEvent): PayoutEvent | undefined =>
  recorded.streamName.startsWith(PAYOUT_STREAM_PREFIX) ? payoutEventOf(recorded) : undefined;

/** How a wallet's and a payout's streams fold, for `foldStream` and `foldStreamTo`. */
export const WALLET_FOLD = {
  initialState: initialAgentWalletState,
  evolve: evolveAgentWallet,
  asEvent: agentWalletEventOf,
};

export const PAYOUT_FOLD = {
  initialState: initialPayoutState,
  evolve: evolvePayout,
  asEvent: payoutEventOf,
};
