import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  DomainError,
  forbidden,
  isMode,
  notFound,
  validationError,
  type Mode,
} from '@xaalis/kernel';
import type { FastifyReply } from 'fastify';
import { AuthService } from '../auth/auth.service';
import type { MemberRole } from '@xaalis/identity-domain';
import { IdentityQueries } from '../read-model/identity.queries';
import { PATH_MODE, ROLES } from './auth.metadata';
import { callerOf, type SessionRequest } from './session-request';

export const signInRequired = () => new DomainError('authentication_required', 'Sign in required.');

/**
 * `/dashboard/v1/...`: the better-auth session from the cookie, then, on `/merchants/{merchantId}/…`
 * paths, the caller's membership (none: 404, so a merchant's existence is not revealed), the
 * `{mode}` segment and the role the route asks for (`@Roles`, else 403).
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly queries: IdentityQueries,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SessionRequest>();
    const session = await this.auth.session(callerOf(request));
    if (!session) throw signInRequired();
    // better-auth refreshes a session's expiry now and then; its new cookie goes back to the client.
    if (session.setCookies.length > 0) {
      context.switchToHttp().getResponse<FastifyReply>().header('set-cookie', session.setCookies);
    }
    request.user = session.user;

    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const merchantId = params.merchantId;
    let role: MemberRole | undefined;
    let mode: Mode | undefined;
    if (merchantId !== undefined) {
      role = await this.queries.roleOf(merchantId, session.user.id);
      if (!role) throw notFound('merchant');
      mode = this.modeOf(context, params.mode);
      const roles = this.reflector.getAllAndOverride<MemberRole[] | undefined>(ROLES, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (roles && !roles.includes(role))
        throw forbidden('Your role in this merchant does not allow this operation.');
    }
    request.xaalis = {
      credential: { kind: 'session', userId: session.user.id, sessionId: session.sessionId, role },
      merchantId,
      mode,
      ip: request.ip,
    };
    return true;
  }

  private modeOf(context: ExecutionContext, segment: string | undefined): Mode | undefined {
    if (segment === undefined)
      return this.reflector.get<Mode | undefined>(PATH_MODE, context.getHandler());
    if (!isMode(segment))
      throw validationError([{ field: 'mode', issue: 'must be test or live' }], 'Unknown mode.');
    return segment;
  }
}
