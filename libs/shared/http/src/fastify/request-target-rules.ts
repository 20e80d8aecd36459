import { DomainError, type FieldIssue, validationError } from '@xaalis/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EDGE_MESSAGES } from '../errors/error-response';
import { NUL_ISSUE, URL_VALUE_MAX_LENGTH } from '../validation/text-rules';

const NOT_UTF8_ISSUE = 'is not percent-encoded UTF-8';
const TOO_LONG_ISSUE = `must be at most ${URL_VALUE_MAX_LENGTH} characters`;

/**
 * An `onRequest` hook: CONTRACT 2's rules for what the URL carries, before guards read it or a
 * query reaches Postgres (which refuses NUL in text). The router has already answered 404 for a
 * path that is not UTF-8 or has a segment over 255 characters (see answerFrameworkError); this
 * adds a NUL in a path segment (404: no object has it in its id) and, in the query string, a
 * name or value that holds NUL, is not UTF-8, or (a value) is over 255 characters (400, naming
 * the parameter). Fastify's query parser keeps a value it cannot decode as it came, so that is
 * told from the raw query string.
 *
 * A URL with neither `%` nor `?`, as the payment routes' are, costs two searches.
 */
export function checkRequestTarget(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  const url = request.url;
  const queryStart = url.indexOf('?');
  const nul = url.indexOf('%00');
  if (nul !== -1 && (queryStart === -1 || nul < queryStart)) {
    return done(new DomainError('not_found', EDGE_MESSAGES.not_found));
  }
  if (queryStart === -1 || queryStart === url.length - 1) return done();
  const issues = queryIssues(url.slice(queryStart + 1), request.query);
  done(issues.length === 0 ? undefined : validationError(issues, queryMessage(issues)));
}

function queryIssues(rawQuery: string, query: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const add = (field: string, issue: string) => {
    if (seen.has(field)) return;
    seen.add(field);
    issues.push({ field, issue });
  };
  if (rawQuery.includes('%')) {
    for (const pair of rawQuery.split('&')) {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      const decodedName = decoded(name);
      if (decodedName === undefined) add(name, NOT_UTF8_ISSUE);
      else if (equals !== -1 && decoded(pair.slice(equals + 1)) === undefined) {
        add(decodedName, NOT_UTF8_ISSUE);
      }
    }
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (name.includes('\0')) add(name, `name ${NUL_ISSUE}`);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== 'string') continue;
      if (item.includes('\0')) add(name, NUL_ISSUE);
      else if (item.length > URL_VALUE_MAX_LENGTH) add(name, TOO_LONG_ISSUE);
    }
  }
  return issues;
}

/** As the query parser decodes (`+` is a space); undefined when it is not UTF-8. */
function decoded(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function queryMessage(issues: FieldIssue[]): string {
  return `Invalid query string: ${issues.map((issue) => issue.field).join(', ')}.`;
}
