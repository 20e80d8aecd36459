import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BillingModule } from '@xaalis/app-billing';
import { ExchangeModule } from '@xaalis/app-exchange';
import { GatewayModule } from '@xaalis/app-gateway';
import { PaymentsModule } from '@xaalis/app-payments';
import { PayoutsModule } from '@xaalis/app-payouts';
import { WebhooksModule } from '@xaalis/app-webhooks';
import { InProcessBroker } from '@xaalis/bus';
import type { XaalisConfig } from '@xaalis/config';
import type { Clock } from '@xaalis/kernel';
import { bootApp, createInfrastructure, type Infrastructure } from '@xaalis/runtime';

export interface EmbeddedService {
  /** Base URL of the gateway, with the port it actually took. */
  url: string;
  infra: Infrastructure;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  host?: string;
  poolSize?: number;
  openApi?: boolean;
  /** Tests move time (payment expiry, refund settlement) with a FixedClock. */
  clock?: Clock;
}

/**
 * The six apps in this one process over the in-process bus, sharing one infrastructure. The bus
 * holds events until every app has booted: in-process events reach only apps already listening,
 * and the payments app's forwarder starts publishing its backlog as soon as that app is up.
 */
export async function startEmbeddedService(
  config: XaalisConfig,
  options: EmbeddedOptions = {},
): Promise<EmbeddedService> {
  const infra = await createInfrastructure(config, {
    applicationName: 'xaalis-embedded',
    poolSize: options.poolSize,
    clock: options.clock,
  });
  const bus = { broker: new InProcessBroker({ closedUntilOpen: true }) };
  const workers: NestFastifyApplication[] = [];
  for (const [app, module] of [
    ['payments', PaymentsModule],
    ['billing', BillingModule],
    ['payouts', PayoutsModule],
    ['webhooks', WebhooksModule],
    ['exchange', ExchangeModule],
  ] as const) {
    workers.push(await bootApp({ app, module, infra, bus }));
  }
  const gateway = await bootApp({
    app: 'gateway',
    module: GatewayModule,
    infra,
    bus,
    port: config.port,
    host: options.host,
    openApi: options.openApi ?? true,
  });
  bus.broker.open();
  const host = options.host ?? 'localhost';
  const url = `http://${host}:${new URL(await gateway.getUrl()).port}`;
  // PORT=0 takes any free port: the default public base URL (http://localhost:$PORT) follows it.
  if (infra.config.publicBaseUrl === `http://localhost:0`) infra.config.publicBaseUrl = url;
  return {
    url,
    infra,
    async close() {
      await gateway.close();
      for (const worker of workers.reverse()) await worker.close();
      await infra.close();
    },
  };
}
