#!/usr/bin/env node
/**
 * `npm test`: lint (module boundaries included), type-check, then the three jest tiers. Unit and
 * int suites share a run (each int suite makes its own throwaway database and broker); e2e suites
 * start whole processes, so they run one at a time. Ends with one plain summary line.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');

const root = join(__dirname, '../..');
const env = { ...process.env, TZ: 'UTC', NX_DAEMON: 'false' };
const run = (label, command, args) => {
  console.log(`\n── ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  return result.status === 0;
};
const bin = (name) => join(root, 'node_modules/.bin', name);

if (!existsSync(join(root, 'libs/shared/database/src/generated/prisma'))) {
  if (!run('prisma client', 'node', ['tools/scripts/prisma-generate.js'])) process.exit(1);
}
const only = process.argv.slice(2);
let ok = true;
if (only.length === 0) {
  ok = run('project graph', bin('nx'), ['show', 'projects']) && ok;
  ok = run('lint', bin('eslint'), ['.']) && ok;
  ok = run('types', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) && ok;
}

const reports = mkdtempSync(join(tmpdir(), 'xaalis-jest-'));
const jest = (label, args) => {
  const output = join(reports, `${label}.json`);
  const passed = run(label, bin('jest'), [...args, '--json', `--outputFile=${output}`, ...only]);
  ok = passed && ok;
  return existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : undefined;
};
const results = [
  jest('unit+int', ['--selectProjects', 'unit', 'int', '--maxWorkers=2']),
  jest('e2e', ['--selectProjects', 'e2e', '--runInBand', '--passWithNoTests']),
];
const sum = (key) => results.reduce((total, r) => total + (r ? r[key] : 0), 0);
const failedRuns = results.filter((r) => r === undefined).length;
console.log(
  `\ntests: ${sum('numPassedTests')} passed, ${sum('numFailedTests') + sum('numFailedTestSuites') + failedRuns} failed, ${sum('numPendingTests')} skipped`,
);
process.exit(ok ? 0 : 1);
