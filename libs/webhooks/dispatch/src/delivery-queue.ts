import type { Pool } from 'pg';
import { StatementBatcher } from '@xaalis/batching';
import { type Mode } from '@xaalis/kernel';
import type { LeasedDelivery } from './webhook-rows';

export interface AttemptOutcome {
  id: string;
  lease: number;
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
  statusCode: number | null;
  error: string | null;
  now: Date;
}

/** Outcomes written by one statement at most. */
const OUTCOMES_PER_WRITE = 256;

/**
 * The durable delivery queue (`webhook_deliveries`): due rows leased for an attempt, and each
 * attempt's outcome. `lease` is the fencing token: every lease bumps it and hands it to the
 * attempt, and only an outcome carrying the row's current token is written.
 *
 * Outcomes go through one lane (`StatementBatcher`): those that finish while one write is on its
 * way go together in the next, so a busy worker commits once per batch rather than once per
 * delivery, and an idle one waits for no timer. A batch that fails is written again outcome by
 * outcome, which must be harmless if the batch committed (a connection lost before the reply):
 * so writing an outcome also bumps the token, and the same outcome cannot be written twice. That
 * bump is handed to no one; the next lease (the worker's, or a manual retry's) bumps it again.
 */
export class DeliveryQueue {
  private readonly outcomes: StatementBatcher<AttemptOutcome, boolean>;

  constructor(private readonly pool: Pick<Pool, 'query'>) {
    this.outcomes = new StatementBatcher({
      alone: async (outcome) => (await this.writeOutcomes([outcome]))[0]!,
      together: (outcomes) => this.writeOutcomes(outcomes),
      maxBatch: OUTCOMES_PER_WRITE,
    });
  }

  /**
   * Leases up to `limit` due deliveries (FOR UPDATE SKIP LOCKED: concurrent workers take
   * different rows) and pushes them `leaseMs` ahead, so a worker that dies mid-send only delays
   * them. At most `perEndpoint` per endpoint, and none of `busyEndpoints`, so one endpoint's
   * backlog cannot take every slot of the pool.
   */
  async lease(input: {
    now: Date;
    leaseMs: number;
    limit: number;
    perEndpoint: number;
    busyEndpoints: readonly string[];
  }): Promise<LeasedDelivery[]> {
    const { rows } = await this.pool.query<LeasedDelivery>(
      `WITH due AS (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS n
             FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= $1
              AND NOT (endpoint_id = ANY($5::text[]))
         ) ranked
         WHERE n <= $4
       ), picked AS (
         SELECT d.id FROM webhook_deliveries d JOIN due USING (id)
          WHERE d.status = 'pending' AND d.next_attempt_at <= $1
          ORDER BY d.next_attempt_at, d.id
          LIMIT $3
          FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d
          SET next_attempt_at = $2, lease = d.lease + 1
         FROM picked, webhook_endpoints w, webhook_events e
        WHERE d.id = picked.id AND w.id = d.endpoint_id AND e.id = d.event_id
       RETURNING d.id, d.merchant_id, d.endpoint_id, w.url, d.event_id, e.body, d.attempts, d.lease`,
      [
        input.now,
        new Date(input.now.getTime() + input.leaseMs),
        input.limit,
        input.perEndpoint,
        input.busyEndpoints,
      ],
    );
    return rows;
  }

  /** Leases one delivery of a merchant now, whatever its status (a manual retry). */
  async leaseOne(input: {
    merchantId: string;
    mode: Mode;
    deliveryId: string;
    now: Date;
    leaseMs: number;
  }): Promise<LeasedDelivery | undefined> {
    const { rows } = await this.pool.query<LeasedDelivery>(
      `UPDATE webhook_deliveries d
          SET status = 'pending', next_attempt_at = $5, lease = d.lease + 1, updated_at = $4
         FROM webhook_endpoints w, webhook_events e
        WHERE d.id = $1 AND d.merchant_id = $2 AND d.mode = $3
          AND w.id = d.endpoint_id AND e.id = d.event_id
       RETURNING d.id, d.merchant_id, d.endpoint_id, w.url, d.event_id, e.body, d.attempts, d.lease`,
      [
        input.deliveryId,
        input.merchantId,
        input.mode,
        input.now,
        new Date(input.now.getTime() + input.leaseMs),
      ],
    );
    return rows[0];
  }

  /**
   * An attempt's outcome, written only while the attempt still holds the latest lease: a worker
   * whose lease ran out (and whose row another worker took) changes nothing, and neither does the
   * same outcome written again. Resolves to whether this call wrote it: false when the lease was
   * taken over, or when the outcome was already written (by its batch, before a reply that was
   * lost).
   */
  recordAttempt(outcome: AttemptOutcome): Promise<boolean> {
    return this.outcomes.submit(outcome);
  }

  /**
   * One statement for any number of outcomes. Two outcomes of one row in it (a stale lease beside
   * the current one, or one outcome twice) update it once, with the one holding its lease; of the
   * same outcome twice, the first is the one written.
   */
  private async writeOutcomes(outcomes: AttemptOutcome[]): Promise<boolean[]> {
    const { rows } = await this.pool.query<{ id: string; lease: number }>(
      `UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, status = o.status, next_attempt_at = o.next_attempt_at,
              last_status_code = o.status_code, last_error = o.error, updated_at = o.now,
              lease = d.lease + 1
         FROM unnest($1::text[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[],
                     $7::timestamptz[])
              AS o(id, lease, status, next_attempt_at, status_code, error, now)
        WHERE d.id = o.id AND d.lease = o.lease
       RETURNING o.id, o.lease`,
      [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.lease),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.nextAttemptAt),
        outcomes.map((o) => o.statusCode),
        outcomes.map((o) => o.error),
        outcomes.map((o) => o.now),
      ],
    );
    const written = new Set(rows.map((row) => `${row.id}:${row.lease}`));
    return outcomes.map((o) => written.delete(`${o.id}:${o.lease}`));
  }
}
