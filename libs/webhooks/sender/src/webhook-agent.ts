import { Agent } from 'node:https';

export interface WebhookAgentOptions {
  /** Open connections per origin (scheme, host, port): one slow receiver cannot take them all. */
  maxSocketsPerOrigin?: number;
  /** Open connections over all origins. */
  maxTotalSockets?: number;
  /** An idle kept-alive connection is closed after this long. */
  idleSocketMs?: number;
  /**
   * Extra trusted CAs, for in-process tests only. Deployments trust a local receiver through
   * NODE_EXTRA_CA_CERTS (CONTRACT 9), which adds to the system store instead of replacing it.
   */
  ca?: string | Buffer | Array<string | Buffer>;
}

export const DEFAULT_MAX_SOCKETS_PER_ORIGIN = 32;
export const DEFAULT_MAX_TOTAL_SOCKETS = 1024;
export const DEFAULT_IDLE_SOCKET_MS = 15_000;

/**
 * The connection pool the dispatcher shares across deliveries. One Node Agent already keeps a
 * separate keep-alive pool per origin, capped by `maxSockets`, so one agent serves every endpoint;
 * requests past the cap wait for a free connection. LIFO reuse keeps the freshest connection busy
 * and lets the rest idle out, so fewer requests meet a connection the receiver has just closed.
 *
 * The agent carries no `lookup`: `sendWebhook` supplies the guarded one per request, with that
 * request's allowed hosts. (An agent's own `lookup` would override it; the sender still checks the
 * connected address, but only after the TCP handshake.)
 */
export function createWebhookAgent(options: WebhookAgentOptions = {}): Agent {
  const maxSockets = options.maxSocketsPerOrigin ?? DEFAULT_MAX_SOCKETS_PER_ORIGIN;
  return new Agent({
    keepAlive: true,
    maxSockets,
    maxFreeSockets: maxSockets,
    maxTotalSockets: options.maxTotalSockets ?? DEFAULT_MAX_TOTAL_SOCKETS,
    timeout: options.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS,
    scheduling: 'lifo',
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
}
