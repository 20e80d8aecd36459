#!/usr/bin/env node
/**
 * Runs a TypeScript entry point with swc (decorator metadata and tsconfig paths included), so the
 * service starts from source with no build step. Usage: node tools/scripts/run.js <file.ts> [args]
 */
const { resolve } = require('node:path');
process.env.TS_NODE_PROJECT ??= resolve(__dirname, '../../tsconfig.json');
process.env.SWC_NODE_PROJECT ??= process.env.TS_NODE_PROJECT;
process.env.TZ ??= 'UTC';
require('@swc-node/register');
require('reflect-metadata');
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node tools/scripts/run.js <entry.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
require(resolve(entry));
