import { ERROR_CODES, type ErrorCode } from '@xaalis/kernel';
import type { WireOutcome, WireResponse } from './raw-http';

/**
 * What every answer of the service must be, whatever was sent (CONTRACT 2): never a 5xx, never
 * silence; an error is the envelope `{"error":{"code","message","details"?}}` with a contract code
 * and that code's status; no stack trace, SQL or internal name in any body. Hosted pages answer
 * HTML, so for an HTML answer only the first and last rules hold. And (`undocumented`, checked by
 * the runner) the answer is one the OpenAPI document describes: its status, its body's schema.
 */
export type ViolationKind =
  | 'server_error'
  | 'no_response'
  | 'not_envelope'
  | 'unknown_code'
  | 'status_mismatch'
  | 'leak'
  | 'accepted_bad_string'
  | 'undocumented';

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

/** CONTRACT 2's table, written out here rather than imported, so the service is checked against it. */
export const CONTRACT_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  authentication_required: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  invalid_state: 409,
  insufficient_funds: 402,
  policy_violation: 402,
  aggregated_identity_required: 422,
  rate_limited: 429,
  test_mode_disabled: 403,
  invalid_quote: 400,
  invalid_otp: 400,
  limit_exceeded: 422,
  unavailable: 503,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
};

/** What the checks need to know of the request besides its bytes. */
export interface SentFacts {
  method: string;
  /** The request's text (target, headers, body), to tell a leak from an echo of what was sent. */
  sentText: string;
  /**
   * The route declares a JSON body and this one holds a NUL, an unpaired surrogate or nesting
   * deeper than 32: CONTRACT 2 says such a body is refused (400), so it must never be accepted.
   */
  badBody?: string;
}

/** Stack frames of V8 (`at fn (/path/file.ts:1:2)`, `at node:internal/…`). */
const STACK_FRAME =
  /\bat (?:[\w$.<>[\] ]+ )?\(?(?:\/|[A-Za-z]:\\|node:|file:\/\/)[^\s)]*:\d+(?::\d+)?\)?/;
/** SQL statements, Postgres and Prisma error texts, and paths of our own files. */
const LEAKS: ReadonlyArray<[string, RegExp]> = [
  ['stack trace', STACK_FRAME],
  ['SQL', /\b(?:SELECT\b[^\n]{0,200}\bFROM|INSERT INTO|UPDATE\b[^\n]{0,100}\bSET|DELETE FROM)\b/],
  [
    'database error',
    /(?:violates (?:foreign key|unique|check|not-null) constraint|duplicate key value|relation "[^"]+" does not exist|column "[^"]+" (?:of relation|does not exist)|syntax error at or near|invalid input syntax for|SQLSTATE|current transaction is aborted)/i,
  ],
  ['Prisma error', /PrismaClient\w*Error|Invalid `prisma\.|\bP[12]\d{3}\b: /],
  ['source path', /(?:node_modules\/|\/(?:apps|libs|tools)\/[\w/.-]+\.(?:ts|js)\b)/],
  ['error class', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError): /],
];

/** Every rule the answer breaks (none: it passes). */
export function violationsOf(sent: SentFacts, outcome: WireOutcome): Violation[] {
  if (outcome.kind === 'no_response') {
    return [{ kind: 'no_response', detail: outcome.reason }];
  }
  const { response } = outcome;
  const violations: Violation[] = [];
  if (response.status >= 500) {
    violations.push({ kind: 'server_error', detail: `status ${response.status}` });
  }
  violations.push(...leaksIn(response, sent.sentText));
  if (response.status >= 400 && sent.method !== 'HEAD' && !isHtml(response)) {
    violations.push(...envelopeViolations(response));
  }
  if (sent.badBody !== undefined && response.status >= 200 && response.status < 300) {
    violations.push({
      kind: 'accepted_bad_string',
      detail: `${response.status} for a body with ${sent.badBody}`,
    });
  }
  return violations;
}

export function isHtml(response: WireResponse): boolean {
  return /^text\/html\b/i.test(response.headers['content-type'] ?? '');
}

/** Static assets (Swagger UI's scripts and styles) are not answers: their text is not checked. */
function isAsset(response: WireResponse): boolean {
  return /javascript|css|image\/|font\//i.test(response.headers['content-type'] ?? '');
}

export function leaksIn(response: WireResponse, sentText: string): Violation[] {
  if (isAsset(response)) return [];
  const text = response.body.toString('utf8');
  const found: Violation[] = [];
  for (const [what, pattern] of LEAKS) {
    const match = pattern.exec(text);
    // An echo of what the client itself sent (a field name in `details`) is not a leak.
    if (match && !sentText.includes(match[0])) {
      found.push({ kind: 'leak', detail: `${what}: ${excerpt(text, match.index)}` });
    }
  }
  return found;
}

export function envelopeViolations(response: WireResponse): Violation[] {
  const text = response.body.toString('utf8');
  const contentType = response.headers['content-type'] ?? '';
  const shape = (issue: string): Violation[] => [
    {
      kind: 'not_envelope',
      detail: `${issue}: ${contentType || 'no content-type'} ${JSON.stringify(text.slice(0, 200))}`,
    },
  ];
  if (!/^application\/json\b/i.test(contentType)) return shape('not JSON');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return shape('JSON that does not parse');
  }
  if (!isObject(body) || Object.keys(body).join() !== 'error' || !isObject(body.error)) {
    return shape('not {"error":{…}}');
  }
  const { code, message, details, ...others } = body.error;
  if (Object.keys(others).length > 0) return shape(`extra keys ${Object.keys(others).join(', ')}`);
  if (typeof message !== 'string' || message === '') return shape('no message');
  if (details !== undefined && !validDetails(details)) return shape('details of the wrong shape');
  if (!ERROR_CODES.includes(code as ErrorCode)) {
    return [{ kind: 'unknown_code', detail: `code ${JSON.stringify(code)}` }];
  }
  const expected = CONTRACT_STATUS[code as ErrorCode];
  if (expected !== response.status) {
    return [
      {
        kind: 'status_mismatch',
        detail: `${code} with ${response.status}, CONTRACT says ${expected}`,
      },
    ];
  }
  return [];
}

/** An array of `{field, issue}` (validation) or an object (the others). */
function validDetails(details: unknown): boolean {
  if (Array.isArray(details)) {
    return details.every(
      (item) => isObject(item) && typeof item.field === 'string' && typeof item.issue === 'string',
    );
  }
  return isObject(details);
}

/**
 * Why a JSON body must be refused, if it must: a string (or key) holding a NUL or an unpaired
 * surrogate, or nesting deeper than 32 levels (CONTRACT 2).
 */
export function badBodyReason(body: Buffer | undefined): string | undefined {
  if (body === undefined || body.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  let reason: string | undefined;
  const visit = (node: unknown, depth: number) => {
    if (reason !== undefined) return;
    if (depth > 32) {
      reason = 'nesting deeper than 32';
      return;
    }
    if (typeof node === 'string') {
      if (node.includes('\u0000')) reason = 'a NUL character';
      else if (hasLoneSurrogate(node)) reason = 'an unpaired surrogate';
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
    } else if (isObject(node)) {
      for (const [key, item] of Object.entries(node)) {
        visit(key, depth);
        visit(item, depth + 1);
      }
    }
  };
  visit(value, 1);
  return reason;
}

export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

function excerpt(text: string, at: number): string {
  return JSON.stringify(text.slice(Math.max(0, at - 40), at + 160));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
