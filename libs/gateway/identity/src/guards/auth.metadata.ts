import { SetMetadata } from '@nestjs/common';
import type { Mode } from '@xaalis/kernel';
import type { MemberRole, ScopeAccess, ScopeResource } from '@xaalis/identity-domain';

export const ROLES = 'xaalis:roles';
export const REQUIRED_SCOPE = 'xaalis:required-scope';
export const PATH_MODE = 'xaalis:path-mode';
export const SESSION_COOKIE = 'better-auth.session_token';

export interface RequiredScope {
  resource: ScopeResource;
  access: ScopeAccess;
}

/** Dashboard roles allowed on a `/merchants/{merchantId}/…` route (spec 5 rule 2). */
export const Roles = (...roles: MemberRole[]) => SetMetadata(ROLES, roles);

/**
 * What a restricted key needs on this route (`write` implies `read`). A route without it is closed
 * to restricted keys: forgetting the decorator denies rather than grants.
 */
export const RequireScope = (resource: ScopeResource, access: ScopeAccess) =>
  SetMetadata(REQUIRED_SCOPE, { resource, access } satisfies RequiredScope);

/** For dashboard paths whose mode is fixed by the path itself (`…/live/provider-identities/…`). */
export const PathMode = (mode: Mode) => SetMetadata(PATH_MODE, mode);
