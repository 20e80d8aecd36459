import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { binariesIn, type PostgresBinaries, type RunAs } from './embedded-postgres-binaries';
import { isAlive } from './postmaster-pid';
import { canEnter, canRun } from './server-user-reach';

/**
 * Running as root, the server runs as the postgres OS user, which may be unable to reach the
 * checkout's node_modules or DATA_DIR (a checkout in root's 0700 home, a DATA_DIR made by
 * `mktemp -d`). We never open up folders we did not make: what it cannot reach goes here instead.
 */
export const DEFAULT_SERVER_HOME = '/var/lib/xaalis';

export interface PlacedBinaries {
  binaries: PostgresBinaries;
  /** Set when `binaries` is a copy, made because the server user could not run these. */
  copiedFrom?: string;
}

/**
 * Binaries the server user can run: npm's, or else a copy under `serverHome`, made once per
 * package version and reused after. Postgres finds `lib` and `share` from its own path, so the
 * whole `native` folder goes (about 60 MB).
 */
export function reachableBinaries(
  found: PostgresBinaries,
  runAs: RunAs,
  serverHome: string,
): PlacedBinaries {
  if (canRun(runAs, found)) return { binaries: found };
  const copy = join(serverHome, `postgres-${found.version.replace(/[^\w.-]/g, '_')}`);
  if (!existsSync(copy)) copyAside(found.root, copy);
  const binaries = binariesIn(copy, found.version);
  if (!canRun(runAs, binaries)) {
    throw new Error(
      `The postgres OS user (which the embedded server runs as under root) can run the Postgres binaries ` +
        `neither in ${found.root} nor in their copy ${copy}: let it reach ${serverHome}, or set DATABASE_URL.`,
    );
  }
  return { binaries, copiedFrom: found.root };
}

/**
 * The folder for a new cluster: `<dataDir>/pg` when the server user can enter dataDir, as always;
 * else a folder of its own under `<serverHome>/clusters`, which the caller records in dataDir's
 * pg.json. Its name is random, so a DATA_DIR made afresh (pg.json and the password in it gone)
 * never lands on an older cluster; `mkdirSync` without `recursive` fails rather than share one.
 */
export function placeNewCluster(
  dataDir: string,
  runAs: RunAs | undefined,
  serverHome: string,
): string {
  if (runAs === undefined || canEnter(runAs, dataDir)) return join(dataDir, 'pg');
  const clusters = join(serverHome, 'clusters');
  makeDirs(clusters);
  const home = join(clusters, clusterName(dataDir));
  mkdirSync(home);
  chmodSync(home, 0o755);
  // For whoever looks in the clusters folder: which service this one belongs to.
  writeFileSync(join(home, 'DATA_DIR'), `${dataDir}\n`);
  if (!canEnter(runAs, home)) {
    rmSync(home, { recursive: true, force: true });
    throw new Error(
      `The postgres OS user (which the embedded server runs as under root) can reach neither ${dataDir} ` +
        `nor ${clusters}: let it reach ${serverHome}, or set DATABASE_URL.`,
    );
  }
  return join(home, 'pg');
}

/** `/root/xaalis/.data` → `xaalis-data-1f2e3d4c`: readable, and never the name of an older one. */
function clusterName(dataDir: string): string {
  const words = `${basename(dirname(dataDir))}-${basename(dataDir)}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `${words || 'data'}-${randomBytes(4).toString('hex')}`;
}

/**
 * Written aside then renamed: a crash mid-copy leaves no half copy that a later start would take
 * for a whole one. Two starts copying at once both finish; the first rename wins.
 */
function copyAside(source: string, target: string): void {
  makeDirs(dirname(target));
  dropDeadCopies(target);
  const aside = `${target}.copying-${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  // The library symlinks are relative (libpq.so -> libpq.so.5): kept as they are, they still hold.
  cpSync(source, aside, { recursive: true, verbatimSymlinks: true });
  openToAll(aside);
  try {
    renameSync(aside, target);
  } catch (error) {
    rmSync(aside, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
}

/** What a crashed copy left behind (its pid in the name is gone). */
function dropDeadCopies(target: string): void {
  const prefix = `${basename(target)}.copying-`;
  for (const name of readdirSync(dirname(target))) {
    if (name.startsWith(prefix) && !isAlive(Number(name.slice(prefix.length)))) {
      rmSync(join(dirname(target), name), { recursive: true, force: true });
    }
  }
}

/**
 * The copy is ours, so we may set its modes: npm under `umask 077` leaves files only root can
 * read, and the copy would keep them.
 */
function openToAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) openToAll(path);
    else if (entry.isFile()) chmodSync(path, (statSync(path).mode & 0o100) !== 0 ? 0o755 : 0o644);
  }
}

/**
 * mkdir -p, then 0755 on the folders it made (the umask may have narrowed them), and on those
 * only: a folder someone else made keeps the mode they chose.
 */
function makeDirs(path: string): void {
  const first = mkdirSync(path, { recursive: true });
  if (first === undefined) return;
  for (let dir = path; ; dir = dirname(dir)) {
    chmodSync(dir, 0o755);
    if (dir === first) return;
  }
}
