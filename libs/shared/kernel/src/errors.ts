/**
 * Every failure a client can cause is a DomainError with a string code. The HTTP status for each
 * code is chosen once, at the edge (`@xaalis/http`), and a bus consumer carries the same code in
 * its reply, so nothing below the gateway knows about HTTP.
 */
export const ERROR_CODES = [
  'validation_error',
  'authentication_required',
  'forbidden',
  'not_found',
  'idempotency_conflict',
  'invalid_state',
  'insufficient_funds',
  'policy_violation',
  'aggregated_identity_required',
  'rate_limited',
  'test_mode_disabled',
  'invalid_quote',
  'invalid_otp',
  'limit_exceeded',
  'unavailable',
  'payload_too_large',
  'unsupported_media_type',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldIssue {
  field: string;
  issue: string;
}

export type ErrorDetails = FieldIssue[] | Record<string, unknown>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toJSON(): { code: ErrorCode; message: string; details?: ErrorDetails } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);

/** CONTRACT 2's validation error; its message names the fields (the body itself has the empty path). */
export const validationError = (issues: FieldIssue[], message = invalidFieldsMessage(issues)) =>
  new DomainError('validation_error', message, issues);

function invalidFieldsMessage(issues: FieldIssue[]): string {
  if (issues.length === 0) return 'The request is invalid.';
  const fields = [...new Set(issues.map((issue) => issue.field || 'the body'))];
  return `Invalid request: ${fields.join(', ')}.`;
}

export const notFound = (what: string) => new DomainError('not_found', `No such ${what}.`);

export const invalidState = (message: string, details?: ErrorDetails) =>
  new DomainError('invalid_state', message, details);

export const forbidden = (message = 'This credential may not perform this operation.') =>
  new DomainError('forbidden', message);
