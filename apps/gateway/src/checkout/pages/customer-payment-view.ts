import type { Currency, CustomerProvider, PaymentProvider, PaymentStatus } from '@xaalis/kernel';

export type { CustomerProvider, PaymentStatus };

/** What the customer sees of a payment (spec 2.2): the JSON of the public pay and read steps. */
export interface CustomerPaymentView {
  id: string;
  livemode: boolean;
  amount: number;
  currency: Currency;
  status: PaymentStatus;
  description: string | null;
  merchant: { name: string };
  provider: PaymentProvider | null;
  available_providers: CustomerProvider[];
  next_action: { type: 'redirect'; url: string };
  expires_at: string;
  return_url: string | null;
}

/** `mock` exists only in test-mode responses. */
export type SandboxProvider = PaymentProvider;

export const PROVIDER_NAMES: Record<SandboxProvider, string> = {
  wave: 'Wave',
  orange_money: 'Orange Money',
  mock: 'Mock',
};
