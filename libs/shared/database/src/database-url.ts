import { startEmbeddedPostgres, type EmbeddedPlacement } from './embedded-postgres';

export interface DatabaseSetting {
  /** `DATABASE_URL`; unset means the embedded server. */
  databaseUrl: string | undefined;
  /** `DATA_DIR`: where the embedded server keeps its files. */
  dataDir: string;
}

export interface ResolvedDatabase {
  url: string;
  /** Where the embedded server's files are; unset with DATABASE_URL. */
  embedded?: EmbeddedPlacement;
  /** Stops the embedded server if this call started it; a no-op otherwise. */
  release(): Promise<void>;
}

/**
 * The database a process should use: DATABASE_URL when set, else the embedded server under
 * DATA_DIR, started if needed. When the service already runs it (a CLI such as replay or migrate
 * next to `npm start`), this connects to that server and leaves it running on release.
 */
export async function resolveDatabase(setting: DatabaseSetting): Promise<ResolvedDatabase> {
  if (setting.databaseUrl !== undefined)
    return { url: setting.databaseUrl, release: async () => undefined };
  const server = await startEmbeddedPostgres({ dataDir: setting.dataDir });
  return { url: server.url, embedded: server.placement, release: () => server.stop() };
}
