import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { BUS_CLIENT, CLOCK, CONFIG, PG_POOL, type XaalisConfig } from '@xaalis/config';
import {
  PAYOUTS_LEDGER_RELEASE,
  PAYOUTS_LEDGER_SETTLE,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { DomainError, type Clock } from '@xaalis/kernel';
import { DECLINED_TEST_PHONE, isOpen, type Payment } from '@xaalis/payments-domain';
import { PaymentCommands } from './payment.commands.service';
import { parseJobKind } from './payment-jobs.kinds';
import { PaymentQueries } from './payment.queries';
import { PaymentsService } from './payments.service';
import { LIVE_PROVIDERS } from './payments.tokens';
import type { LiveProviders } from './provider-starter';
import { refundRef, RefundsService } from './refunds.service';

interface LeasedJob {
  payment_id: string;
  kind: string;
  attempts: number;
}

/** What became of a job: done (deleted), or to run again at a time. */
type JobResult = { done: true } | { done: false; at: Date; error?: string };

const done: JobResult = { done: true };
const LEASE_MS = 60_000;
const BATCH = 20;

/**
 * The payments app's durable scheduler. Jobs are rows written by the projection in the same
 * transaction as the event that calls for them; this worker leases due rows (FOR UPDATE SKIP
 * LOCKED, then pushes `due_at` past the lease) so concurrent workers never run one job at once,
 * and a worker that dies mid-job only delays it by the lease. Every job is safe to run again: it
 * ends in a decider command (a no-op when already applied) or a ledger posting keyed by its ref.
 * Time is the application clock, so tests move it.
 */
@Injectable()
export class PaymentJobsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PaymentJobs');
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  pollMs = 200;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(LIVE_PROVIDERS) private readonly live: LiveProviders,
    private readonly queries: PaymentQueries,
    private readonly commands: PaymentCommands,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Runs every job due now once; for tests that drive the clock. */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const jobs = await this.lease();
      if (jobs.length === 0) return total;
      await Promise.all(jobs.map((job) => this.execute(job)));
      total += jobs.length;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let ran = 0;
      try {
        ran = await this.runDue();
      } catch (error) {
        this.logger.error(`jobs: ${(error as Error).message}`);
      }
      if (ran === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  private async lease(): Promise<LeasedJob[]> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<LeasedJob>(
      `UPDATE payment_jobs j
          SET due_at = $2, attempts = j.attempts + 1
         FROM (SELECT payment_id, kind FROM payment_jobs
                WHERE due_at <= $1
                ORDER BY due_at
                LIMIT ${BATCH}
                FOR UPDATE SKIP LOCKED) due
        WHERE j.payment_id = due.payment_id AND j.kind = due.kind
        RETURNING j.payment_id, j.kind, j.attempts`,
      [now, new Date(now.getTime() + LEASE_MS)],
    );
    return rows;
  }

  private async execute(job: LeasedJob): Promise<void> {
    let result: JobResult;
    try {
      result = await this.perform(job);
    } catch (error) {
      const message = error instanceof DomainError ? error.code : (error as Error).message;
      this.logger.warn(`${job.kind} of ${job.payment_id} failed (attempt ${job.attempts}): ${message}`);
      result = { done: false, at: this.backoff(job.attempts), error: message };
    }
    if (result.done) {
      // Only the lease this worker holds: a job the projection rescheduled meanwhile stays.
      await this.pool.query(
        'DELETE FROM payment_jobs WHERE payment_id = $1 AND kind = $2 AND attempts = $3',
        [job.payment_id, job.kind, job.attempts],
      );
    } else {
      await this.pool.query(
        `UPDATE payment_jobs SET due_at = $4, last_error = $5
          WHERE payment_id = $1 AND kind = $2 AND attempts = $3`,
        [job.payment_id, job.kind, job.attempts, result.at, result.error ?? null],
      );
    }
  }

  private backoff(attempts: number): Date {
    const delay = Math.min(1000 * 2 ** Math.min(attempts, 20), 300_000);
    return new Date(this.clock.now().getTime() + delay);
  }

  private async perform(job: LeasedJob): Promise<JobResult> {
    const kind = parseJobKind(job.kind);
    const payment = await this.queries.find(job.payment_id);
    if (!kind || !payment) return done;
    switch (kind.kind) {
      case 'expire':
        return this.expire(payment);
      case 'reconcile':
        return this.reconcile(payment, job.attempts);
      case 'refund':
        return this.refund(payment, kind.refundId, job.attempts);
    }
  }

  /** At `expires_at`: a live payment the customer may have paid is asked about first. */
  private async expire(payment: Payment): Promise<JobResult> {
    if (!isOpen(payment)) return done;
    const now = this.clock.now();
    if (now.getTime() < Date.parse(payment.expiresAt)) {
      return { done: false, at: new Date(payment.expiresAt) };
    }
    if (payment.mode === 'live' && payment.status === 'processing' && payment.provider !== 'mock') {
      const settled = await this.askProvider(payment);
      if (settled) return done;
    }
    await this.commands.run(payment.paymentId, {
      type: 'ExpirePayment',
      data: { trigger: 'scheduler', now },
    });
    return done;
  }

  /**
   * A live payment still waiting on its provider: ask until it ends (a lost webhook, an unknown
   * outcome at the start), recording a session found meanwhile. Backoff up to 5 minutes; the
   * expiry job takes over at `expires_at`.
   */
  private async reconcile(payment: Payment, attempts: number): Promise<JobResult> {
    if (payment.status !== 'processing' || payment.mode !== 'live') return done;
    const ended = await this.askProvider(payment);
    return ended ? done : { done: false, at: this.backoff(attempts) };
  }

  /** True when the provider's answer ended the payment. */
  private async askProvider(payment: Payment): Promise<boolean> {
    if (payment.provider !== 'wave' && payment.provider !== 'orange_money') return false;
    const status = await this.live[payment.provider].lookup({
      paymentId: payment.paymentId,
      providerReference: payment.providerReference,
    });
    const now = this.clock.now();
    switch (status.status) {
      case 'succeeded':
        await this.payments.applyProviderOutcome(
          payment,
          {
            outcome: 'succeeded',
            providerReference: status.providerReference,
            transactionId: status.transactionId,
            reason: null,
          },
          now,
        );
        return true;
      case 'failed':
        await this.payments.applyProviderOutcome(
          payment,
          {
            outcome: 'failed',
            providerReference: status.providerReference,
            transactionId: null,
            reason: status.reason,
          },
          now,
        );
        return true;
      case 'pending':
        if (status.providerReference !== null && payment.providerReference === null) {
          await this.payments.applyProviderOutcome(
            payment,
            {
              outcome: 'pending',
              providerReference: status.providerReference,
              transactionId: null,
              reason: null,
              redirectUrl: status.redirectUrl,
            },
            now,
          );
        }
        return false;
      case 'not_found':
      case 'unknown':
        return false;
    }
  }

  /**
   * A refund's life after the request: make sure its amount is held, wait out the sandbox's
   * settlement delay (test mode) or ask the provider (live), then settle or release the hold in
   * the ledger and record the outcome on the payment. Ledger postings are keyed by the refund,
   * so a rerun after a crash posts nothing twice.
   */
  private async refund(payment: Payment, refundId: string, attempts: number): Promise<JobResult> {
    const refund = payment.refunds.find((candidate) => candidate.refundId === refundId);
    if (!refund || refund.status !== 'pending') return done;
    const now = this.clock.now();
    const scope = { merchant_id: payment.merchantId, mode: payment.mode, ref: refundRef(refundId) };
    try {
      await this.refunds.hold(payment, refund);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'insufficient_funds') throw error;
      await this.settle(payment, refundId, 'failed', 'insufficient_funds', now);
      return done;
    }

    let outcome: 'succeeded' | 'failed';
    let reason: string | null = null;
    if (payment.mode === 'test') {
      const settleAt = Date.parse(refund.createdAt) + this.config.sandboxSettleMs;
      if (now.getTime() < settleAt) return { done: false, at: new Date(settleAt) };
      const refused = payment.customer.phone === DECLINED_TEST_PHONE;
      outcome = refused ? 'failed' : 'succeeded';
      reason = refused ? 'recipient_refused' : null;
    } else {
      const provider = payment.provider;
      if (provider !== 'wave' && provider !== 'orange_money') {
        throw new Error(`live payment ${payment.paymentId} has no live provider`);
      }
      const result = await this.live[provider].refund({
        refundId,
        paymentId: payment.paymentId,
        providerReference: payment.providerReference,
        providerTransactionId: payment.providerTransactionId,
        amount: refund.amount,
        paymentAmount: payment.amount,
        customerPhone: payment.customer.phone,
      });
      if (result.outcome === 'unknown') return { done: false, at: this.backoff(attempts), error: result.reason };
      outcome = result.outcome === 'refused' ? 'failed' : 'succeeded';
      reason = result.outcome === 'refused' ? result.reason : null;
    }
    await request(
      this.bus,
      outcome === 'succeeded' ? PAYOUTS_LEDGER_SETTLE : PAYOUTS_LEDGER_RELEASE,
      scope,
    );
    await this.settle(payment, refundId, outcome, reason, now);
    return done;
  }

  private async settle(
    payment: Payment,
    refundId: string,
    outcome: 'succeeded' | 'failed',
    reason: string | null,
    now: Date,
  ): Promise<void> {
    await this.commands.run(payment.paymentId, {
      type: 'SettleRefund',
      data: { refundId, outcome, reason, now },
    });
  }
}
