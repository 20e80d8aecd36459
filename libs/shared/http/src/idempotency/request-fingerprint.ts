import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The operation a key is bound to: method and route pattern, e.g. `POST /v1/refunds`. */
export function operationOf(request: FastifyRequest): string {
  const route = request.routeOptions.url ?? request.url.split('?')[0];
  return `${request.method} ${route}`;
}

/**
 * SHA-256 of what the client asked for beyond the operation: path parameters, query and body.
 * Path parameters count so that one key reused on `/subscriptions/a/cancel` and
 * `/subscriptions/b/cancel` (the same route pattern) conflicts instead of replaying the first.
 * Keys are sorted, so a retry that serialises its JSON in another order is the same request.
 */
export function fingerprintOf(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): string {
  const subject = stableStringify({
    params: request.params ?? {},
    query: request.query ?? {},
    body: request.body ?? null,
  });
  return createHash('sha256').update(subject).digest('hex');
}

export function stableStringify(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => stableStringify(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
