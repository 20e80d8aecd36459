/**
 * `npm run bench:restart`: how long the ledger and the read models take to catch up after a
 * `kill -9` of the embedded service under write load (issue 16). Starts `npm start`'s entry on a
 * fresh DATA_DIR (its own embedded Postgres), loads it with clients that create payments (a fresh
 * idempotency key each) and make most of them succeed, kills it mid-load, starts it again on the
 * same data, and times from "running" until every acknowledged payment is listed and `available`
 * is the sum of the succeeded payments' nets.
 *
 * RESTART_CLIENTS (default 24), RESTART_LOAD_SECONDS (default 20).
 */
import { tempDataDir } from '../e2e/support/fixtures';
import { killAllStarted } from '../e2e/support/processes';
import { caughtUp, demoKey, loadThenKill, startEmbedded } from '../e2e/support/restart-under-load';

const clients = Number(process.env.RESTART_CLIENTS ?? 24);
const loadSeconds = Number(process.env.RESTART_LOAD_SECONDS ?? 20);
const GIVE_UP_MS = 300_000;
const log = (line: string) => process.stderr.write(`restart: ${line}\n`);

async function main(): Promise<void> {
  const dataDir = tempDataDir('restart');
  try {
    const first = await startEmbedded('first', { DATA_DIR: dataDir.path });
    const key = await demoKey(first);
    const acknowledged = await loadThenKill(first, key, { clients, loadMs: loadSeconds * 1_000 });
    log(
      `acknowledged before the kill: ${acknowledged.created.size} payments, ${acknowledged.succeededNets.size} successes`,
    );

    const second = await startEmbedded('after kill -9', { DATA_DIR: dataDir.path });
    let lastLog = 0;
    for (;;) {
      const state = await caughtUp(second.http, key, acknowledged);
      const seconds = (Date.now() - second.readyAt) / 1000;
      if (state.done) {
        log(`caught up ${seconds.toFixed(2)} s after the restart was running`);
        process.stdout.write(
          `${JSON.stringify({ clients, loadSeconds, catchUpSeconds: seconds, created: acknowledged.created.size, succeeded: acknowledged.succeededNets.size })}\n`,
        );
        break;
      }
      if (Date.now() - lastLog > 5_000) {
        lastLog = Date.now();
        log(
          `${seconds.toFixed(0)} s: available ${state.available} of ${state.expected}${Number.isNaN(state.unlisted) ? '' : `, ${state.unlisted} not listed`}`,
        );
      }
      if (seconds * 1000 > GIVE_UP_MS) throw new Error('not caught up within 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await second.run.stop();
  } finally {
    await killAllStarted();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
