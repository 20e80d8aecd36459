import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '@xaalis/config';
import { withGeneratedSecrets } from './generated-secrets';

const ROOT = resolve(__dirname, '../../../..');
const run = promisify(execFile);

describe('withGeneratedSecrets', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'xaalis-secrets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const configOf = (env: Record<string, string> = {}) =>
    loadConfig({ DATA_DIR: join(dir, 'data'), ...env });

  it('generates the secrets once, keeps them in a 0600 file, and reads them back', () => {
    const first = withGeneratedSecrets(configOf());
    expect(first.secretHashKey).toHaveLength(48);
    expect(first.authSecret).toHaveLength(48);
    expect(first.secretHashKey).not.toBe(first.authSecret);
    const file = join(dir, 'data', 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'data'))).toEqual(['secrets.json']);

    const again = withGeneratedSecrets(configOf());
    expect([again.secretHashKey, again.authSecret]).toEqual([
      first.secretHashKey,
      first.authSecret,
    ]);
  });

  it('keeps configured secrets, taking from the file only what is missing', () => {
    const configured = 'c'.repeat(40);
    const config = withGeneratedSecrets(configOf({ SECRET_HASH_KEY: configured }));
    expect(config.secretHashKey).toBe(configured);
    expect(config.authSecret).toHaveLength(48);
    expect(JSON.parse(readFileSync(join(dir, 'data', 'secrets.json'), 'utf8')).authSecret).toBe(
      config.authSecret,
    );
  });

  it('gives processes that start together on one DATA_DIR the same secrets', async () => {
    // Six processes, as start:distributed starts its apps, each reaching the file at the same
    // instant. When the file was written in place, some of them crashed on EEXIST.
    for (let round = 0; round < 2; round += 1) {
      const dataDir = join(dir, `round-${round}`);
      const at = String(Date.now() + 3_000);
      const printed = await Promise.all(
        Array.from({ length: 6 }, () =>
          run(
            process.execPath,
            [
              join(ROOT, 'tools/scripts/run.js'),
              join(__dirname, 'testing/print-generated-secrets.ts'),
              dataDir,
              at,
            ],
            { cwd: ROOT },
          ).then(({ stdout }) => stdout.trim()),
        ),
      );
      const stored = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
      expect(new Set(printed)).toEqual(new Set([`${stored.secretHashKey} ${stored.authSecret}`]));
      expect(readdirSync(dataDir)).toEqual(['secrets.json']);
    }
  }, 60_000);
});
