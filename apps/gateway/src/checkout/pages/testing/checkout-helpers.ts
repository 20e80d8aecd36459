import { runInNewContext } from 'node:vm';
import { CHECKOUT_HELPERS_JS } from '../checkout-script';

export interface CheckoutHelpers {
  normalizePhone(raw: string): string;
  isValidPhone(phone: string): boolean;
  navigableUrl(url: unknown): string | null;
  payErrorMessage(code: unknown, retryAfterSeconds: number): string;
}

/** The helpers exactly as the browser gets them, run in a fresh context. */
export const checkoutHelpers = (): CheckoutHelpers =>
  runInNewContext(
    `${CHECKOUT_HELPERS_JS}\n({ normalizePhone, isValidPhone, navigableUrl, payErrorMessage })`,
    { URL },
  ) as CheckoutHelpers;
