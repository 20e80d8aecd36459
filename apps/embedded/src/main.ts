/**
 * `npm start`: the embedded mode. All five apps in this one process over the in-process bus, an
 * embedded Postgres under DATA_DIR (unless DATABASE_URL is set), nothing to install.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InProcessBroker } from '@xaalis/bus';
import { loadConfig } from '@xaalis/config';
import { bootApp, createInfrastructure, exitOnFailure, onShutdown } from '@xaalis/runtime';
import { BillingModule } from '@xaalis/app-billing';
import { GatewayModule } from '@xaalis/app-gateway';
import { PaymentsModule } from '@xaalis/app-payments';
import { PayoutsModule } from '@xaalis/app-payouts';
import { WebhooksModule } from '@xaalis/app-webhooks';
import { ensureDemoAccount } from './demo-account';

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  const infra = await createInfrastructure(config, { applicationName: 'xaalis-embedded' });
  const bus = { broker: new InProcessBroker() };
  const workers: NestFastifyApplication[] = [];
  for (const [app, module] of [
    ['payments', PaymentsModule],
    ['billing', BillingModule],
    ['payouts', PayoutsModule],
    ['webhooks', WebhooksModule],
  ] as const) {
    workers.push(await bootApp({ app, module, infra, bus }));
  }
  const gateway = await bootApp({
    app: 'gateway',
    module: GatewayModule,
    infra,
    bus,
    port: config.port,
    openApi: true,
  });
  onShutdown(async () => {
    await gateway.close();
    for (const worker of workers.reverse()) await worker.close();
    await infra.close();
  });

  const url = `http://localhost:${new URL(await gateway.getUrl()).port}`;
  const demo = await ensureDemoAccount(url, infra.config.dataDir);
  const lines = [
    `Xaalis is running at ${url} (embedded, data in ${infra.config.dataDir}, ready in ${Date.now() - started} ms)`,
    `API reference: ${url}/docs`,
  ];
  if (demo.secretKey) {
    lines.push(
      `Demo merchant ${demo.merchantId}; dashboard sign-in ${demo.email} / ${demo.password}`,
      `Test secret key (shown once): ${demo.secretKey}`,
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

main().catch(exitOnFailure);
