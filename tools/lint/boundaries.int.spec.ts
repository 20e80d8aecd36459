import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/** Lints `source` as if it were the file at `path`, with the repo's real eslint config. */
function lint(path: string, source: string): string {
  spawnSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], {
    cwd: root,
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  const result = spawnSync(
    join(root, 'node_modules/.bin/eslint'),
    ['--stdin', '--stdin-filename', path],
    {
      cwd: root,
      input: source,
      encoding: 'utf8',
    },
  );
  return result.stdout;
}

describe('module boundaries (planted violations)', () => {
  it('refuses one context importing another context', () => {
    const out = lint(
      'apps/payouts/src/planted.ts',
      "import { identityProjections } from '@xaalis/identity';\nexport const x = identityProjections;\n",
    );
    expect(out).toContain(
      'A project tagged with "scope:payouts" can only depend on libs tagged with "scope:payouts", "scope:shared"',
    );
  });

  it('refuses a contracts library depending on infrastructure', () => {
    const out = lint(
      'libs/shared/contracts/src/planted.ts',
      "import { createPool } from '@xaalis/database';\nexport const x = createPool;\n",
    );
    expect(out).toContain(
      'A project tagged with "type:contracts" can only depend on libs tagged with "type:domain", "type:contracts"',
    );
  });

  it('refuses an app module imported outside the composition root', () => {
    const out = lint(
      'apps/payments/src/planted.ts',
      "import { GatewayModule } from '@xaalis/app-gateway';\nexport const x = GatewayModule;\n",
    );
    expect(out).toContain('Only the composition roots');
  });

  it('refuses a domain library importing a package that does I/O', () => {
    const out = lint(
      'libs/payments/domain/src/planted.ts',
      "import { Pool } from 'pg';\nexport const x = Pool;\n",
    );
    expect(out).toContain('A project tagged with "type:domain" is not allowed to import "pg"');
  });

  it.each([
    'libs/gateway/identity-domain/src/planted.ts',
    'libs/payouts/ledger-domain/src/planted.ts',
  ])('refuses the framework in %s', (path) => {
    const out = lint(
      path,
      "import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n",
    );
    expect(out).toContain(
      'A project tagged with "type:domain" is not allowed to import "@nestjs/common"',
    );
  });

  it('refuses a domain library depending on infrastructure', () => {
    const out = lint(
      'libs/payouts/ledger-domain/src/planted.ts',
      "import { createPool } from '@xaalis/database';\nexport const x = createPool;\n",
    );
    expect(out).toContain(
      'A project tagged with "type:domain" can only depend on libs tagged with "type:domain"',
    );
  });

  it('accepts a context using the shared kernel', () => {
    const out = lint(
      'apps/payouts/src/planted.ts',
      "import { newId } from '@xaalis/kernel';\nexport const x = newId;\n",
    );
    expect(out.trim()).toBe('');
  });
});
