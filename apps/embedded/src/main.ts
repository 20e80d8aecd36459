/**
 * `npm start`: the embedded mode. All six apps in this one process over the in-process bus, an
 * embedded Postgres under DATA_DIR (unless DATABASE_URL is set), nothing to install.
 */
import { loadConfig } from '@xaalis/config';
import { exitOnFailure, onShutdown, type Infrastructure } from '@xaalis/runtime';
import { ensureDemoAccount } from './demo-account';
import { startEmbeddedService } from './embedded-service';

async function main(): Promise<void> {
  const started = Date.now();
  const service = await startEmbeddedService(loadConfig());
  onShutdown(() => service.close());

  const { url } = service;
  const { dataDir } = service.infra.config;
  const demo = await ensureDemoAccount(url, dataDir);
  const lines = [
    `Xaalis is running at ${url} (embedded, data in ${dataDir}, ready in ${Date.now() - started} ms)`,
    ...placementLines(service.infra.embeddedPostgres, dataDir),
    `API reference: ${url}/docs`,
  ];
  if (demo.secretKey) {
    lines.push(
      `Demo merchant ${demo.merchantId}; dashboard sign-in ${demo.email} / ${demo.password}`,
      `Test secret key (shown once): ${demo.secretKey}`,
      `Webhook secret (shown once): ${demo.webhookSecret}`,
      `Try: curl -s ${url}/v1/account -H "Authorization: Bearer ${demo.secretKey}"`,
    );
  } else {
    lines.push(
      `Demo merchant ${demo.merchantId} (${demo.email}); its key was shown on first start.`,
      `Issue another: POST ${url}/dashboard/v1/merchants/${demo.merchantId}/test/api-keys after signing in.`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Under root the embedded Postgres runs as the postgres OS user; what that user could not reach
 * (a checkout or DATA_DIR in root's home) was placed elsewhere, and whoever backs up DATA_DIR
 * must know.
 */
function placementLines(placement: Infrastructure['embeddedPostgres'], dataDir: string): string[] {
  const lines: string[] = [];
  if (placement !== undefined && !placement.clusterInDataDir) {
    lines.push(
      `Postgres cluster in ${placement.cluster}: the postgres OS user it runs as cannot reach ${dataDir} (its pg.json records where)`,
    );
  }
  if (placement?.binariesCopiedFrom !== undefined) {
    lines.push(
      `Postgres binaries in ${placement.binaries}: a copy of ${placement.binariesCopiedFrom}, which the postgres OS user cannot reach`,
    );
  }
  return lines;
}

main().catch(exitOnFailure);
