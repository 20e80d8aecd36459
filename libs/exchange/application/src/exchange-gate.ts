import type { XaalisConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';

/** `EXCHANGE_ENABLED=false`: the public exchange is off (CONTRACT 8). */
export function assertExchangeEnabled(config: XaalisConfig): void {
  if (!config.exchangeEnabled) {
    throw new DomainError('test_mode_disabled', 'The public test-mode exchange is disabled.');
  }
}

/** A provider marked down (`EXCHANGE_PROVIDERS_DOWN`) takes no exchange from or to it. */
export function assertProvidersUp(config: XaalisConfig, ...providers: string[]): void {
  const down = providers.filter((provider) =>
    (config.exchangeProvidersDown as string[]).includes(provider),
  );
  if (down.length > 0) {
    throw new DomainError('unavailable', `${down.join(' and ')} is unavailable right now.`, {
      providers: down,
    });
  }
}
