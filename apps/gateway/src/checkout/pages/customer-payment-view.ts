import type { CustomerProvider, PaymentProvider } from '@xaalis/kernel';

export type { CustomerProvider };

/** What the customer sees of a payment (spec 2.2): the JSON of the public pay and read steps. */
export interface CustomerPaymentView {
  id: string;
  livemode: boolean;
  amount: number;
  currency: 'XOF';
  status: PaymentStatus;
  description: string | null;
  merchant: { name: string };
  provider: PaymentProvider | null;
  available_providers: CustomerProvider[];
  next_action: { type: 'redirect'; url: string };
  expires_at: string;
  return_url: string | null;
}

export type PaymentStatus =
  'requires_payment_method' | 'processing' | 'succeeded' | 'failed' | 'expired' | 'refunded';

/** `mock` exists only in test-mode responses. */
export type SandboxProvider = PaymentProvider;

export const PROVIDER_NAMES: Record<SandboxProvider, string> = {
  wave: 'Wave',
  orange_money: 'Orange Money',
  mock: 'Mock',
};
