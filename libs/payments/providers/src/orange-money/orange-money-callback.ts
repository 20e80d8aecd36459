import { constantTimeEqual, DomainError } from '@xaalis/kernel';
import type { ProviderNotification } from '../payment-provider';
import { headerValue } from '@xaalis/provider-http';
import {
  isMerchantPayment,
  orangeOutcome,
  readOrangeTransaction,
} from './orange-money-transaction';

/**
 * The API key Orange Money sends back on its merchant callback: the one registered with
 * `POST /api/notification/v1/merchantcallback`, which Sonatel's gateway presents as
 * `Authorization: Basic <apiKey>` (the key as registered, not base64 of a user:password pair).
 * `X-Api-Key: <apiKey>` is accepted too, for gateways configured that way; both are compared
 * in constant time against the same secret.
 */
export function callbackApiKey(headers: Record<string, string | undefined>): string | null {
  const authorization = headerValue(headers, 'authorization');
  const basic = authorization === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(authorization);
  if (basic !== null) return basic[1] ?? null;
  return headerValue(headers, 'x-api-key')?.trim() ?? null;
}

/**
 * Reads Orange Money's merchant callback: the transaction itself, posted as JSON. The callback
 * carries no timestamp we could check; a replay only repeats an outcome the caller already
 * applies idempotently.
 */
export function parseOrangeMoneyCallback(input: {
  headers: Record<string, string | undefined>;
  rawBody: string;
  apiKey: string;
}): ProviderNotification | null {
  const presented = callbackApiKey(input.headers);
  if (presented === null || !constantTimeEqual(presented, input.apiKey)) {
    throw new DomainError(
      'authentication_required',
      'Missing or wrong Orange Money callback API key.',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(input.rawBody);
  } catch {
    throw new DomainError('validation_error', 'The Orange Money callback body is not JSON.');
  }
  const transaction = readOrangeTransaction(body);
  if (transaction === null) {
    throw new DomainError(
      'validation_error',
      'The Orange Money callback carries no transaction status.',
    );
  }
  if (!isMerchantPayment(transaction) || transaction.paymentId === null) return null;
  const outcome = orangeOutcome(transaction.status);
  return {
    paymentId: transaction.paymentId,
    providerReference: null,
    outcome,
    transactionId: transaction.transactionId,
    reason: outcome === 'failed' ? transaction.status.toLowerCase() : null,
    amount: transaction.amount,
  };
}
