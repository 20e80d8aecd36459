/** What the customer sees of a payment (spec 2.2): the JSON of the public pay and read steps. */
export interface CustomerPaymentView {
  id: string;
  livemode: boolean;
  amount: number;
  currency: 'XOF';
  status: PaymentStatus;
  description: string | null;
  merchant: { name: string };
  provider: 'wave' | 'orange_money' | 'mock' | null;
  available_providers: CustomerProvider[];
  next_action: { type: 'redirect'; url: string };
  expires_at: string;
  return_url: string | null;
}

export type PaymentStatus =
  'requires_payment_method' | 'processing' | 'succeeded' | 'failed' | 'expired' | 'refunded';

/** The providers a customer can pick; `mock` exists only in test-mode responses. */
export type CustomerProvider = 'wave' | 'orange_money';

export type SandboxProvider = CustomerProvider | 'mock';

export const PROVIDER_NAMES: Record<SandboxProvider, string> = {
  wave: 'Wave',
  orange_money: 'Orange Money',
  mock: 'Mock',
};
