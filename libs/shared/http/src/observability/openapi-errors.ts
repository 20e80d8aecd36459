import { ApiExtension, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '@xaalis/kernel';
import { statusFor } from '../errors/status-for';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/idempotency-key';

/** Where `@ApiErrors` leaves a route's own codes for `documentErrors`, which removes it. */
const ERRORS_EXTENSION = 'x-xaalis-errors';

/**
 * The CONTRACT 2 codes a route answers beyond those every route of its kind does (see
 * `documentErrors`): `@ApiErrors('insufficient_funds', 'invalid_state')`.
 */
export const ApiErrors = (...codes: ErrorCode[]) => ApiExtension(ERRORS_EXTENSION, codes);

interface Operation {
  security?: unknown[];
  parameters?: Array<{ name?: string; in?: string }>;
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  [ERRORS_EXTENSION]?: ErrorCode[];
}

/**
 * Adds to every operation its error responses: per status, the CONTRACT 2 envelope of each code
 * that status can carry there (one schema per code, `NotFoundError`, so that a generated client
 * narrows an error by its `code`). Every route can be refused as malformed (400), limited (429)
 * or unavailable (503); one with credentials, unauthenticated (401) or forbidden (403); one with
 * a path parameter or a list cursor, not found (404); a write, its body too large (413) or not
 * JSON (415); one with an idempotency key, in conflict (409); plus the route's own `@ApiErrors`.
 */
export function documentErrors(document: OpenAPIObject): void {
  document.components ??= {};
  const schemas = (document.components.schemas ??= {});
  schemas.ErrorDetail = {
    type: 'object',
    required: ['field', 'issue'],
    properties: { field: { type: 'string' }, issue: { type: 'string' } },
  };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods) as Array<[string, Operation]>) {
      const codes = new Set<ErrorCode>([
        'validation_error',
        'rate_limited',
        'unavailable',
        ...(operation[ERRORS_EXTENSION] ?? []),
      ]);
      delete operation[ERRORS_EXTENSION];
      if ((operation.security ?? []).length > 0) {
        codes.add('authentication_required');
        codes.add('forbidden');
      }
      // A path parameter, or a list's cursor, names an object that may not be there.
      const cursor = operation.parameters?.some((parameter) => parameter.name === 'starting_after');
      if (path.includes('{') || cursor) codes.add('not_found');
      // A write may be sent a body, declared or not: too large, or not JSON.
      if (operation.requestBody !== undefined || method !== 'get') {
        codes.add('payload_too_large');
        codes.add('unsupported_media_type');
      }
      if (operation.parameters?.some((parameter) => parameter.name === IDEMPOTENCY_KEY_HEADER)) {
        codes.add('idempotency_conflict');
      }
      operation.responses ??= {};
      for (const [status, ofStatus] of byStatus(codes)) {
        const refs = ofStatus.map((code) => {
          schemas[errorSchemaName(code)] ??= envelope(code);
          return { $ref: `#/components/schemas/${errorSchemaName(code)}` };
        });
        // anyOf rather than oneOf: linters cannot see that the codes' enums exclude each other.
        operation.responses[status] = {
          description: `Error: ${ofStatus.join(', ')}`,
          content: {
            'application/json': { schema: refs.length === 1 ? refs[0] : { anyOf: refs } },
          },
        };
      }
    }
  }
}

/** `not_found` → `NotFoundError`, `validation_error` → `ValidationError`. */
export function errorSchemaName(code: ErrorCode): string {
  const pascal = code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
  return pascal.endsWith('Error') ? pascal : `${pascal}Error`;
}

/** Codes grouped by their status, in CONTRACT 2's order. */
function byStatus(codes: Set<ErrorCode>): Array<[string, ErrorCode[]]> {
  const grouped = new Map<string, ErrorCode[]>();
  for (const code of ERROR_CODES.filter((known) => codes.has(known))) {
    const status = String(statusFor(code));
    grouped.set(status, [...(grouped.get(status) ?? []), code]);
  }
  return [...grouped].sort(([a], [b]) => Number(a) - Number(b));
}

/** The CONTRACT 2 envelope of one code. */
function envelope(code: ErrorCode) {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: [code] },
          message: { type: 'string' },
          details: {
            oneOf: [
              { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } },
              { type: 'object', additionalProperties: true },
            ],
          },
        },
      },
    },
  };
}
