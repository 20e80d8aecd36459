import { DomainError } from '@xaalis/kernel';
import { EDGE_MESSAGES } from '../errors/error-response';
import { jsonBodyProblem } from '../validation/json-body-rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A request whose JSON body's text is kept for signature checks. */
export type RawBodyRequest = FastifyRequest & { rawBody?: string };

type Done = (error: Error | null, body?: unknown) => void;
type Parser = (request: FastifyRequest, body: Buffer, done: Done) => void;

/**
 * JSON bodies with Fastify's own parser (it refuses `__proto__` and `constructor.prototype` keys),
 * but an empty body is no body: clients send `Content-Type: application/json` with nothing on
 * body-less POSTs (test_advance). A parse failure is a 400 that says what is wrong, and so is a
 * body that parses but breaks a CONTRACT 2 rule (too deep, a string Postgres cannot store): here,
 * before any route, validation or storage sees it.
 */
export function jsonBodyParser(fastify: FastifyInstance): Parser {
  const parse = fastify.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: Done,
  ) => void;
  return (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    const text = body.toString('utf8');
    // Providers sign the exact bytes they sent (Wave-Signature): their webhook routes verify this.
    (request as RawBodyRequest).rawBody = text;
    parse(request, text, (error, parsed) => {
      if (!error) {
        const problem = jsonBodyProblem(parsed, text);
        return problem === undefined ? done(null, parsed) : done(problem, undefined);
      }
      done(new DomainError('validation_error', jsonProblem(text)), undefined);
    });
  };
}

/** Fastify reports both failures alike; the client deserves to know which one it made. */
function jsonProblem(text: string): string {
  try {
    JSON.parse(text);
    return 'The request body contains a forbidden key (__proto__ or constructor.prototype).';
  } catch {
    return 'The request body is not valid JSON.';
  }
}

/** Any other media type: an empty body is accepted (a bare POST or DELETE), a body is a 415. */
export const otherBodyParser: Parser = (_request, body, done) => {
  if (body.length === 0) return done(null, undefined);
  done(new DomainError('unsupported_media_type', EDGE_MESSAGES.unsupported_media_type));
};
