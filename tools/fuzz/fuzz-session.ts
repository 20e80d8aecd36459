import { expectLedgerBalanced } from '@xaalis/ledger';
import { startFakeOrangeMoney, startFakeWave } from '@xaalis/provider-http/testing';
import type { Document } from 'openapi-backend';
import { Pool } from 'pg';
import { WEBHOOK_HOST } from '../e2e/support/fixtures';
import { TrafficChecker } from '../openapi/traffic';
import { runFuzz, type FuzzOptions, type FuzzResult } from './fuzz-runner';
import { startFuzzService, type FuzzService } from './fuzz-service';
import { buildWorld } from './fuzz-world';
import { routesOf, type FuzzRoute } from './openapi-routes';
import type { RunEnd } from './summary';

export interface SessionOptions extends FuzzOptions {
  /** A service already running; without it, the embedded service starts in this process. */
  url?: string;
  /** With `url`: its database, for the ledger check. */
  databaseUrl?: string;
}

export interface SessionResult {
  result: FuzzResult;
  end: RunEnd;
  routes: FuzzRoute[];
}

/**
 * A whole fuzz run: the service (started here, its live providers pointed at local fakes so no
 * real provider is ever called), the routes from its OpenAPI document, the seeded world, the
 * cases, then the service's health, the ledger and the memory after them.
 */
export async function runFuzzSession(options: SessionOptions): Promise<SessionResult> {
  const fakes = options.url === undefined ? await startProviderFakes() : undefined;
  let service: FuzzService | undefined;
  try {
    service = fakes ? await startFuzzService(fakes.env) : undefined;
    const baseUrl = options.url ?? service!.url;
    const document = await readDocument(baseUrl);
    const routes = routesOf(document);
    const world = await buildWorld(baseUrl, routes, {
      urlHost: WEBHOOK_HOST,
      sessionCookieName: sessionCookieNameOf(document),
    });
    collectGarbage();
    const before = process.memoryUsage().rss;
    const result = await runFuzz(baseUrl, routes, world, {
      ...options,
      document: await TrafficChecker.load(document),
    });
    const health = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) }).then(
      async (response) => ({ status: response.status, text: await response.text() }),
      (error: Error) => ({ status: 0, text: error.message }),
    );
    const ledger = await checkLedger(service, options.databaseUrl);
    collectGarbage();
    const memory = process.memoryUsage();
    return {
      routes,
      result,
      end: {
        health: `${health.status} ${health.text.slice(0, 200)}`,
        healthy: health.status === 200,
        ledger: ledger.text,
        ledgerBalanced: ledger.balanced,
        ...(service
          ? {
              memory: {
                beforeMb: Math.round(before / 1e6),
                afterMb: Math.round(memory.rss / 1e6),
                heapAfterMb: Math.round(memory.heapUsed / 1e6),
              },
            }
          : {}),
        notes: [`${routes.length} routes in the OpenAPI document`, ...world.notes],
      },
    };
  } finally {
    try {
      await service?.close();
    } finally {
      await fakes?.close();
    }
  }
}

/** With `node --expose-gc` (as `npm run fuzz` runs), memory is measured after a collection. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function readDocument(baseUrl: string): Promise<Document> {
  const response = await fetch(`${baseUrl}/docs/openapi.json`, {
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) {
    throw new Error(
      `GET /docs/openapi.json answered ${response.status}: the harness needs the document`,
    );
  }
  return (await response.json()) as Document;
}

/** The session cookie's name as the document declares it (an `apiKey` scheme in a cookie). */
function sessionCookieNameOf(document: unknown): string | undefined {
  const schemes = (document as { components?: { securitySchemes?: Record<string, unknown> } })
    .components?.securitySchemes;
  for (const scheme of Object.values(schemes ?? {})) {
    const { type, in: where, name } = scheme as { type?: string; in?: string; name?: string };
    if (type === 'apiKey' && where === 'cookie' && typeof name === 'string') return name;
  }
  return undefined;
}

async function checkLedger(
  service: FuzzService | undefined,
  databaseUrl: string | undefined,
): Promise<{ balanced: boolean; text: string }> {
  const audit = async (check: () => Promise<void>) => {
    try {
      await check();
      return { balanced: true, text: 'balanced' };
    } catch (error) {
      return { balanced: false, text: (error as Error).message };
    }
  };
  if (service) return audit(() => service.checkLedger());
  if (databaseUrl === undefined) {
    return { balanced: true, text: 'not checked (give --database-url with --url)' };
  }
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    return await audit(() => expectLedgerBalanced(pool));
  } finally {
    await pool.end();
  }
}

/** Wave and Orange Money on 127.0.0.1, with the settings the service needs to call them. */
async function startProviderFakes() {
  const secrets = {
    waveKey: 'wave_sn_prod_fuzz_api_key_0123456789',
    waveWebhook: 'wave_sn_WHS_fuzz_webhook_secret_0123456789',
    orange: {
      clientId: 'om-fuzz-client-id',
      clientSecret: 'om-fuzz-client-secret-0123456789',
      merchantCode: '593012',
      callbackApiKey: 'om-fuzz-callback-api-key-0123456789',
    },
  };
  const wave = await startFakeWave({ apiKey: secrets.waveKey, webhookSecret: secrets.waveWebhook });
  const orangeMoney = await startFakeOrangeMoney(secrets.orange);
  return {
    env: {
      WAVE_API_BASE_URL: wave.url,
      WAVE_API_KEY: secrets.waveKey,
      WAVE_WEBHOOK_SECRET: secrets.waveWebhook,
      ORANGE_MONEY_API_BASE_URL: orangeMoney.url,
      ORANGE_MONEY_CLIENT_ID: secrets.orange.clientId,
      ORANGE_MONEY_CLIENT_SECRET: secrets.orange.clientSecret,
      ORANGE_MONEY_MERCHANT_CODE: secrets.orange.merchantCode,
      ORANGE_MONEY_CALLBACK_API_KEY: secrets.orange.callbackApiKey,
    },
    async close() {
      await wave.close();
      await orangeMoney.close();
    },
  };
}
