import { FastifyAdapter } from '@nestjs/platform-fastify';
import { URL_VALUE_MAX_LENGTH } from '../validation/text-rules';
import { BODY_LIMIT_BYTES } from './body-parsers';
import { answerClientError, answerFrameworkError, REQUEST_TIMEOUT_MS } from './framework-refusals';
import { newRequestId } from './request-id';

export interface FastifyAdapterOptions {
  /**
   * Which peers may tell the client IP (the rate limits' key) through `X-Forwarded-For`: Fastify's
   * `trustProxy`. By default a proxy on a loopback or private address, as an in-cluster ingress
   * is, so a client reaching the gateway directly cannot pick its own IP. `true` trusts anyone;
   * a hop count is not offered, as this Fastify answers it by trusting no one.
   */
  trustProxy?: boolean | string | string[];
}

export const TRUSTED_PROXIES = 'loopback,linklocal,uniquelocal';

/**
 * The gateway's Fastify: 1 MiB bodies (413 beyond, CONTRACT 2), client IP through a proxy, and
 * the refusals Fastify's router and Node's HTTP parser make themselves answered with the CONTRACT
 * 2 envelope. A path segment may be 255 characters (Fastify's default is 100); a longer one names
 * no object, and is a 404. A request must arrive in full within 120 s, or a half-sent body would
 * hold its connection for ever (Fastify sets no limit by default). Each request is named by an
 * id of ours (`req_…`, request-id.ts), never by one the client sends.
 */
export function createFastifyAdapter(options: FastifyAdapterOptions = {}): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: URL_VALUE_MAX_LENGTH },
    requestTimeout: REQUEST_TIMEOUT_MS,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    trustProxy: options.trustProxy ?? TRUSTED_PROXIES,
    genReqId: newRequestId,
    requestIdHeader: false,
    // Nest logs requests that fail; Fastify's own logger would log every request again.
    logger: false,
  });
}
