import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const secrets = readOrCreate(config.dataDir);
  return {
    ...config,
    secretHashKey: config.secretHashKey ?? secrets.secretHashKey,
    authSecret: config.authSecret ?? secrets.authSecret,
  };
}

/**
 * Processes that start together on one DATA_DIR (the six of `start:distributed`) must all end up
 * with the same secrets. The file appears whole or not at all: it is written under a name of this
 * process's and linked into place, which fails when another process's file got there first; every
 * process then reads the one file that did.
 */
function readOrCreate(dataDir: string): SecretsFile {
  const file = join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    // The pid alone is not unique across containers sharing the folder (each may be pid 1).
    const draft = `${file}.${process.pid}.${randomToken(8)}`;
    const secrets: SecretsFile = { secretHashKey: randomToken(48), authSecret: randomToken(48) };
    writeFileSync(draft, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return JSON.parse(readFileSync(file, 'utf8')) as SecretsFile;
}
