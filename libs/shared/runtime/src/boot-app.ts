import { Module, type LoggerService, type LogLevel, type Type } from '@nestjs/common';
import type { XaalisConfig } from '@xaalis/config';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  BusModule,
  busServerStrategy,
  directRequestHandlers,
  InProcessServer,
  type BusOptions,
} from '@xaalis/bus';
import type { AppName } from '@xaalis/contracts';
import { configureHttpApp, createFastifyAdapter, setupOpenApi } from '@xaalis/http';
import { CoreModule } from './core.module';
import type { Infrastructure } from './infrastructure';

export interface BootOptions {
  app: AppName;
  /** The app's root module (GatewayModule, PaymentsModule, …). */
  module: Type<unknown>;
  infra: Infrastructure;
  bus: BusOptions;
  /** Listen for HTTP on this port (0: any free port); undefined: no HTTP listener. */
  port?: number;
  host?: string;
  openApi?: boolean;
  logger?: LoggerService | false;
}

/**
 * Builds one app the same way in both modes: its module over the shared infrastructure, its bus
 * client, its bus handlers connected as a microservice, and (when given a port) the HTTP edge.
 */
export async function bootApp(options: BootOptions): Promise<NestFastifyApplication> {
  @Module({
    imports: [
      CoreModule.forRoot(options.infra),
      BusModule.forApp(options.app, options.bus),
      options.module,
    ],
  })
  class AppRoot {}
  Object.defineProperty(AppRoot, 'name', { value: `${options.app}Root` });

  const app = await NestFactory.create<NestFastifyApplication>(AppRoot, createFastifyAdapter(), {
    logger: options.logger ?? nestLogLevels(options.infra.config.logLevel),
    abortOnError: false,
  });
  configureHttpApp(app);
  if (options.openApi) setupOpenApi(app);
  // The HTTP edge's global pipe and filter stay off the bus handlers: a payload is checked by
  // `reply()` against its contract, and an error is Nest's RPC error (see InProcessServer).
  const bus = busServerStrategy(options.app, options.bus);
  // In one process, a request handler with nothing around it is called as a plain method.
  if (bus.strategy instanceof InProcessServer)
    bus.strategy.callDirectly(directRequestHandlers(app));
  app.connectMicroservice(bus, { inheritAppConfig: false });
  await app.startAllMicroservices();
  if (options.port !== undefined) await listen(app, options.port, options.host ?? '0.0.0.0');
  else await app.init();
  return app;
}

/** The HTTP listener; a port already taken is said in words that tell what to do. */
async function listen(app: NestFastifyApplication, port: number, host: string): Promise<void> {
  try {
    await app.listen(port, host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(
      `Port ${port} is already in use (on ${host}): stop what listens there, or set PORT to another port.`,
      { cause: error },
    );
  }
}

/**
 * LOG_LEVEL as Nest's list of enabled levels (`silent`: none). Nest's own `log` level is mostly its
 * boot chatter (every module and route of six apps), so it shows only from `debug` on.
 */
export function nestLogLevels(level: XaalisConfig['logLevel']): LogLevel[] | false {
  switch (level) {
    case 'silent':
      return false;
    case 'error':
      return ['error'];
    case 'warn':
    case 'info':
      return ['error', 'warn'];
    case 'debug':
      return ['error', 'warn', 'log', 'debug'];
  }
}
