/**
 * The one port every live payout adapter implements: Wave's Payout API and Orange Money's
 * cash-in (issue 19, item 5). Test mode calls none of them (CONTRACT 6: the sandbox settles).
 *
 * As for payments, "the provider said no" is kept apart from "we do not know": only a definitive
 * answer may fail a payout. A timeout, a 5xx or an answer we cannot read is `unknown`: the payout
 * stays `processing` and is looked up until the provider says what became of it. It is never sent
 * twice: `idempotencyKey` is fixed when the payout is accepted (the payout id) and every call of
 * `send` for one payout carries the same one, so a provider that already has it answers the first
 * transfer again.
 */
export type PayoutProviderName = 'wave' | 'orange_money';

export interface SendPayout {
  /** Our `po_…` id: Wave's `client_reference`, Orange Money's `reference`. */
  payoutId: string;
  /** Fixed at acceptance (the payout id): Wave's `Idempotency-Key` header. */
  idempotencyKey: string;
  /** Integer XOF the recipient receives (Wave's `receive_amount`). */
  amount: number;
  /** `+2217XXXXXXXX`. */
  recipientPhone: string;
  recipientName: string | null;
}

/** What the provider says of a transfer, from `send`'s answer or a `lookup`. */
export type PayoutProviderStatus =
  /** Accepted, not final yet (Wave `processing`): ask again later. */
  | { status: 'processing'; providerReference: string | null }
  | { status: 'succeeded'; providerReference: string }
  /** A definitive refusal (Wave `failed`, or a 4xx such as `insufficient-funds`). */
  | { status: 'failed'; providerReference: string | null; reason: string }
  /** Wave reversed a transfer it had reported `succeeded`. */
  | { status: 'reversed'; providerReference: string }
  /** The provider has no transfer for this payout: a `send` that never reached it. */
  | { status: 'not_found' }
  /** Timeout, network error, 408, 429, 5xx, unreadable answer: never a failure. */
  | { status: 'unknown'; reason: string };

export interface PayoutLookup {
  payoutId: string;
  /** The provider's id when known; otherwise the adapter asks by `payoutId` (client reference). */
  providerReference: string | null;
}

export interface LivePayoutProvider {
  readonly name: PayoutProviderName;
  /** Never answers `not_found`. */
  send(input: SendPayout): Promise<PayoutProviderStatus>;
  lookup(input: PayoutLookup): Promise<PayoutProviderStatus>;
}
