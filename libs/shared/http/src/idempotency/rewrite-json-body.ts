import { isRecord } from '@xaalis/kernel';

/**
 * Rewrites the JSON object a route answers, from an interceptor outside the idempotency layer
 * (`IdempotentBetweenInterceptors`): there the body is the serialised bytes the idempotency layer hands back (a stored answer or error
 * envelope too), or the handler's value when no key was sent. `rewrite` returns the object to
 * send instead, or undefined to leave the body alone; text stays text, a value stays a value.
 */
export function rewriteJsonBody(
  body: unknown,
  rewrite: (object: Record<string, unknown>) => Record<string, unknown> | undefined,
): unknown {
  const parsed: unknown = typeof body === 'string' ? JSON.parse(body) : body;
  if (!isRecord(parsed)) return body;
  const rewritten = rewrite(parsed);
  if (rewritten === undefined) return body;
  return typeof body === 'string' ? JSON.stringify(rewritten) : rewritten;
}
