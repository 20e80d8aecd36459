import type { CustomerPaymentView } from '../customer-payment-view';

/** A test-mode payment waiting for the customer to pick a method; override what a test is about. */
export const newCustomerView = (
  overrides: Partial<CustomerPaymentView> = {},
): CustomerPaymentView => ({
  id: 'pay_01JDQ6Z8V9K3M4N5P6Q7R8S9T0',
  livemode: false,
  amount: 10_000,
  currency: 'XOF',
  status: 'requires_payment_method',
  description: 'Commande 1042',
  merchant: { name: 'Boutique Awa' },
  provider: null,
  available_providers: ['wave', 'orange_money'],
  next_action: {
    type: 'redirect',
    url: '/checkout/pay_01JDQ6Z8V9K3M4N5P6Q7R8S9T0?cs=pay_01JDQ6Z8V9K3M4N5P6Q7R8S9T0_secret_abc',
  },
  expires_at: '2026-11-22T10:30:00.000Z',
  return_url: 'https://shop.example/orders/1042',
  ...overrides,
});
