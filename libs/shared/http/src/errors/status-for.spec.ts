import {
  BadRequestException,
  HttpException,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { DomainError, ERROR_CODES, type ErrorCode } from '@xaalis/kernel';
import { INTERNAL_ERROR_MESSAGE, toErrorResponse } from './error-response';
import { statusFor } from './status-for';

/** CONTRACT 2, copied by hand on purpose: the test fails if the code and the contract drift. */
const CONTRACT_2: [ErrorCode, number][] = [
  ['validation_error', 400],
  ['authentication_required', 401],
  ['forbidden', 403],
  ['not_found', 404],
  ['idempotency_conflict', 409],
  ['invalid_state', 409],
  ['insufficient_funds', 402],
  ['policy_violation', 402],
  ['aggregated_identity_required', 422],
  ['rate_limited', 429],
  ['test_mode_disabled', 403],
  ['invalid_quote', 400],
  ['invalid_otp', 400],
  ['limit_exceeded', 422],
  ['unavailable', 503],
  ['payload_too_large', 413],
  ['unsupported_media_type', 415],
  ['internal_error', 500],
];

describe('statusFor', () => {
  it.each(CONTRACT_2)('%s is %i', (code, status) => {
    expect(statusFor(code)).toBe(status);
  });

  it('covers every kernel error code', () => {
    expect(CONTRACT_2.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('toErrorResponse', () => {
  it('keeps a DomainError code, message and details', () => {
    const outcome = toErrorResponse(
      new DomainError('policy_violation', 'Above the cap.', { rule: 'max_payout_amount' }),
    );
    expect(outcome).toEqual({
      status: 402,
      body: {
        error: {
          code: 'policy_violation',
          message: 'Above the cap.',
          details: { rule: 'max_payout_amount' },
        },
      },
      headers: {},
      unexpected: false,
    });
  });

  it('leaves details out when there are none', () => {
    expect(toErrorResponse(new DomainError('not_found', 'No such payment.')).body).toEqual({
      error: { code: 'not_found', message: 'No such payment.' },
    });
  });

  it('sends Retry-After from details.retry_after, rounded up, at least 1', () => {
    expect(
      toErrorResponse(new DomainError('rate_limited', 'Slow down.', { retry_after: 2.2 })).headers,
    ).toEqual({
      'retry-after': '3',
    });
    expect(toErrorResponse(new DomainError('rate_limited', 'Slow down.')).headers).toEqual({
      'retry-after': '1',
    });
    expect(
      toErrorResponse(new DomainError('rate_limited', 'Slow down.', { retry_after: 0 })).headers,
    ).toEqual({
      'retry-after': '1',
    });
  });

  it('sends Retry-After on a 503 that knows when to retry (a busy stream), not on one that does not', () => {
    const busy = toErrorResponse(
      new DomainError('unavailable', 'Busy, retry shortly.', { retry_after: 1 }),
    );
    expect(busy.status).toBe(503);
    expect(busy.headers).toEqual({ 'retry-after': '1' });
    expect(toErrorResponse(new DomainError('unavailable', 'Down.')).headers).toEqual({});
  });

  it('hides anything unexpected behind a generic 500', () => {
    const outcome = toErrorResponse(new Error('relation "ledger_entries" does not exist'));
    expect(outcome.status).toBe(500);
    expect(outcome.unexpected).toBe(true);
    expect(outcome.body).toEqual({
      error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE },
    });
    expect(toErrorResponse('a string').body.error.code).toBe('internal_error');
    expect(
      toErrorResponse(new DomainError('internal_error', 'pool exhausted in LedgerRepo')).body.error
        .message,
    ).toBe(INTERNAL_ERROR_MESSAGE);
  });

  it('maps the HTTP exceptions Nest and Fastify raise to contract codes', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /v1/nope')).body.error).toEqual({
      code: 'not_found',
      message: 'No such resource or route.',
    });
    expect(
      toErrorResponse(new HttpException('FST_ERR_CTP_BODY_TOO_LARGE', 413)).body.error.code,
    ).toBe('payload_too_large');
    expect(toErrorResponse(new HttpException('Unsupported Media Type', 415)).status).toBe(415);
    expect(toErrorResponse(new UnauthorizedException('Sign in first.')).body.error).toEqual({
      code: 'authentication_required',
      message: 'Sign in first.',
    });
    expect(toErrorResponse(new BadRequestException('Bad cursor')).body.error).toEqual({
      code: 'validation_error',
      message: 'Bad cursor',
    });
  });

  it('answers a 4xx without a contract code as a 400 and a 5xx HttpException as a 500', () => {
    expect(toErrorResponse(new HttpException('Not Acceptable', 406))).toMatchObject({
      status: 400,
      body: { error: { code: 'validation_error' } },
    });
    expect(toErrorResponse(new HttpException('Bad Gateway', 502))).toMatchObject({
      status: 500,
      unexpected: true,
      body: { error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE } },
    });
  });

  it('reads the status of a Fastify-style error', () => {
    const fastifyError = Object.assign(new Error('Request body is too large'), { statusCode: 413 });
    expect(toErrorResponse(fastifyError).body.error.code).toBe('payload_too_large');
  });
});
