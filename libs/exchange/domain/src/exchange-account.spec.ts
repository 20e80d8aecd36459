import { givenWhenThen } from '@xaalis/kernel/testing';
import { exchangeAccountDecider, type OpenExchangeAccount } from './exchange-account';

const { given } = givenWhenThen(exchangeAccountDecider);
const NOW = new Date('2026-11-22T10:00:00.000Z');
const open = (n: number): OpenExchangeAccount => ({
  type: 'OpenExchangeAccount',
  data: {
    merchantId: `mer_01JD00000000000000000000A${n}`,
    floatPaymentId: `pay_01JD00000000000000000000A${n}`,
    now: NOW,
  },
});
const opened = (n: number) => ({
  type: 'ExchangeAccountOpened' as const,
  data: {
    merchantId: `mer_01JD00000000000000000000A${n}`,
    floatPaymentId: `pay_01JD00000000000000000000A${n}`,
    openedAt: NOW.toISOString(),
  },
});

const funded = {
  type: 'ExchangeAccountFunded' as const,
  data: { merchantId: 'mer_01JD00000000000000000000A1', fundedAt: NOW.toISOString() },
};
const recordFunded = { type: 'RecordAccountFunded' as const, data: { now: NOW } };

describe("the exchange's own account", () => {
  it('opens once, on the first start', () => {
    given([])
      .when(open(1))
      .then([opened(1)]);
  });

  it('a second opening (another replica, a restart) keeps the first account', () => {
    given([opened(1)])
      .when(open(2))
      .then([]);
  });

  it('records its funding once', () => {
    given([opened(1)])
      .when(recordFunded)
      .then([funded]);
    given([opened(1), funded])
      .when(recordFunded)
      .then([]);
  });

  it('an account never opened cannot be funded: not_found', () => {
    given([]).when(recordFunded).thenRefuses('not_found');
  });
});
