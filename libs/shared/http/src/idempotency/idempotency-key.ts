import { DomainError } from '@xaalis/kernel';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../validation/validators';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Printable ASCII and space: what any HTTP client sends unchanged. */
const KEY_CHARACTERS = /^[\x20-\x7e]*$/;

/**
 * The `idempotency-key` header, checked (spec 4: 1 to 255 characters). Undefined when it is
 * absent and optional; a 400 when it is absent and required (CONTRACT 3) or malformed. Node reads
 * header bytes as Latin-1, so a key sent as UTF-8 would be stored as other characters than the
 * client's: bytes beyond ASCII are refused rather than guessed at.
 */
export function readIdempotencyKey(
  sent: string | readonly string[] | undefined,
  required: boolean,
): string | undefined {
  if (sent === undefined) {
    if (!required) return undefined;
    throw invalidKey('is required for this operation');
  }
  if (typeof sent !== 'string' && sent.length !== 1) throw invalidKey('must be sent once');
  const header = typeof sent === 'string' ? sent : sent[0]!;
  if (header.length < 1 || header.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw invalidKey(`must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  if (!KEY_CHARACTERS.test(header)) throw invalidKey('must be printable ASCII characters');
  return header;
}

function invalidKey(issue: string): DomainError {
  return new DomainError('validation_error', `The ${IDEMPOTENCY_KEY_HEADER} header ${issue}.`, [
    { field: IDEMPOTENCY_KEY_HEADER, issue },
  ]);
}
