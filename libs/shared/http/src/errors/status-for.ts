import type { ErrorCode } from '@xaalis/kernel';

/**
 * CONTRACT 2: the one place a DomainError code becomes an HTTP status. A `Record` over every
 * code makes a code added to the kernel without a status here a compile error.
 */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_quote: 400,
  invalid_otp: 400,
  authentication_required: 401,
  insufficient_funds: 402,
  policy_violation: 402,
  forbidden: 403,
  test_mode_disabled: 403,
  not_found: 404,
  idempotency_conflict: 409,
  invalid_state: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  aggregated_identity_required: 422,
  limit_exceeded: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

export function statusFor(code: ErrorCode): number {
  return STATUS_BY_CODE[code];
}
