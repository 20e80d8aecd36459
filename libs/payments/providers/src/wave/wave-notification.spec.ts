import { DomainError } from '@xaalis/kernel';
import { parseWaveNotification } from './wave-notification';
import { waveSignature } from './wave-signature';

const SECRET = 'wave_sn_WHS_unit';
const NOW = new Date('2026-11-22T10:00:00.000Z');
const T = Math.floor(NOW.getTime() / 1000);

const sessionData = {
  id: 'cos-18qq25rgr100a',
  amount: '1500',
  currency: 'XOF',
  checkout_status: 'complete',
  payment_status: 'succeeded',
  client_reference: 'pay_01JABCDEF',
  transaction_id: 'TRG7XHH6UNR2SOACI',
  wave_launch_url: 'https://pay.wave.com/c/cos-18qq25rgr100a',
  last_payment_error: null,
};

function parse(event: unknown, rawBody = JSON.stringify(event)) {
  return parseWaveNotification({
    headers: { 'Wave-Signature': `t=${T},v1=${waveSignature(SECRET, T, rawBody)}` },
    rawBody,
    now: NOW,
    secret: SECRET,
  });
}

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).code;
  }
  throw new Error('expected a DomainError');
}

describe('parseWaveNotification', () => {
  it('checkout.session.completed: succeeded, with the transaction id and amount', () => {
    expect(parse({ id: 'EV_1', type: 'checkout.session.completed', data: sessionData })).toEqual({
      paymentId: 'pay_01JABCDEF',
      providerReference: 'cos-18qq25rgr100a',
      outcome: 'succeeded',
      transactionId: 'TRG7XHH6UNR2SOACI',
      reason: null,
      amount: 1500,
    });
  });

  it('checkout.session.payment_failed: failed, with the error code as reason', () => {
    const data = {
      ...sessionData,
      checkout_status: 'open',
      payment_status: 'processing',
      transaction_id: null,
      last_payment_error: { code: 'insufficient-funds', message: 'Solde insuffisant' },
    };
    expect(parse({ id: 'EV_2', type: 'checkout.session.payment_failed', data })).toMatchObject({
      paymentId: 'pay_01JABCDEF',
      outcome: 'failed',
      reason: 'insufficient-funds',
      transactionId: null,
    });
  });

  it('a failure without an error code still says failed', () => {
    const data = { ...sessionData, payment_status: 'processing', last_payment_error: null };
    expect(parse({ type: 'checkout.session.payment_failed', data })?.reason).toBe('payment_failed');
  });

  it('ignores other event types', () => {
    expect(parse({ id: 'EV_3', type: 'b2b.payment_received', data: { id: 'x' } })).toBeNull();
    expect(parse({ id: 'EV_4', type: 'merchant.payment_received', data: {} })).toBeNull();
  });

  it('ignores a checkout session that is not ours (no client reference)', () => {
    expect(
      parse({
        type: 'checkout.session.completed',
        data: { ...sessionData, client_reference: null },
      }),
    ).toBeNull();
  });

  it('a signed body that is not JSON, or has no type or session, is a validation error', () => {
    expect(errorCode(() => parse(null, '{not json'))).toBe('validation_error');
    expect(errorCode(() => parse({ data: sessionData }))).toBe('validation_error');
    expect(errorCode(() => parse({ type: 'checkout.session.completed', data: 'cos-1' }))).toBe(
      'validation_error',
    );
  });

  it('checks the signature before reading the body', () => {
    expect(
      errorCode(() =>
        parseWaveNotification({ headers: {}, rawBody: '{not json', now: NOW, secret: SECRET }),
      ),
    ).toBe('authentication_required');
  });
});
