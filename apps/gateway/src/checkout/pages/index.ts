export { renderCheckoutPage, type CheckoutPageInput } from './checkout-page';
export { renderSandboxPage, type SandboxPageInput } from './sandbox-page';
export type {
  CustomerPaymentView,
  CustomerProvider,
  PaymentStatus,
  SandboxProvider,
} from './customer-payment-view';
