import { Logger } from '@nestjs/common';
import { betterAuth } from 'better-auth';
import { newId, ulid } from '@xaalis/kernel';
import type { Pool } from 'pg';

export interface AuthOptions {
  pool: Pool;
  /** Signs the session cookie (config.authSecret). */
  secret: string;
  /** PUBLIC_BASE_URL: its scheme decides the cookie's `Secure` flag. */
  publicBaseUrl: string;
}

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The emails better-auth takes (zod's `z.email()`, which it checks sign-up and sign-in bodies
 * with): stricter than class-validator's `@IsEmail()` (`!@a.aa` passes that one). The DTOs hold
 * an email to this too, so what better-auth would refuse is a 400 naming `email`, never a 500.
 */
export const AUTH_EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** snake_case columns like every other table; better-auth maps its camelCase fields onto them. */
const TIMESTAMPS = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/**
 * better-auth owns users, password hashes (scrypt) and sessions, in the `auth_*` tables our
 * migration creates (it validates that schema on first use). It is never mounted as a handler:
 * our controllers call `auth.api.*`, so every answer goes through our error envelope and our
 * rate limits, and the cookie is `better-auth.session_token` (CONTRACT 1).
 */
export function createAuth(options: AuthOptions) {
  const https = options.publicBaseUrl.startsWith('https://');
  const log = new Logger('better-auth');
  return betterAuth({
    appName: 'Xaalis',
    baseURL: options.publicBaseUrl,
    basePath: '/dashboard/v1/auth',
    secret: options.secret,
    database: options.pool,
    trustedOrigins: [options.publicBaseUrl],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
    },
    user: {
      modelName: 'auth_users',
      fields: { emailVerified: 'email_verified', ...TIMESTAMPS },
    },
    session: {
      modelName: 'auth_sessions',
      fields: {
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
        ...TIMESTAMPS,
      },
      // No cookie cache: every request reads the session row, so signing out ends it at once.
      cookieCache: { enabled: false },
    },
    account: {
      modelName: 'auth_accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...TIMESTAMPS,
      },
    },
    verification: {
      modelName: 'auth_verifications',
      fields: { expiresAt: 'expires_at', ...TIMESTAMPS },
    },
    advanced: {
      cookiePrefix: 'better-auth',
      // One cookie name whatever the scheme (`better-auth.session_token`): `Secure` comes from the
      // attribute below; `useSecureCookies` would also rename it `__Secure-better-auth.…`.
      useSecureCookies: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https, path: '/' },
      // Our ids everywhere: `usr_<ulid>` for users (CONTRACT 1); sessions, accounts and
      // verifications are never shown, a bare ULID will do.
      database: { generateId: ({ model }) => (model === 'user' ? newId('user') : ulid()) },
    },
    // Our own limiter (`@RateLimit('ip')`) guards these routes; one policy, one Retry-After.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      // Messages only: the extra arguments can carry request bodies.
      log: (level, message) => (level === 'error' ? log.error(message) : log.warn(message)),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
