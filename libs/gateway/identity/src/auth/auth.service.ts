import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, validationError } from '@xaalis/kernel';
import { AUTH } from './auth.tokens';
import type { Auth } from './better-auth';
import { toUserView, type UserView } from './auth-user';

/** What our controllers pass in: the caller's cookie, user agent and address. */
export interface CallerHeaders {
  cookie?: string;
  userAgent?: string;
  ip: string;
}

export interface Authenticated {
  user: UserView;
  /** `Set-Cookie` values to forward as they are. */
  setCookies: string[];
}

export interface ActiveSession {
  user: UserView;
  sessionId: string;
  setCookies: string[];
}

const WRONG_CREDENTIALS = 'The email or password is incorrect.';

/**
 * The only door to better-auth: its `auth.api.*` functions, with its errors turned into ours, so a
 * dashboard answer always has our envelope and never better-auth's codes or wording.
 */
@Injectable()
export class AuthService {
  constructor(@Inject(AUTH) private readonly auth: Auth) {}

  async signUp(
    input: { email: string; password: string; name: string },
    caller: CallerHeaders,
  ): Promise<Authenticated> {
    const { response, headers } = await this.call(() =>
      // A plain object: better-auth's schema refuses class instances (our DTOs).
      this.auth.api.signUpEmail({
        body: { email: input.email, password: input.password, name: input.name },
        headers: toHeaders(caller),
        returnHeaders: true,
      }),
    );
    return { user: toUserView(response.user), setCookies: headers.getSetCookie() };
  }

  async signIn(
    input: { email: string; password: string },
    caller: CallerHeaders,
  ): Promise<Authenticated> {
    const { response, headers } = await this.call(() =>
      this.auth.api.signInEmail({
        body: { email: input.email, password: input.password },
        headers: toHeaders(caller),
        returnHeaders: true,
      }),
    );
    return { user: toUserView(response.user), setCookies: headers.getSetCookie() };
  }

  /** Deletes the session row: the cookie is dead server-side even if a client keeps it. */
  async signOut(caller: CallerHeaders): Promise<string[]> {
    const { headers } = await this.call(() =>
      this.auth.api.signOut({ headers: toHeaders(caller), returnHeaders: true }),
    );
    return headers.getSetCookie();
  }

  async session(caller: CallerHeaders): Promise<ActiveSession | null> {
    if (!caller.cookie) return null;
    const { response, headers } = await this.call(() =>
      this.auth.api.getSession({ headers: toHeaders(caller), returnHeaders: true }),
    );
    if (!response) return null;
    return {
      user: toUserView(response.user),
      sessionId: response.session.id,
      setCookies: headers.getSetCookie(),
    };
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    callsInFlight += 1;
    try {
      return await run();
    } catch (error) {
      throw translate(error);
    } finally {
      callsInFlight -= 1;
      if (callsInFlight === 0) switchOffAsyncContexts();
    }
  }
}

/** better-auth calls under way in this process (its context stores are per process too). */
let callsInFlight = 0;

/**
 * better-auth keeps its request context in AsyncLocalStorage instances on a process-wide global.
 * Once one has run, Node 20 tracks every promise the process makes on its behalf, for good: about
 * a tenth of the CPU of every API request, though only dashboard calls read them. Between calls
 * nothing does, so they are switched off; the next call's `run` switches them on again.
 */
function switchOffAsyncContexts(): void {
  const global = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[
    Symbol.for('better-auth:global')
  ];
  for (const store of Object.values(global?.context ?? {})) {
    if (store instanceof AsyncLocalStorage) store.disable();
  }
}

function toHeaders(caller: CallerHeaders): Headers {
  const headers = new Headers();
  if (caller.cookie) headers.set('cookie', caller.cookie);
  if (caller.userAgent) headers.set('user-agent', caller.userAgent);
  // Fastify has already applied its trust-proxy rules to get this address.
  headers.set('x-forwarded-for', caller.ip);
  return headers;
}

interface BetterAuthError {
  statusCode: number;
  body?: { code?: string };
}

const isBetterAuthError = (error: unknown): error is BetterAuthError =>
  error instanceof Error && typeof (error as Partial<BetterAuthError>).statusCode === 'number';

function translate(error: unknown): unknown {
  if (!isBetterAuthError(error)) return error;
  const code = error.body?.code ?? '';
  if (error.statusCode === 401 || error.statusCode === 403) {
    return new DomainError('authentication_required', WRONG_CREDENTIALS);
  }
  if (code.startsWith('USER_ALREADY_EXISTS')) {
    return validationError(
      [{ field: 'email', issue: 'is already registered' }],
      'This email is already registered.',
    );
  }
  if (code.startsWith('PASSWORD_TOO')) {
    return validationError([{ field: 'password', issue: 'must be 10 to 128 characters' }]);
  }
  if (code === 'INVALID_EMAIL')
    return validationError([{ field: 'email', issue: 'must be an email address' }]);
  // Its own check of the body (zod), which our DTOs should have caught first: still the caller's.
  if (error.statusCode === 400 && code === 'VALIDATION_ERROR') {
    return new DomainError('validation_error', 'The request is invalid.');
  }
  // Anything else is our misconfiguration, not the caller's mistake: a 500 without better-auth's words.
  return new Error(`better-auth refused the call (${error.statusCode} ${code})`);
}
