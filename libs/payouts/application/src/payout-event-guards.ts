import type { RecordedEvent, StoredFact } from '@xaalis/event-store';
import {
  AGENT_WALLET_EVENT_TYPES,
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
