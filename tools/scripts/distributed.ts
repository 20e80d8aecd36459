/**
 * `npm run start:distributed`: the six apps as separate processes over Kafka, sharing DATABASE_URL
 * (and EVENTSTORE_URL when set). The gateway takes PORT (a free one when PORT is 0); the others take
 * the next five ports for their /health and /metrics. Every app gets the gateway's public URL.
 * Lines are prefixed with the app's name; Ctrl-C stops all six.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '@xaalis/config';
import { APP_NAMES } from '@xaalis/contracts';
import { freePort } from '@xaalis/database';

const config = loadConfig();
if (!config.kafkaBrokers?.length || config.databaseUrl === undefined) {
  process.stderr.write(
    'start:distributed needs KAFKA_BROKERS and DATABASE_URL (EVENTSTORE_URL optional).\n',
  );
  process.exit(2);
}

const root = join(__dirname, '../..');
const children: ChildProcess[] = [];
// The gateway last: it answers HTTP only once the apps it asks are up.
const order = [...APP_NAMES.filter((app) => app !== 'gateway'), 'gateway' as const];

async function start(): Promise<void> {
  // Checkout, hosted invoice and sandbox pages are the gateway's, whichever app makes their links:
  // every app gets the gateway's public URL, not one made of its own port.
  const gatewayPort = config.port === 0 ? await freePort() : config.port;
  const publicBaseUrl = process.env.PUBLIC_BASE_URL?.trim()
    ? config.publicBaseUrl
    : `http://localhost:${gatewayPort}`;
  order.forEach((app, index) => {
    const port = app === 'gateway' ? gatewayPort : config.port === 0 ? 0 : config.port + index + 1;
    const child = spawn(process.execPath, ['tools/scripts/run.js', `apps/${app}/src/main.ts`], {
      cwd: root,
      env: { ...process.env, PORT: String(port), PUBLIC_BASE_URL: publicBaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) =>
        process.stdout.write(`[${app}] ${line}\n`),
      );
    }
    child.on('exit', (code, signal) => {
      process.stdout.write(`[${app}] exited (${signal ?? code})\n`);
      if (!stopping) stop(1);
    });
  });
}

let stopping = false;
function stop(code: number): void {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10_000).unref();
  Promise.all(
    children.map(
      (child) =>
        new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done))),
    ),
  ).then(() => process.exit(code));
}
start().catch((error: unknown) => {
  process.stderr.write(`start:distributed: ${String(error)}\n`);
  stop(1);
});
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));
