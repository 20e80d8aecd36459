import type { XaalisRequest } from '@xaalis/http';
import type { FastifyRequest } from 'fastify';
import type { UserView } from '../auth/auth-user';
import type { CallerHeaders } from '../auth/auth.service';

/** A dashboard request once the session guard has let it through. */
export type SessionRequest = FastifyRequest & XaalisRequest & { user?: UserView };

export function callerOf(request: FastifyRequest): CallerHeaders {
  return {
    cookie: request.headers.cookie,
    userAgent: request.headers['user-agent'],
    ip: request.ip,
  };
}
