import type { XaalisConfig } from '@xaalis/config';
import type { ProviderOptions } from '@xaalis/provider-http';
import type { LivePaymentProvider, LiveProviderName } from './payment-provider';
import { OrangeMoneyProvider } from './orange-money/orange-money-provider';
import { WaveProvider } from './wave/wave-provider';

/** Both live adapters from the configuration; one without credentials answers `unavailable`. */
export function createLivePaymentProviders(
  config: Pick<XaalisConfig, 'wave' | 'orangeMoney' | 'providerTimeoutMs'>,
  options: Omit<ProviderOptions, 'timeoutMs'> = {},
): Record<LiveProviderName, LivePaymentProvider> {
  const providerOptions = { ...options, timeoutMs: config.providerTimeoutMs };
  return {
    wave: new WaveProvider(config.wave, providerOptions),
    orange_money: new OrangeMoneyProvider(config.orangeMoney, providerOptions),
  };
}
