import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A short random tag per test file, so names made by two runs on one database never clash. */
const RUN = randomBytes(3).toString('hex');
let sequence = 0;
const next = () => (sequence += 1);

export interface NewUser {
  email: string;
  password: string;
  name: string;
}

/** A user to sign up: unique lower-case email, a random password inside CONTRACT 5's 10..128. */
export function newUser(overrides: Partial<NewUser> = {}): NewUser {
  const n = next();
  return {
    email: `user-${RUN}-${n}@e2e.xaalis.test`,
    password: `pw-${randomBytes(12).toString('hex')}`,
    name: `E2E User ${n}`,
    ...overrides,
  };
}

export interface NewMerchant {
  name: string;
}

export function newMerchant(overrides: Partial<NewMerchant> = {}): NewMerchant {
  return { name: `E2E Shop ${RUN}-${next()}`, ...overrides };
}

export const idempotencyKey = () => `e2e-${randomBytes(12).toString('hex')}`;

/** A bearer secret of the right shape that no service issued. */
export const unknownSecretKey = (mode: 'test' | 'live' = 'test') =>
  `sk_${mode}_${randomBytes(16).toString('hex')}`;

/**
 * A webhook host the service lets through its private-address guard (WEBHOOK_ALLOWED_HOSTS).
 * `.test` never resolves, so nothing is ever delivered to it by accident.
 */
export const WEBHOOK_HOST = 'hooks.e2e.test';

/** What every service process under test gets, whatever the mode. */
export function serviceEnv(): Record<string, string> {
  return {
    PORT: '0',
    LOG_LEVEL: 'warn',
    KAFKA_MAX_WAIT_MS: '20',
    // A restarted process (the crash suites) reads again once its dead consumers are dropped.
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    WEBHOOK_ALLOWED_HOSTS: WEBHOOK_HOST,
  };
}

/** SECRET_HASH_KEY and AUTH_SECRET for processes that must agree on them (≥ 32 chars). */
export function sharedSecrets(): { SECRET_HASH_KEY: string; AUTH_SECRET: string } {
  return {
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    AUTH_SECRET: randomBytes(32).toString('hex'),
  };
}

/**
 * A fresh DATA_DIR; `remove()` deletes it with everything in it. Open to other users for
 * traversal (mkdtemp makes it 0700): under root the embedded Postgres runs as the postgres OS
 * user, and its cluster stays inside a DATA_DIR that user can enter, rather than under
 * /var/lib/xaalis where `remove()` would not reach it.
 */
export function tempDataDir(label: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `xaalis-e2e-${label}-`));
  chmodSync(path, 0o711);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
