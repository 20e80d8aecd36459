import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type Credential, readRequestContext } from '@xaalis/http';
import type { Mode } from '@xaalis/kernel';
import type { UserView } from '../auth/auth-user';
import type { SessionRequest } from './session-request';

/** A `/v1` caller as the bearer guard established it. */
export interface ApiCaller {
  merchantId: string;
  mode: Mode;
  credential: Credential;
}

/** A dashboard caller on a `/merchants/{merchantId}/…` route, as the session guard established it. */
export interface MerchantCaller {
  userId: string;
  merchantId: string;
  /** Set on `{mode}` routes and on routes whose mode the path fixes (see MerchantModeCaller). */
  mode: Mode | undefined;
}

// Reaching these without their guard is a wiring bug, not a client error: hence plain Errors (500).

export const ApiCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): ApiCaller => {
    const xaalis = readRequestContext(context.switchToHttp().getRequest());
    if (!xaalis?.merchantId || !xaalis.mode)
      throw new Error('ApiCaller used on a route without ApiKeyAuth()');
    return { merchantId: xaalis.merchantId, mode: xaalis.mode, credential: xaalis.credential };
  },
);

export const MerchantCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): MerchantCaller => {
    const xaalis = readRequestContext(context.switchToHttp().getRequest());
    if (xaalis?.credential.kind !== 'session' || !xaalis.merchantId) {
      throw new Error('MerchantCaller used on a route without SessionAuth() and a merchantId');
    }
    return { userId: xaalis.credential.userId, merchantId: xaalis.merchantId, mode: xaalis.mode };
  },
);

export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): UserView => {
    const user = context.switchToHttp().getRequest<SessionRequest>().user;
    if (!user) throw new Error('CurrentUser used on a route without SessionAuth()');
    return user;
  },
);

/** A dashboard caller on a `/merchants/{merchantId}/{mode}/…` route (or one whose path fixes the mode). */
export interface MerchantModeCaller extends MerchantCaller {
  mode: Mode;
}

export const MerchantModeCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): MerchantModeCaller => {
    const xaalis = readRequestContext(context.switchToHttp().getRequest());
    if (xaalis?.credential.kind !== 'session' || !xaalis.merchantId || !xaalis.mode) {
      throw new Error(
        'MerchantModeCaller used on a route without SessionAuth(), a merchantId and a mode',
      );
    }
    return { userId: xaalis.credential.userId, merchantId: xaalis.merchantId, mode: xaalis.mode };
  },
);
