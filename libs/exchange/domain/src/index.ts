export * from './exchange-bounds';
export * from './quote.commands';
export * from './quote.events';
export { type Quote, type QuoteState, type QuoteStatus } from './quote.state';
export { invalidOtp, invalidQuote, quoteDecider, redeemRefusal } from './quote.decide';
export * from './quote.view';
export * from './phone-day.commands';
export * from './phone-day.events';
export { type PhoneDayState, type Reservation } from './phone-day.state';
export { assertRoomFor, limitExceeded, phoneDayDecider } from './phone-day.decide';
export * from './exchange.commands';
export * from './exchange.events';
export {
  EXCHANGE_STATUSES,
  type Exchange,
  type ExchangeState,
  type ExchangeStatus,
} from './exchange.state';
export { exchangeDecider } from './exchange.decide';
export * from './exchange.view';
export * from './exchange-account';
