import type { ExchangeProvider } from './exchange-bounds';
import type { Quote } from './quote.state';

/** CONTRACT 8: the quote's answer. `quote` is the opaque token, which only the caller holds. */
export interface ExchangeQuoteObject {
  object: 'exchange_quote';
  id: string;
  quote: string;
  from: ExchangeProvider;
  to: ExchangeProvider;
  send_amount: number;
  fee: number;
  receive_amount: number;
  expires_at: string;
}

export const quoteView = (quote: Quote, token: string): ExchangeQuoteObject => ({
  object: 'exchange_quote',
  id: quote.quoteId,
  quote: token,
  from: quote.from,
  to: quote.to,
  send_amount: quote.sendAmount,
  fee: quote.fee,
  receive_amount: quote.receiveAmount,
  expires_at: quote.expiresAt,
});
