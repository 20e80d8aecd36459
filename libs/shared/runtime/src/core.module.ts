import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CLOCK, CONFIG, EVENT_STORE, PG_POOL, PRISMA } from '@xaalis/config';
import type { Infrastructure } from './infrastructure';

/** Provides the composition root's infrastructure under the shared tokens to every module. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(infra: Infrastructure): DynamicModule {
    const providers = [
      { provide: CONFIG, useValue: infra.config },
      { provide: PG_POOL, useValue: infra.pool },
      { provide: EVENT_STORE, useValue: infra.store },
      { provide: PRISMA, useValue: infra.prisma },
      { provide: CLOCK, useValue: infra.clock },
    ];
    return {
      module: CoreModule,
      global: true,
      providers,
      exports: providers.map((p) => p.provide),
    };
  }
}
