import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedService } from '@xaalis/app-embedded';
import { loadConfig, type XaalisConfig } from '@xaalis/config';
import { randomToken, type Clock } from '@xaalis/kernel';
import { httpGet, httpLoad } from './http-load';
import type { Subject } from './measure';

export interface EmbeddedStack {
  url: string;
  /** The service's config object, which also keys its test-only webhook agent. */
  config: XaalisConfig;
  close(): Promise<void>;
}

/** The pool size `createInfrastructure` gives the embedded process; the raw server gets the same. */
export const SERVICE_POOL_SIZE = 20;

/**
 * The embedded mode as `npm start` runs it (six apps, one process, the in-process bus), on the
 * given database. Rate limits are lifted so the bench measures the work, not the 429s; secrets
 * are passed in so nothing is generated under DATA_DIR, a temporary directory all the same.
 * `env` adds or overrides settings (e.g. WEBHOOK_ALLOWED_HOSTS); `clock`, the application clock,
 * lets a line move the service's time (a burst of expiries, a billing period starting).
 */
export async function startEmbeddedStack(
  databaseUrl: string,
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<EmbeddedStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xaalis-bench-'));
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    SECRET_HASH_KEY: randomToken(48),
    AUTH_SECRET: randomToken(48),
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    // Sign-up is limited per IP, and every request here comes from 127.0.0.1.
    IP_RATE_LIMIT_PER_SECOND: '1000000',
    IP_RATE_LIMIT_BURST: '1000000',
    ...env,
  });
  try {
    const service = await startEmbeddedService(config, {
      host: '127.0.0.1',
      poolSize: SERVICE_POOL_SIZE,
      openApi: false,
      clock,
    });
    return {
      url: service.url,
      config: service.infra.config,
      async close() {
        await service.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface BenchMerchant {
  merchantId: string;
  /** The owner's dashboard session cookie. */
  cookie: string;
  secretKey: string;
  webhookSecret: string;
}

/**
 * A merchant with a test secret key, obtained the way a merchant gets one: sign up, create a
 * merchant, issue a key through the dashboard API.
 */
export async function signUpMerchant(baseUrl: string): Promise<BenchMerchant> {
  const signUp = await call(baseUrl, 'POST', '/dashboard/v1/auth/sign-up', {
    body: {
      email: `bench-${randomToken(8).toLowerCase()}@xaalis.test`,
      password: randomToken(20),
      name: 'Bench',
    },
  });
  const cookie = signUp.headers
    .getSetCookie()
    .find((line) => /^[^=]*\.session_token=/.test(line))
    ?.split(';')[0];
  if (cookie === undefined) throw new Error('Sign-up set no session cookie');
  const merchant = (await call(baseUrl, 'POST', '/dashboard/v1/merchants', {
    body: { name: 'Bench shop' },
    cookie,
  }).then((response) => response.json())) as { id: string; webhook_secret: string };
  const key = (await call(baseUrl, 'POST', `/dashboard/v1/merchants/${merchant.id}/test/api-keys`, {
    cookie,
    idempotencyKey: `bench-${randomToken(8)}`,
  }).then((response) => response.json())) as { secret_key: string };
  return {
    merchantId: merchant.id,
    cookie,
    secretKey: key.secret_key,
    webhookSecret: merchant.webhook_secret,
  };
}

/** A test secret key of a new merchant (`signUpMerchant`). */
export async function issueTestSecretKey(baseUrl: string): Promise<string> {
  return (await signUpMerchant(baseUrl)).secretKey;
}

/** `GET /v1/account` with a secret key; the first answer is checked before anything is timed. */
export async function getAccount(
  baseUrl: string,
  secretKey: string,
  durationMs: number,
  concurrency: number,
): Promise<Subject> {
  const url = `${baseUrl}/v1/account`;
  const headers = { authorization: `Bearer ${secretKey}` };
  const first = JSON.parse(await httpGet(url, headers)) as { object?: string; name?: string };
  if (first.object !== 'account' || first.name !== 'Bench shop') {
    throw new Error(`GET /v1/account answered ${JSON.stringify(first)}`);
  }
  return httpLoad('GET /v1/account', { method: 'GET', url, headers }, { durationMs, concurrency });
}

/** One call that must answer 2xx, else it throws with the answer. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; idempotencyKey?: string; bearer?: string },
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}
