import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import { WorkLoop, type PassResult } from '@xaalis/jobs';
import type { Clock } from '@xaalis/kernel';
import { DeliveryQueue } from './delivery-queue';
import { WebhookAttempt } from './webhook-attempt';
import type { LeasedDelivery } from './webhook-rows';

/** Attempts in flight at once in one app. */
export const MAX_IN_FLIGHT = 64;
/** Of which at most this many to one endpoint: a slow receiver holds few slots. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 4;
/**
 * While attempts are in flight, one lease at most this often: under load every finished attempt
 * frees a slot, and a lease per slot would cost a query (and a scan of the due rows) per
 * delivery. An idle worker leases at once.
 */
export const LEASE_INTERVAL_MS = 10;

/**
 * Sends due deliveries from the durable queue. A bounded pool: it leases only as many rows as
 * it has free slots and starts each attempt on its own, so one attempt waiting out its 10 s
 * timeout never holds back another; endpoints already at their share are left out of the next
 * lease. A slot is the HTTP exchange: it comes free when the answer is in, while the outcome
 * is still being written (the row stays leased until then, so nothing takes it twice). Nothing
 * lives only in memory: a crash leaves leased rows to come due again after the lease.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookWorker');
  /** Every attempt until its outcome is written: what a shutdown waits for. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Attempts whose HTTP exchange is under way: the slots. */
  private readonly sending = new Set<string>();
  private readonly perEndpoint = new Map<string, number>();
  private readonly loop = new WorkLoop({
    pass: () => this.pass(),
    pollMs: 200,
    onError: (error) => this.logger.error(`lease: ${error.message}`),
  });

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly attempt: WebhookAttempt,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled(this.inFlight.values());
  }

  /** New deliveries or a slot came free: look again now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  private async pass(): Promise<PassResult> {
    const leased = await this.fill();
    return {
      idle: leased === 0,
      minIntervalMs: this.sending.size > 0 ? LEASE_INTERVAL_MS : undefined,
    };
  }

  /** Leases as many due rows as there are free slots and starts them. */
  private async fill(): Promise<number> {
    const free = MAX_IN_FLIGHT - this.sending.size;
    if (free <= 0) return 0;
    const busy = [...this.perEndpoint]
      .filter(([, count]) => count >= MAX_IN_FLIGHT_PER_ENDPOINT)
      .map(([endpoint]) => endpoint);
    const rows = await this.queue.lease({
      now: this.clock.now(),
      leaseMs: this.config.webhookLeaseMs,
      limit: free,
      perEndpoint: MAX_IN_FLIGHT_PER_ENDPOINT,
      busyEndpoints: busy,
    });
    for (const row of rows) this.start(row);
    return rows.length;
  }

  private start(row: LeasedDelivery): void {
    this.sending.add(row.id);
    this.perEndpoint.set(row.endpoint_id, (this.perEndpoint.get(row.endpoint_id) ?? 0) + 1);
    const release = () => {
      if (!this.sending.delete(row.id)) return;
      const left = (this.perEndpoint.get(row.endpoint_id) ?? 1) - 1;
      if (left <= 0) this.perEndpoint.delete(row.endpoint_id);
      else this.perEndpoint.set(row.endpoint_id, left);
      this.wake();
    };
    const attempt = this.attempt
      .run(row, release)
      .catch((error: unknown) => {
        // The row stays leased and comes due again when the lease ends.
        this.logger.error(`${row.id}: ${(error as Error).message}`);
      })
      .finally(() => {
        release();
        this.inFlight.delete(row.id);
      });
    this.inFlight.set(row.id, attempt);
  }
}
