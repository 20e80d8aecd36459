import type { Type } from '@nestjs/common';
import { loadConfig } from '@xaalis/config';
import type { AppName } from '@xaalis/contracts';
import { bootApp } from './boot-app';
import { createInfrastructure } from './infrastructure';
import { onShutdown } from './shutdown';

/**
 * The distributed mode's entry point for one app: its own process, Kafka for the bus, the
 * configured databases. Prints `<app> ready on port <p>` once it takes traffic.
 */
export async function runStandaloneApp(app: AppName, module: Type<unknown>): Promise<void> {
  const config = loadConfig();
  if (config.kafkaBrokers === undefined || config.kafkaBrokers.length === 0) {
    throw new Error(
      `The ${app} app alone needs KAFKA_BROKERS to reach the other apps; \`npm start\` runs all five in one process.`,
    );
  }
  const infra = await createInfrastructure(config, { applicationName: `xaalis-${app}` });
  const nest = await bootApp({
    app,
    module,
    infra,
    bus: {
      kafkaBrokers: config.kafkaBrokers,
      kafkaMaxWaitMs: config.kafkaMaxWaitMs,
      kafkaSessionTimeoutMs: config.kafkaSessionTimeoutMs,
    },
    port: config.port,
    openApi: app === 'gateway',
  });
  const url = await nest.getUrl();
  process.stdout.write(`${app} ready on port ${new URL(url).port}\n`);
  onShutdown(async () => {
    await nest.close();
    await infra.close();
  });
}

export function exitOnFailure(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
