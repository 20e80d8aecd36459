import { fold } from '@xaalis/kernel';
import type { ExchangeEvent } from './exchange.events';
import {
  completedExchange,
  EXCHANGE_ID,
  expiredExchange,
  newExchange,
  processingExchange,
  refundedExchange,
  unpaidFailedExchange,
} from './exchange.fixtures';
import { evolve, initialState, type ExchangeStatus } from './exchange.state';
import { exchangeView } from './exchange.view';

const checkout = { checkoutUrl: 'https://pay.xaalis.sn/checkout/pay_1', cs: 'pay_1_secret_x' };

const viewOf = (history: ExchangeEvent[]) => {
  const exchange = fold(evolve, initialState(), history);
  if (exchange === null) throw new Error('no exchange');
  return exchangeView(exchange, checkout);
};

describe('exchange view (spec 2.9)', () => {
  it('a new exchange: exactly the fields of 2.9', () => {
    expect(viewOf(newExchange())).toEqual({
      object: 'exchange',
      id: EXCHANGE_ID,
      status: 'awaiting_payment',
      from: 'wave',
      to: 'orange_money',
      send_amount: 10_000,
      fee: 100,
      receive_amount: 9_900,
      currency: 'XOF',
      livemode: false,
      created_at: '2026-11-22T10:00:00.000Z',
      checkout_url: 'https://pay.xaalis.sn/checkout/pay_1',
      cs: 'pay_1_secret_x',
    });
  });

  it.each<[ExchangeStatus, ExchangeEvent[]]>([
    ['processing', processingExchange()],
    ['completed', completedExchange()],
    ['expired', expiredExchange()],
    ['failed', unpaidFailedExchange()],
    ['failed', refundedExchange()],
  ])('status %s', (status, history) => {
    expect(viewOf(history).status).toBe(status);
  });
});
