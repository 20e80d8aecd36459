/**
 * `npm run migrate`: applies prisma/migrations to DATABASE_URL, or to the embedded Postgres under
 * DATA_DIR when it is unset (started for the occasion, or the one `npm start` is running).
 */
import { loadConfig } from '@xaalis/config';
import { resolveDatabase, runMigrations } from '@xaalis/database';

async function main(): Promise<void> {
  const database = await resolveDatabase(loadConfig());
  try {
    const result = await runMigrations(database.url, {
      onApplied: (name, ms) => console.log(`applied ${name} (${ms} ms)`),
    });
    console.log(
      result.applied.length === 0
        ? `Database up to date (${result.alreadyApplied.length} migrations).`
        : `Applied ${result.applied.length} migration(s); ${result.alreadyApplied.length} were already applied.`,
    );
  } finally {
    await database.release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
