import type { XaalisConfig } from '@xaalis/config';
import type { ProviderOptions } from '@xaalis/provider-http';
import type { LivePayoutProvider, PayoutProviderName } from './payout-provider';
import { OrangeMoneyPayoutProvider } from './orange-money/orange-money-payout-provider';
import { WavePayoutProvider } from './wave/wave-payout-provider';

/** Both live payout adapters from the configuration; one without credentials answers `unavailable`. */
export function createLivePayoutProviders(
  config: Pick<XaalisConfig, 'wave' | 'orangeMoney' | 'providerTimeoutMs'>,
  options: Omit<ProviderOptions, 'timeoutMs'> = {},
): Record<PayoutProviderName, LivePayoutProvider> {
  const providerOptions = { ...options, timeoutMs: config.providerTimeoutMs };
  return {
    wave: new WavePayoutProvider(config.wave, providerOptions),
    orange_money: new OrangeMoneyPayoutProvider(config.orangeMoney, providerOptions),
  };
}
