import { FastifyAdapter } from '@nestjs/platform-fastify';
import { BODY_LIMIT_BYTES } from './body-parsers';

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

/** The gateway's Fastify: 1 MiB bodies (413 beyond, CONTRACT 2), client IP through a proxy. */
export function createFastifyAdapter(options: FastifyAdapterOptions = {}): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? TRUSTED_PROXIES,
    // Nest logs requests that fail; Fastify's own logger would log every request again.
    logger: false,
  });
}
