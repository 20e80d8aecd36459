import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes an already serialised JSON body. Exception filters get a Fastify reply, except for errors
 * of middleware, which hand them the raw Node response.
 */
export function sendJson(
  response: FastifyReply | ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (isFastifyReply(response)) {
    response
      .code(status)
      .headers({ ...headers, 'content-type': JSON_CONTENT_TYPE })
      .send(body);
    return;
  }
  response.writeHead(status, {
    ...headers,
    'content-type': JSON_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

export function isFastifyReply(response: FastifyReply | ServerResponse): response is FastifyReply {
  return typeof (response as FastifyReply).code === 'function' && 'raw' in response;
}

export function isResponseSent(response: FastifyReply | ServerResponse): boolean {
  return isFastifyReply(response) ? response.sent : response.headersSent;
}
