import type { Currency } from '@xaalis/kernel';
import type { ExchangeProvider } from './exchange-bounds';
import type { Exchange, ExchangeStatus } from './exchange.state';

/** What the view needs from outside the stream: the checkout of the customer's payment. */
export interface ExchangeCheckout {
  checkoutUrl: string;
  /** The payment's client secret. */
  cs: string;
}

/** Spec 2.9. Exchanges run in test mode only (CONTRACT 8). */
export interface ExchangeObject {
  object: 'exchange';
  id: string;
  status: ExchangeStatus;
  from: ExchangeProvider;
  to: ExchangeProvider;
  send_amount: number;
  fee: number;
  receive_amount: number;
  currency: Currency;
  livemode: false;
  created_at: string;
  checkout_url: string;
  cs: string;
}

export const exchangeView = (exchange: Exchange, checkout: ExchangeCheckout): ExchangeObject => ({
  object: 'exchange',
  id: exchange.exchangeId,
  status: exchange.status,
  from: exchange.from,
  to: exchange.to,
  send_amount: exchange.sendAmount,
  fee: exchange.fee,
  receive_amount: exchange.receiveAmount,
  currency: 'XOF',
  livemode: false,
  created_at: exchange.createdAt,
  checkout_url: checkout.checkoutUrl,
  cs: checkout.cs,
});
