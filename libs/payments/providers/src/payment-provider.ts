/**
 * The one port every live provider adapter implements (CONTRACT 6: live mode calls the real
 * provider APIs through adapters whose base URLs are configurable).
 *
 * The outcome types keep "the provider said no" apart from "we do not know": only a definitive
 * answer may fail a payment; anything else is reconciled later through `lookup`.
 */
export type LiveProviderName = 'wave' | 'orange_money';

export interface StartCheckout {
  /** Our `pay_…` id: Wave's `client_reference`, Orange Money's `reference` and metadata. */
  paymentId: string;
  /** Integer XOF. */
  amount: number;
  merchantName: string;
  /** Where the provider sends the customer after paying. */
  successUrl: string;
  /** Where the provider sends the customer after a failure or cancel. */
  errorUrl: string;
  /** Wave aggregator mode (Wave's `aggregated_merchant_id`). */
  aggregatedMerchantId: string | null;
  /** `+2217XXXXXXXX`. */
  customerPhone: string | null;
  /**
   * Wave's `Idempotency-Key`; `paymentId` when omitted, so a redelivered start gets the same
   * session back. Give a fresh one only for a deliberate new attempt at the same payment.
   */
  idempotencyKey?: string;
}

export type StartCheckoutResult =
  | { outcome: 'started'; providerReference: string; redirectUrl: string }
  /** A definitive no: the provider answered 4xx other than 408/429. */
  | { outcome: 'refused'; reason: string }
  /** Timeout, network error, 408, 429, 5xx, unreadable 2xx: never a failure. */
  | { outcome: 'unknown'; reason: string };

export interface PaymentLookup {
  paymentId: string;
  providerReference: string | null;
}

export type ProviderPaymentStatus =
  | { status: 'pending'; providerReference: string | null; redirectUrl: string | null }
  | {
      status: 'succeeded';
      providerReference: string;
      transactionId: string | null;
      /** What the provider says was paid (integer XOF), so the caller can check it; null when not given. */
      amount: number | null;
    }
  | { status: 'failed'; providerReference: string | null; reason: string }
  | { status: 'not_found' }
  | { status: 'unknown'; reason: string };

export interface ProviderNotification {
  paymentId: string;
  providerReference: string | null;
  outcome: 'succeeded' | 'failed' | 'pending';
  transactionId: string | null;
  reason: string | null;
  /** What the provider says was paid (integer XOF), so the caller can check it; null when not given. */
  amount: number | null;
}

export interface RefundRequest {
  refundId: string;
  paymentId: string;
  providerReference: string | null;
  providerTransactionId: string | null;
  amount: number;
  paymentAmount: number;
  customerPhone: string | null;
}

export type RefundResult =
  | { outcome: 'succeeded' | 'pending'; providerReference: string | null }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'unknown'; reason: string };

export interface LivePaymentProvider {
  readonly name: LiveProviderName;
  startCheckout(input: StartCheckout): Promise<StartCheckoutResult>;
  /**
   * Reconciliation: asks the provider what became of a payment (by reference, or by our payment
   * id when the reference is unknown because the start had an unknown outcome).
   */
  lookup(input: PaymentLookup): Promise<ProviderPaymentStatus>;
  /**
   * Verifies and reads the provider's webhook/callback. Throws
   * DomainError('authentication_required') on a bad signature, API key or stale timestamp;
   * DomainError('validation_error') on an unreadable body; returns null for event types we ignore.
   */
  parseNotification(input: {
    headers: Record<string, string | undefined>;
    rawBody: string;
    now: Date;
  }): ProviderNotification | null;
  refund(input: RefundRequest): Promise<RefundResult>;
}
