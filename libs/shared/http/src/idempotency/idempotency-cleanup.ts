import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HTTP_EDGE_OPTIONS, type HttpEdgeOptions } from '../http-edge.options';
import { IdempotencyStore } from './idempotency.store';

/** Deletes idempotency keys past their retention, on a timer that never holds the process open. */
@Injectable()
export class IdempotencyCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: IdempotencyStore,
    @Inject(HTTP_EDGE_OPTIONS) private readonly options: HttpEdgeOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.idempotencyCleanupIntervalMs <= 0) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.idempotencyCleanupIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async runOnce(): Promise<number> {
    try {
      return await this.store.deleteOlderThan(this.options.idempotencyRetentionMs);
    } catch (error) {
      this.logger.error(
        'Idempotency key cleanup failed',
        error instanceof Error ? error.stack : String(error),
      );
      return 0;
    }
  }
}
