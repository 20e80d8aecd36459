import { DomainError } from '@xaalis/kernel';
import { callbackApiKey, parseOrangeMoneyCallback } from './orange-money-callback';

const API_KEY = 'om-callback-key-123';

const body = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    amount: { value: 1500, unit: 'XOF' },
    reference: 'pay_01JOM',
    metadata: { paymentId: 'pay_01JOM' },
    type: 'MERCHANT_PAYMENT',
    transactionId: 'MP261122.1000.A1B2C3',
    status: 'SUCCESS',
    customer: { id: '771234567', idType: 'MSISDN', walletType: 'PRINCIPAL' },
    ...overrides,
  });

const parse = (
  rawBody: string,
  headers: Record<string, string | undefined> = { authorization: `Basic ${API_KEY}` },
) => parseOrangeMoneyCallback({ headers, rawBody, apiKey: API_KEY });

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).code;
  }
  throw new Error('expected a DomainError');
}

describe('callbackApiKey', () => {
  it('reads the key from Authorization: Basic, whatever the header case', () => {
    expect(callbackApiKey({ Authorization: `Basic ${API_KEY}` })).toBe(API_KEY);
    expect(callbackApiKey({ authorization: `basic   ${API_KEY}` })).toBe(API_KEY);
  });

  it('reads X-Api-Key when there is no Basic authorization', () => {
    expect(callbackApiKey({ 'x-api-key': API_KEY })).toBe(API_KEY);
    expect(callbackApiKey({ authorization: 'Bearer x', 'X-Api-Key': API_KEY })).toBe(API_KEY);
  });

  it('is null without either', () => {
    expect(callbackApiKey({})).toBeNull();
    expect(callbackApiKey({ authorization: 'Bearer x' })).toBeNull();
  });
});

describe('parseOrangeMoneyCallback', () => {
  it('SUCCESS: succeeded, with the transaction id and amount', () => {
    expect(parse(body())).toEqual({
      paymentId: 'pay_01JOM',
      providerReference: null,
      outcome: 'succeeded',
      transactionId: 'MP261122.1000.A1B2C3',
      reason: null,
      amount: 1500,
    });
  });

  it.each([
    ['FAILED', 'failed', 'failed'],
    ['CANCELLED', 'failed', 'cancelled'],
    ['REJECTED', 'failed', 'rejected'],
    ['INITIATED', 'pending', null],
    ['PENDING', 'pending', null],
  ])('%s: %s', (status, outcome, reason) => {
    expect(parse(body({ status }))).toMatchObject({ outcome, reason });
  });

  it('accepts the key in X-Api-Key', () => {
    expect(parse(body(), { 'x-api-key': API_KEY })?.outcome).toBe('succeeded');
  });

  it('refuses a wrong, missing or base64-wrapped key', () => {
    expect(errorCode(() => parse(body(), { authorization: 'Basic wrong-key' }))).toBe(
      'authentication_required',
    );
    expect(errorCode(() => parse(body(), {}))).toBe('authentication_required');
    const wrapped = Buffer.from(API_KEY).toString('base64');
    expect(errorCode(() => parse(body(), { authorization: `Basic ${wrapped}` }))).toBe(
      'authentication_required',
    );
  });

  it('checks the key before reading the body', () => {
    expect(errorCode(() => parse('{not json', {}))).toBe('authentication_required');
  });

  it('an unreadable body or one without a status is a validation error', () => {
    expect(errorCode(() => parse('{not json'))).toBe('validation_error');
    expect(errorCode(() => parse(JSON.stringify({ reference: 'pay_1' })))).toBe('validation_error');
  });

  it('ignores other transaction types and transactions that are not ours', () => {
    expect(parse(body({ type: 'CASHIN' }))).toBeNull();
    expect(parse(body({ reference: null, metadata: {} }))).toBeNull();
  });

  it('finds our payment id in the metadata when the reference is missing', () => {
    expect(parse(body({ reference: undefined }))?.paymentId).toBe('pay_01JOM');
  });
});
