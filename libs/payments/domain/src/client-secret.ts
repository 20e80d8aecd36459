import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@xaalis/kernel';

/**
 * The payment client secret (`pay_…_secret_…`, CONTRACT 1) is derived, never stored: a keyed
 * HMAC of the payment id under the service's secret-hash key. `checkout_url` can then be shown on
 * every read of the payment while no stream or table holds the secret; 192 bits of the HMAC.
 */
export function clientSecretFor(paymentId: string, key: string): string {
  const mac = createHmac('sha256', key).update(`payment-client-secret:${paymentId}`).digest();
  return `${paymentId}_secret_${mac.subarray(0, 24).toString('base64url')}`;
}

export function isClientSecretOf(paymentId: string, candidate: string, key: string): boolean {
  return constantTimeEqual(candidate, clientSecretFor(paymentId, key));
}
