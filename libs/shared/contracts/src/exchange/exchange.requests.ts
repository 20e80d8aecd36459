/**
 * The public exchange's request-reply patterns (spec 4.5, CONTRACT 8): the gateway asks, the
 * exchange app answers. Part of `REQUESTS` (requests.ts).
 */
import {
  CreateExchangeQuoteRequest,
  CreateExchangeRequest,
  PublicExchangeRef,
} from './exchange.messages';
import { ExchangeQuoteReply, ExchangeReply } from './exchange.replies';
import type { RequestContract } from '../shared/request-contract';

export const EXCHANGE_QUOTE_CREATE = 'exchange.quote.create';
export const EXCHANGE_CREATE = 'exchange.exchange.create';
export const EXCHANGE_PUBLIC_GET = 'exchange.exchange.public_get';

const fromGateway = { owner: 'exchange', callers: ['gateway'] } as const;

export const EXCHANGE_REQUESTS = {
  [EXCHANGE_QUOTE_CREATE]: {
    ...fromGateway,
    request: CreateExchangeQuoteRequest,
    reply: ExchangeQuoteReply,
  } satisfies RequestContract<CreateExchangeQuoteRequest, ExchangeQuoteReply>,
  [EXCHANGE_CREATE]: {
    ...fromGateway,
    request: CreateExchangeRequest,
    reply: ExchangeReply,
  } satisfies RequestContract<CreateExchangeRequest, ExchangeReply>,
  [EXCHANGE_PUBLIC_GET]: {
    ...fromGateway,
    request: PublicExchangeRef,
    reply: ExchangeReply,
  } satisfies RequestContract<PublicExchangeRef, ExchangeReply>,
};
