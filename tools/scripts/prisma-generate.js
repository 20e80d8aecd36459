#!/usr/bin/env node
/**
 * `prisma generate` for the multi-file schema in prisma/schema. Generating the Prisma 7 client
 * needs no engine binary, but the CLI still tries to download the schema engine unless
 * PRISMA_SCHEMA_ENGINE_BINARY names an existing file; this script will do, since generate never
 * runs it.
 */
const { spawnSync } = require('node:child_process');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '../..');

function prismaGenerate() {
  const cli = join(root, 'node_modules', 'prisma', 'build', 'index.js');
  const result = spawnSync(process.execPath, [cli, 'generate'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || __filename,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

module.exports = { prismaGenerate };

if (require.main === module) process.exit(prismaGenerate());
