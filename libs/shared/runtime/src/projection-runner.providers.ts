import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import { EVENT_STORE, PRISMA } from '@xaalis/config';
import { ProjectionRunner, type PrismaClient, type Projection } from '@xaalis/database';
import type { EventStore } from '@xaalis/event-store';

/**
 * A context's ProjectionRunner under `token`, and what keeps it following the streams in the
 * background from bootstrap to shutdown (commands may also catch it up themselves).
 */
export function projectionRunnerProviders(
  token: string,
  context: string,
  projections: () => Projection[],
): Provider[] {
  @Injectable()
  class ProjectionLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
    constructor(@Inject(token) private readonly runner: ProjectionRunner) {}

    async onApplicationBootstrap(): Promise<void> {
      await this.runner.start();
    }

    async onModuleDestroy(): Promise<void> {
      await this.runner.stop();
    }
  }

  return [
    {
      provide: token,
      inject: [EVENT_STORE, PRISMA],
      useFactory: (store: EventStore, prisma: PrismaClient) => {
        const logger = new Logger(`${context}Projections`);
        return new ProjectionRunner({
          store,
          prisma,
          projections: projections(),
          onError: (name, error) =>
            logger.error(`${name}: ${(error as Error).message ?? String(error)}`),
        });
      },
    },
    ProjectionLifecycle,
  ];
}
