import {
  Logger,
  type FactoryProvider,
  type InjectionToken,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { CLOCK, CONFIG, PG_POOL, type XaalisConfig } from '@xaalis/config';
import type { Clock } from '@xaalis/kernel';
import type { JobHandler } from './job';
import { JobScheduler } from './job-scheduler';

/** A scheduler that runs from the application's bootstrap to its shutdown. */
export class AppJobScheduler
  extends JobScheduler
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  onApplicationBootstrap(): void {
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}

/**
 * A module's scheduler, running its `handlers` (providers of the same module) on the composition
 * root's pool and clock with `JOB_LEASE_MS`. Each context runs its own kinds; several schedulers
 * on one table never take one job together.
 */
export function jobSchedulerProvider(input: {
  provide: InjectionToken;
  /** Names the logger: `<name>Jobs`. */
  name: string;
  handlers: Array<Type<JobHandler>>;
  /** Runs at once (`JobSchedulerOptions.concurrency`); the scheduler's default when omitted. */
  concurrency?: number;
}): FactoryProvider<JobScheduler> {
  return {
    provide: input.provide,
    inject: [PG_POOL, CLOCK, CONFIG, ...input.handlers],
    useFactory: (pool: Pool, clock: Clock, config: XaalisConfig, ...handlers: JobHandler[]) =>
      new AppJobScheduler({
        pool,
        clock,
        leaseMs: config.jobLeaseMs,
        handlers,
        concurrency: input.concurrency,
        logger: new Logger(`${input.name}Jobs`),
      }),
  };
}
