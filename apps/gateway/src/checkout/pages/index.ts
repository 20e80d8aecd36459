export { renderCheckoutPage, type CheckoutPageInput } from './checkout-page';
export { renderSandboxPage, type SandboxPageInput } from './sandbox-page';
export { renderMessagePage, type MessagePageInput } from './message-page';
export { contentSecurityPolicy, htmlPageHeaders, newCspNonce } from './content-security-policy';
export type {
  CustomerPaymentView,
  CustomerProvider,
  PaymentStatus,
  SandboxProvider,
} from './customer-payment-view';
export { formatXof } from './format-xof';
export { escapeHtml } from './html';
export { safeHttpUrl } from './safe-url';
