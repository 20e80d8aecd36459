import { DomainError } from '@xaalis/kernel';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../validation/validators';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * The `idempotency-key` header, checked (spec 4: 1 to 255 characters). Undefined when it is
 * absent and optional; a 400 when it is absent and required (CONTRACT 3) or malformed.
 */
export function readIdempotencyKey(
  header: string | string[] | undefined,
  required: boolean,
): string | undefined {
  if (header === undefined) {
    if (!required) return undefined;
    throw invalidKey('is required for this operation');
  }
  if (Array.isArray(header)) throw invalidKey('must be sent once');
  if (header.length < 1 || header.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalidKey(`must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  return header;
}

function invalidKey(issue: string): DomainError {
  return new DomainError('validation_error', `The ${IDEMPOTENCY_KEY_HEADER} header ${issue}.`, [
    { field: IDEMPOTENCY_KEY_HEADER, issue },
  ]);
}
