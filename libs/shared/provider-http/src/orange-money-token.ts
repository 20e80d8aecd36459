import { isRecord, type Clock } from '@xaalis/kernel';
import {
  isDefinitiveRefusal,
  isSuccess,
  describeAnswer,
  type ProviderResponse,
} from './provider-http';

export type TokenResult =
  | { ok: true; token: string }
  /** `refused`: the token endpoint said no for good (wrong credentials); otherwise it may pass later. */
  | { ok: false; refused: boolean; reason: string };

/** Refresh this long before the provider's expiry, so a token never dies in flight. */
const REFRESH_MARGIN_MS = 30_000;

/**
 * Orange Money's OAuth2 client-credentials token (`POST /oauth/v1/token`, about five minutes of
 * life), cached until shortly before it expires. Concurrent callers share one token request, and
 * a token the API rejected is dropped so the next caller fetches a new one.
 */
export class OrangeMoneyTokens {
  private cached: { token: string; refreshAt: number } | null = null;
  private inFlight: Promise<TokenResult> | null = null;

  constructor(
    private readonly requestToken: () => Promise<ProviderResponse>,
    private readonly clock: Clock,
  ) {}

  get(): Promise<TokenResult> {
    if (this.cached !== null && this.clock.now().getTime() < this.cached.refreshAt) {
      return Promise.resolve({ ok: true, token: this.cached.token });
    }
    if (this.inFlight === null) {
      this.inFlight = this.fetchToken().finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  /** The API answered 401 with this token: forget it, unless a newer one already replaced it. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = null;
  }

  private async fetchToken(): Promise<TokenResult> {
    const response = await this.requestToken();
    if (response.kind === 'no_answer') {
      return { ok: false, refused: false, reason: `token request: ${response.reason}` };
    }
    if (!isSuccess(response.status)) {
      return {
        ok: false,
        refused: isDefinitiveRefusal(response.status),
        reason: `token request: ${describeAnswer('orange_money', response.status, response.json)}`,
      };
    }
    const parsed = readToken(response.json);
    if (parsed === null) return { ok: false, refused: false, reason: 'unreadable token response' };
    const lifetimeMs = parsed.expiresInSeconds * 1000;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2);
    this.cached = {
      token: parsed.token,
      refreshAt: this.clock.now().getTime() + lifetimeMs - margin,
    };
    return { ok: true, token: parsed.token };
  }
}

export function readToken(json: unknown): { token: string; expiresInSeconds: number } | null {
  if (!isRecord(json)) return null;
  const token = json['access_token'];
  const expiresIn = Number(json['expires_in']);
  if (typeof token !== 'string' || token === '') return null;
  // A missing lifetime still gives a usable token; it is just not kept long.
  const expiresInSeconds = Number.isFinite(expiresIn) && expiresIn >= 0 ? expiresIn : 60;
  return { token, expiresInSeconds };
}
