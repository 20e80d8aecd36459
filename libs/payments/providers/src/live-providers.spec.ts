import { loadConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';
import { createLivePaymentProviders } from './live-providers';

const checkout = {
  paymentId: 'pay_01JUNCONFIGURED',
  amount: 1500,
  merchantName: 'Boutique Awa',
  successUrl: 'https://xaalis.test/ok',
  errorUrl: 'https://xaalis.test/ko',
  aggregatedMerchantId: null,
  customerPhone: null,
};

describe('createLivePaymentProviders', () => {
  it('gives one adapter per live provider, under its name', () => {
    const providers = createLivePaymentProviders(loadConfig({}));

    expect(providers.wave.name).toBe('wave');
    expect(providers.orange_money.name).toBe('orange_money');
  });

  it.each(['wave', 'orange_money'] as const)(
    'without credentials, %s answers unavailable before any call',
    async (name) => {
      const fetchSpy = jest.fn<ReturnType<typeof fetch>, Parameters<typeof fetch>>();
      const providers = createLivePaymentProviders(loadConfig({}), { fetch: fetchSpy });

      const error = await providers[name].startCheckout(checkout).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('unavailable');
      expect(fetchSpy).not.toHaveBeenCalled();
    },
  );
});
