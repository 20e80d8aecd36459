import { startEmbeddedService, type EmbeddedService } from '@xaalis/app-embedded';
import { loadConfig } from '@xaalis/config';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { FixedClock } from '@xaalis/kernel';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { serviceEnv, sharedSecrets } from './fixtures';
import { HttpClient } from './http';

export interface InProcessService {
  url: string;
  http: HttpClient;
  clock: FixedClock;
  service: EmbeddedService;
  db: ThrowawayDatabase;
  /** Its keys' and sessions' secrets: a second service on its database must share them. */
  secrets: ReturnType<typeof sharedSecrets>;
  close(): Promise<void>;
}

/**
 * The six apps in this test's process (the embedded composition root) over a throwaway
 * database on the local Postgres, with a clock the test moves: for flows that need time to pass
 * (payment expiry, refund settlement) without waiting for it.
 */
export async function startInProcessService(
  env: Record<string, string> = {},
  options: {
    /** Another service's database: two services on one database act as two replicas. */
    sharing?: InProcessService;
    /** Serve the OpenAPI document at /docs (off by default: start-up is faster without). */
    openApi?: boolean;
  } = {},
): Promise<InProcessService> {
  const db =
    options.sharing?.db ?? (await createThrowawayDatabase({ prefix: 'e2e_payments', poolMax: 4 }));
  const ownsDb = options.sharing === undefined;
  const clock = new FixedClock(new Date());
  const secrets = options.sharing?.secrets ?? sharedSecrets();
  const config = loadConfig({
    ...serviceEnv(),
    ...secrets,
    LOG_LEVEL: 'error',
    IP_RATE_LIMIT_BURST: '10000',
    IP_RATE_LIMIT_PER_SECOND: '10000',
    RATE_LIMIT_BURST: '10000',
    RATE_LIMIT_PER_SECOND: '10000',
    DATABASE_URL: db.url,
    ...env,
  });
  const service = await startEmbeddedService(config, {
    host: '127.0.0.1',
    openApi: options.openApi ?? false,
    clock,
  });
  return {
    url: service.url,
    http: new HttpClient(service.url),
    clock,
    service,
    db,
    secrets,
    async close() {
      await service.close();
      if (ownsDb) await db.drop();
    },
  };
}

/**
 * How the payments suites end: the ledger balances (its entries sum to zero), and the service
 * closes whether it does or not.
 */
export async function closeWithLedgerBalanced(
  service: InProcessService | undefined,
): Promise<void> {
  try {
    if (service) await expectLedgerBalanced(service.db.pool);
  } finally {
    await service?.close();
  }
}
