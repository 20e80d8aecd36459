import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type { Clock } from '@xaalis/kernel';
import { LEASE_MS, WebhookAttempt } from './webhook-attempt';
import { WebhookStore, type LeasedDelivery } from './webhook-store';

/** Attempts in flight at once in one app. */
export const MAX_IN_FLIGHT = 64;
/** Of which at most this many to one endpoint: a slow receiver holds few slots. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 4;

/**
 * Sends due deliveries from the durable queue. A bounded pool: it leases only as many rows as
 * it has free slots and starts each attempt on its own, so one attempt waiting out its 10 s
 * timeout never holds back another; endpoints already at their share are left out of the next
 * lease. Nothing lives only in memory: a crash leaves leased rows to come due again after the
 * lease.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookWorker');
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  pollMs = 200;

  constructor(
    private readonly store: WebhookStore,
    private readonly attempt: WebhookAttempt,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled(this.inFlight.values());
  }

  /** New deliveries or a slot came free: look again now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let leased = 0;
      try {
        leased = await this.fill();
      } catch (error) {
        this.logger.error(`lease: ${(error as Error).message}`);
      }
      if (leased === 0 && this.running && !this.woken) await this.sleep();
    }
  }

  /** Leases as many due rows as there are free slots and starts them. */
  private async fill(): Promise<number> {
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0) return 0;
    const busy = [...this.perEndpoint]
      .filter(([, count]) => count >= MAX_IN_FLIGHT_PER_ENDPOINT)
      .map(([endpoint]) => endpoint);
    const rows = await this.store.lease({
      now: this.clock.now(),
      leaseMs: LEASE_MS,
      limit: free,
      perEndpoint: MAX_IN_FLIGHT_PER_ENDPOINT,
      busyEndpoints: busy,
    });
    for (const row of rows) this.start(row);
    return rows.length;
  }

  private start(row: LeasedDelivery): void {
    this.perEndpoint.set(row.endpoint_id, (this.perEndpoint.get(row.endpoint_id) ?? 0) + 1);
    const attempt = this.attempt
      .run(row)
      .catch((error: unknown) => {
        // The row stays leased and comes due again when the lease ends.
        this.logger.error(`${row.id}: ${(error as Error).message}`);
      })
      .finally(() => {
        this.inFlight.delete(row.id);
        const left = (this.perEndpoint.get(row.endpoint_id) ?? 1) - 1;
        if (left <= 0) this.perEndpoint.delete(row.endpoint_id);
        else this.perEndpoint.set(row.endpoint_id, left);
        this.wake();
      });
    this.inFlight.set(row.id, attempt);
  }

  private sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }
}
