/**
 * `npm run fuzz -- [--runs N] [--seed S] [--path P] [--url URL --database-url DB]
 *                 [--max-failures N] [--shrink-seconds N] [--time-limit-seconds N] [--out FILE]`
 *
 * Generated requests (fast-check) for every route of the OpenAPI document, against the embedded
 * service started here on a throwaway database of TEST_DATABASE_URL, or against `--url`. Prints
 * the cases run, the answers by status, the 5xx count, and each distinct failure shrunk, with the
 * seed and path that replay it. Exits 1 when a property failed, the service is unhealthy after the
 * run, or the ledger does not balance.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from './fuzz-args';
import { runFuzzSession } from './fuzz-session';
import { formatSummary } from './summary';

/** Memory after a collection (`npm run fuzz` exposes gc): a leak shows as a heap that keeps growing. */
function memoryNow(): string {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 1e6);
  return `rss ${mb(rss)} MB, heap ${mb(heapUsed)} MB, buffers ${mb(arrayBuffers)} MB`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const against = args.url ?? 'the embedded service';
  console.log(
    args.path === undefined
      ? `fuzz: ${args.runs} cases, seed ${args.seed}, against ${against}`
      : `fuzz: replaying seed ${args.seed} path ${args.path} against ${against}`,
  );
  const { result, end } = await runFuzzSession({
    ...args,
    onProgress: (stats) =>
      console.log(`  … ${stats.cases} cases, 5xx ${stats.serverErrors}, ${memoryNow()}`),
  });
  const summary = formatSummary(result, end, args.seed);
  console.log(summary);
  if (args.out)
    writeFileSync(
      args.out,
      JSON.stringify({ args, stats: result.stats, failures: result.failures, end }, null, 2),
    );
  const ok = result.failures.length === 0 && end.healthy && end.ledgerBalanced;
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
