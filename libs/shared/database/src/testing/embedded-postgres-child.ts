/**
 * Test fixture: a separate process that starts the embedded server on the data dir given as its
 * argument, prints READY and waits to be killed (embedded-postgres.int.spec.ts plays the crash).
 */
import { startEmbeddedPostgres } from '../embedded-postgres';

startEmbeddedPostgres({ dataDir: process.argv[2]! }).then(
  (server) => {
    process.stdout.write(`READY ${server.port}\n`);
    setInterval(() => undefined, 60_000);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
