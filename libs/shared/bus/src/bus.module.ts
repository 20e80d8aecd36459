import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { BUS_CLIENT } from '@xaalis/config';
import type { AppName } from '@xaalis/contracts';
import { createBusClient, type BusClient, type BusOptions } from './bus-client';

/**
 * Connects the client when the app boots, so a Kafka group join (seconds) is paid once at start
 * and a broker that cannot be reached fails the boot, not the first request.
 */
@Injectable()
class BusClientLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(BUS_CLIENT) private readonly client: BusClient) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.client.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Provides `BUS_CLIENT` to the whole app (global): Kafka when `kafkaBrokers` is set, the
 * in-process transport otherwise. The app's handlers are served by `busServerStrategy`.
 */
@Module({})
export class BusModule {
  static forApp(app: AppName, options: BusOptions): DynamicModule {
    return {
      module: BusModule,
      global: true,
      providers: [
        { provide: BUS_CLIENT, useFactory: () => createBusClient(app, options) },
        BusClientLifecycle,
      ],
      exports: [BUS_CLIENT],
    };
  }
}
