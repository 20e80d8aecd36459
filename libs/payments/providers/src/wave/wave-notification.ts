import { DomainError } from '@xaalis/kernel';
import type { ProviderNotification } from '../payment-provider';
import { isRecord } from '@xaalis/kernel';
import { headerValue } from '@xaalis/provider-http';
import { verifyWaveSignature } from './wave-signature';
import { parseWaveAmount, readWaveSession } from './wave-session';

/**
 * Reads a Wave webhook: `{id, type, data}` where `data` is the checkout session for the two
 * checkout events. The signature is checked before the body is even parsed.
 */
export function parseWaveNotification(input: {
  headers: Record<string, string | undefined>;
  rawBody: string;
  now: Date;
  secret: string;
}): ProviderNotification | null {
  verifyWaveSignature({
    header: headerValue(input.headers, 'wave-signature'),
    rawBody: input.rawBody,
    secret: input.secret,
    now: input.now,
  });
  let event: unknown;
  try {
    event = JSON.parse(input.rawBody);
  } catch {
    throw new DomainError('validation_error', 'The Wave webhook body is not JSON.');
  }
  if (!isRecord(event) || typeof event['type'] !== 'string') {
    throw new DomainError('validation_error', 'The Wave webhook has no event type.');
  }
  const type = event['type'];
  if (type !== 'checkout.session.completed' && type !== 'checkout.session.payment_failed') {
    return null;
  }
  const session = readWaveSession(event['data']);
  if (session === null) {
    throw new DomainError('validation_error', 'The Wave webhook carries no checkout session.');
  }
  // A session created outside Xaalis (no client reference) is none of our business.
  if (session.clientReference === null) return null;

  const base = {
    paymentId: session.clientReference,
    providerReference: session.id,
    transactionId: session.transactionId,
    amount: parseWaveAmount(session.amount),
  };
  if (type === 'checkout.session.payment_failed') {
    return { ...base, outcome: 'failed', reason: session.lastPaymentErrorCode ?? 'payment_failed' };
  }
  return session.paymentStatus === 'succeeded'
    ? { ...base, outcome: 'succeeded', reason: null }
    : { ...base, outcome: 'pending', reason: null };
}
