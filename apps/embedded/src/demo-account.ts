import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '@xaalis/kernel';

export interface DemoAccount {
  email: string;
  merchantId: string;
  /** Present only on the run that created the account: secrets are shown once. */
  password?: string;
  secretKey?: string;
  webhookSecret?: string;
}

const MARKER = 'demo-account.json';

/**
 * On first start, signs up a demo user, creates a merchant and issues a test secret key through
 * the service's own public API, so a newcomer can `curl` at once and verify the demo's webhooks.
 * Only ids are kept on disk; the password, the key and the webhook secret are printed this once,
 * like any secret.
 */
export async function ensureDemoAccount(baseUrl: string, dataDir: string): Promise<DemoAccount> {
  const marker = join(dataDir, MARKER);
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as DemoAccount;

  const email = 'demo@xaalis.local';
  const password = randomToken(20);
  const signUp = await call(baseUrl, 'POST', '/dashboard/v1/auth/sign-up', {
    email,
    password,
    name: 'Demo',
  });
  const cookie = signUp.headers.get('set-cookie')?.split(';')[0] ?? '';
  const merchant = (await call(
    baseUrl,
    'POST',
    '/dashboard/v1/merchants',
    { name: 'Demo shop' },
    cookie,
  ).then((r) => r.json())) as { id: string; webhook_secret: string };
  const key = (await call(
    baseUrl,
    'POST',
    `/dashboard/v1/merchants/${merchant.id}/test/api-keys`,
    undefined,
    cookie,
    'demo-key',
  ).then((r) => r.json())) as { secret_key: string };
  const account: DemoAccount = { email, merchantId: merchant.id };
  writeFileSync(marker, JSON.stringify(account, null, 2), { mode: 0o600 });
  return {
    ...account,
    password,
    secretKey: key.secret_key,
    webhookSecret: merchant.webhook_secret,
  };
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  cookie?: string,
  idempotencyKey?: string,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(
      `Demo account setup: ${method} ${path} answered ${response.status} ${await response.text()}`,
    );
  }
  return response;
}
