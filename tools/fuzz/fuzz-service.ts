import { startEmbeddedService, type EmbeddedService } from '@xaalis/app-embedded';
import { loadConfig } from '@xaalis/config';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { serviceEnv, sharedSecrets } from '../e2e/support/fixtures';

export interface FuzzService {
  url: string;
  service: EmbeddedService;
  db: ThrowawayDatabase;
  /** Throws, saying what is wrong, unless the ledger balances. */
  checkLedger(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded service in this process over a throwaway database, as the e2e suites start it
 * (tools/e2e/support/in-process-service.ts) but with the OpenAPI document served, since the
 * harness reads its routes from there, and the real clock, so sandbox refunds settle by themselves.
 * Rate limits are high: a 429 would hide whatever the request would have met behind it.
 */
export async function startFuzzService(env: Record<string, string> = {}): Promise<FuzzService> {
  const db = await createThrowawayDatabase({ prefix: 'fuzz', poolMax: 2 });
  try {
    const config = loadConfig({
      ...serviceEnv(),
      ...sharedSecrets(),
      // The service logs every unexpected error with its stack: the harness reports them itself.
      LOG_LEVEL: 'silent',
      IP_RATE_LIMIT_BURST: '1000000',
      IP_RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_PER_SECOND: '1000000',
      SANDBOX_SETTLE_MS: '200',
      DATABASE_URL: db.url,
      ...env,
    });
    const service = await startEmbeddedService(config, { host: '127.0.0.1', openApi: true });
    return {
      url: service.url,
      service,
      db,
      checkLedger: () => expectLedgerBalanced(db.pool),
      async close() {
        try {
          await service.close();
        } finally {
          await db.drop();
        }
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
