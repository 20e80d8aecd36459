import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '@xaalis/kernel';
import type { XaalisConfig } from '@xaalis/config';

interface SecretsFile {
  secretHashKey: string;
  authSecret: string;
}

/**
 * The embedded mode must run with no setup, yet API keys are stored under a keyed hash and session
 * cookies are signed. When SECRET_HASH_KEY / AUTH_SECRET are not configured, they are generated
 * once and kept (mode 0600) under DATA_DIR, so keys and sessions survive a restart.
 */
export function withGeneratedSecrets(config: XaalisConfig): XaalisConfig {
  if (config.secretHashKey !== undefined && config.authSecret !== undefined) return config;
  const file = join(config.dataDir, 'secrets.json');
  let secrets: SecretsFile;
  if (existsSync(file)) {
    secrets = JSON.parse(readFileSync(file, 'utf8')) as SecretsFile;
  } else {
    mkdirSync(config.dataDir, { recursive: true });
    secrets = { secretHashKey: randomToken(48), authSecret: randomToken(48) };
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  }
  return {
    ...config,
    secretHashKey: config.secretHashKey ?? secrets.secretHashKey,
    authSecret: config.authSecret ?? secrets.authSecret,
  };
}
