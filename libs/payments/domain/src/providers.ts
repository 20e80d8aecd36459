import type { Mode } from '@xaalis/kernel';
import { CUSTOMER_PROVIDERS, type CustomerProvider } from './payment.events';

/**
 * The providers a customer may pick (CONTRACT 5): live `wave` in aggregator mode needs the
 * merchant's aggregated identity; test mode has every provider (sandboxes).
 */
export function availableProviders(
  mode: Mode,
  aggregatorMode: boolean,
  aggregatedMerchantId: string | null,
): CustomerProvider[] {
  return CUSTOMER_PROVIDERS.filter(
    (provider) =>
      !(mode === 'live' && provider === 'wave' && aggregatorMode && aggregatedMerchantId === null),
  );
}

/** CONTRACT 6: in test mode this customer phone is declined or refused. */
export const DECLINED_TEST_PHONE = '+221700000002';
