import type { RequestContext, XaalisRequest } from './request-context';

/**
 * The auth guards set `xaalis` on the request Nest hands them, the Fastify request; a middleware
 * would see the Node request (`raw`) instead. Both are read.
 */
export function readRequestContext(request: object): RequestContext | undefined {
  const { xaalis, raw } = request as XaalisRequest & { raw?: XaalisRequest };
  return xaalis ?? raw?.xaalis;
}
