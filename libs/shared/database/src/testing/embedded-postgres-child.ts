/**
 * Test fixture: a separate process that starts the embedded server on the data dir given as its
 * argument, prints READY and waits: SIGTERM stops it as the service stops (its server with it),
 * SIGKILL plays the crash (embedded-postgres.int.spec.ts).
 */
import { startEmbeddedPostgres } from '../embedded-postgres';

startEmbeddedPostgres({ dataDir: process.argv[2]! }).then(
  (server) => {
    process.stdout.write(`READY ${server.port}\n`);
    const alive = setInterval(() => undefined, 60_000);
    process.once('SIGTERM', () => {
      clearInterval(alive);
      void server.stop().then(() => process.exit(0));
    });
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
