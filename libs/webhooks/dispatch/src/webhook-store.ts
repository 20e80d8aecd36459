import type { Pool, PoolClient } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { newId, type Mode } from '@xaalis/kernel';
import { ALL_EVENT_TYPES } from './endpoint-matching';
import { payloadBody, toWebhookPayload } from './event-payload';
import type { DeliveryRow, EndpointRow, EventRow } from './webhook-rows';

const modeOf = (event: IntegrationEvent): Mode => (event.livemode ? 'live' : 'test');

/** Delivery ids offered to one `recordEvent` statement: more endpoints than most merchants have. */
const DELIVERY_IDS_PER_STATEMENT = 16;

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.status, d.attempts,
  d.last_status_code, d.last_error, d.next_attempt_at, d.created_at`;

const ENDPOINT_COLUMNS = `id, merchant_id, mode, url, event_types, active, is_default, managed_by,
  created_at`;

/** A delivery leased for one attempt: what the sender needs, and the lease it holds. */
export interface LeasedDelivery {
  id: string;
  merchant_id: string;
  endpoint_id: string;
  url: string;
  event_id: string;
  body: string;
  attempts: number;
  lease: number;
}

export interface Page {
  limit: number;
  startingAfter?: string;
}

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

/** The webhooks app's tables, in SQL: every write here is one statement or the caller's transaction. */
export class WebhookStore {
  private readonly outcomes: Array<{
    input: AttemptOutcome;
    resolve: (written: boolean) => void;
    reject: (error: unknown) => void;
  }> = [];
  private writing = false;

  constructor(private readonly pool: Pool) {}

  /**
   * Inside the consumer's `processOnce` transaction: the event as delivered and one pending
   * delivery per active endpoint of its merchant and mode that wants its type (`endpointWants`,
   * here in SQL: the type or `*`). One statement for up to DELIVERY_IDS_PER_STATEMENT endpoints:
   * the forwarder publishes events one at a time, so every round trip here delays every later
   * event. A merchant with more endpoints takes more rounds, each after the last endpoint id of
   * the one before, so an endpoint changed between rounds cannot make another be skipped.
   *
   * The event row keeps how many endpoints wanted it (`endpoints_matched`, a delivery each): an
   * event recorded with no endpoint shows as such rather than as a silent absence of deliveries.
   * Returns that number.
   */
  async recordEvent(tx: PoolClient, event: IntegrationEvent, now: Date): Promise<number> {
    const mode = modeOf(event);
    const body = payloadBody(toWebhookPayload(event));
    let matched = 0;
    let after = '';
    for (let round = 0; ; round += 1) {
      const ids = Array.from({ length: DELIVERY_IDS_PER_STATEMENT }, () =>
        newId('webhookDelivery', now.getTime()),
      );
      const { rows } = await tx.query<{ matched: number; last: string | null }>(
        `WITH endpoint AS (
           SELECT id, row_number() OVER (ORDER BY id) AS n FROM (
             SELECT id FROM webhook_endpoints
              WHERE merchant_id = $2 AND mode = $3 AND active
                AND event_types && ARRAY[$4, $8]::text[] AND id > $10
              ORDER BY id LIMIT cardinality($9::text[])
           ) page
         ), event AS (
           INSERT INTO webhook_events (id, merchant_id, mode, type, body, created_at, endpoints_matched)
           SELECT $1, $2, $3, $4, $5, $6, (SELECT count(*) FROM endpoint) WHERE $11
           ON CONFLICT (id) DO NOTHING
         ), delivery AS (
           INSERT INTO webhook_deliveries
             (id, merchant_id, mode, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
           SELECT ($9::text[])[n], $2, $3, endpoint.id, $1, 'pending', $7, $7, $7 FROM endpoint
           ON CONFLICT (endpoint_id, event_id) DO NOTHING
         )
         SELECT count(*)::int AS matched, max(id) AS last FROM endpoint`,
        [
          event.id,
          event.merchant_id,
          mode,
          event.type,
          body,
          event.created_at,
          now,
          ALL_EVENT_TYPES,
          ids,
          after,
          round === 0,
        ],
      );
      matched += rows[0].matched;
      if (rows[0].matched < DELIVERY_IDS_PER_STATEMENT) break;
      after = rows[0].last!;
    }
    if (matched >= DELIVERY_IDS_PER_STATEMENT) {
      await tx.query('UPDATE webhook_events SET endpoints_matched = $2 WHERE id = $1', [
        event.id,
        matched,
      ]);
    }
    return matched;
  }

  /**
   * The mode's default endpoint takes the account's URL (all event types); a cleared URL
   * deactivates it. Asked by `PATCH /v1/account` and again by `account.updated`, with the same
   * `at`: a change older than the endpoint's last one is ignored, so neither a late redelivery nor
   * the slower of two racing PATCHes puts back an old URL. `db` is the consumer's transaction or
   * the pool.
   */
  async upsertDefaultEndpoint(
    db: Pick<PoolClient, 'query'>,
    input: { merchantId: string; mode: Mode; url: string | null; at: Date },
  ): Promise<void> {
    const { merchantId, mode, url, at } = input;
    if (url === null) {
      await db.query(
        `UPDATE webhook_endpoints SET active = false, updated_at = $3
          WHERE merchant_id = $1 AND mode = $2 AND is_default AND updated_at <= $3`,
        [merchantId, mode, at],
      );
      return;
    }
    await db.query(
      `INSERT INTO webhook_endpoints
         (id, merchant_id, mode, url, event_types, active, is_default, managed_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, ARRAY[$5]::text[], true, true, 'account', $6, $6)
       ON CONFLICT (merchant_id, mode) WHERE is_default DO UPDATE
         SET url = EXCLUDED.url, active = true, updated_at = EXCLUDED.updated_at
         WHERE webhook_endpoints.updated_at <= EXCLUDED.updated_at`,
      [newId('webhookEndpoint', at.getTime()), merchantId, mode, url, ALL_EVENT_TYPES, at],
    );
  }

  /** `upsertDefaultEndpoint` on its own, then the default endpoint as it now stands. */
  async setDefaultEndpoint(input: {
    merchantId: string;
    mode: Mode;
    url: string;
    at: Date;
  }): Promise<EndpointRow> {
    await this.upsertDefaultEndpoint(this.pool, input);
    const { rows } = await this.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
        WHERE merchant_id = $1 AND mode = $2 AND is_default`,
      [input.merchantId, input.mode],
    );
    return rows[0];
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
   * whose lease ran out (and whose row another worker took) changes nothing. Resolves to whether
   * it was written. Outcomes that finish while a write is on its way go together in the next
   * one, so a busy worker commits once per batch rather than once per delivery, and an idle one
   * waits for no timer.
   */
  recordAttempt(input: AttemptOutcome): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.outcomes.push({ input, resolve, reject });
      if (!this.writing) void this.writeOutcomes();
    });
  }

  private async writeOutcomes(): Promise<void> {
    this.writing = true;
    try {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0, OUTCOMES_PER_WRITE);
        try {
          const written = await this.writeAttempts(batch.map((item) => item.input));
          for (const item of batch)
            item.resolve(written.has(`${item.input.id}:${item.input.lease}`));
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeAttempts(outcomes: AttemptOutcome[]): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ id: string; lease: number }>(
      `UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, status = o.status, next_attempt_at = o.next_attempt_at,
              last_status_code = o.status_code, last_error = o.error, updated_at = o.now
         FROM unnest($1::text[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[],
                     $7::timestamptz[])
              AS o(id, lease, status, next_attempt_at, status_code, error, now)
        WHERE d.id = o.id AND d.lease = o.lease
       RETURNING d.id, d.lease`,
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
    return new Set(rows.map((row) => `${row.id}:${row.lease}`));
  }

  async delivery(merchantId: string, mode: Mode, id: string): Promise<DeliveryRow | undefined> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.id = $1 AND d.merchant_id = $2 AND d.mode = $3`,
      [id, merchantId, mode],
    );
    return rows[0];
  }

  /** Newest first; `limit + 1` rows (CONTRACT 4). Undefined when the cursor is not theirs. */
  async deliveries(merchantId: string, mode: Mode, page: Page): Promise<DeliveryRow[] | undefined> {
    if (page.startingAfter !== undefined) {
      const cursor = await this.delivery(merchantId, mode, page.startingAfter);
      if (!cursor) return undefined;
    }
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.merchant_id = $1 AND d.mode = $2 AND ($3::text IS NULL OR d.id < $3)
        ORDER BY d.id DESC LIMIT $4`,
      [merchantId, mode, page.startingAfter ?? null, page.limit + 1],
    );
    return rows;
  }

  async event(merchantId: string, mode: Mode, id: string): Promise<EventRow | undefined> {
    const { rows } = await this.pool.query<EventRow>(
      'SELECT id, body FROM webhook_events WHERE id = $1 AND merchant_id = $2 AND mode = $3',
      [id, merchantId, mode],
    );
    return rows[0];
  }

  /** Newest first by (created_at, id): event ids come from the recorded event, not the clock. */
  async events(
    merchantId: string,
    mode: Mode,
    page: Page & { type?: string },
  ): Promise<EventRow[] | undefined> {
    let cursor: { created_at: Date; id: string } | undefined;
    if (page.startingAfter !== undefined) {
      const { rows } = await this.pool.query<{ created_at: Date; id: string }>(
        'SELECT created_at, id FROM webhook_events WHERE id = $1 AND merchant_id = $2 AND mode = $3',
        [page.startingAfter, merchantId, mode],
      );
      cursor = rows[0];
      if (!cursor) return undefined;
    }
    const { rows } = await this.pool.query<EventRow>(
      `SELECT id, body FROM webhook_events
        WHERE merchant_id = $1 AND mode = $2 AND ($3::text IS NULL OR type = $3)
          AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5))
        ORDER BY created_at DESC, id DESC LIMIT $6`,
      [
        merchantId,
        mode,
        page.type ?? null,
        cursor?.created_at ?? null,
        cursor?.id ?? null,
        page.limit + 1,
      ],
    );
    return rows;
  }

  /**
   * The id is the caller's, fixed by the request's idempotency key: a retry whose first run made
   * the endpoint (and died before answering) gets that endpoint, as it now stands.
   */
  async createEndpoint(input: {
    id: string;
    merchantId: string;
    mode: Mode;
    url: string;
    eventTypes: string[];
    now: Date;
  }): Promise<EndpointRow | undefined> {
    const { rows } = await this.pool.query<EndpointRow>(
      `WITH created AS (
         INSERT INTO webhook_endpoints
           (id, merchant_id, mode, url, event_types, active, is_default, managed_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, true, false, NULL, $6, $6)
         ON CONFLICT (id) DO NOTHING
         RETURNING ${ENDPOINT_COLUMNS}
       )
       SELECT * FROM created
       UNION ALL
       SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
        WHERE id = $1 AND merchant_id = $2 AND mode = $3 AND NOT EXISTS (SELECT 1 FROM created)`,
      [input.id, input.merchantId, input.mode, input.url, input.eventTypes, input.now],
    );
    return rows[0];
  }

  async updateEndpoint(input: {
    merchantId: string;
    mode: Mode;
    id: string;
    eventTypes?: string[];
    active?: boolean;
    now: Date;
  }): Promise<EndpointRow | undefined> {
    const { rows } = await this.pool.query<EndpointRow>(
      `UPDATE webhook_endpoints
          SET event_types = COALESCE($4, event_types), active = COALESCE($5, active), updated_at = $6
        WHERE id = $1 AND merchant_id = $2 AND mode = $3
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        input.id,
        input.merchantId,
        input.mode,
        input.eventTypes ?? null,
        input.active ?? null,
        input.now,
      ],
    );
    return rows[0];
  }

  async endpoints(merchantId: string, mode: Mode, page: Page): Promise<EndpointRow[] | undefined> {
    if (page.startingAfter !== undefined) {
      const { rowCount } = await this.pool.query(
        'SELECT 1 FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 AND mode = $3',
        [page.startingAfter, merchantId, mode],
      );
      if (rowCount === 0) return undefined;
    }
    const { rows } = await this.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
        WHERE merchant_id = $1 AND mode = $2 AND ($3::text IS NULL OR id < $3)
        ORDER BY id DESC LIMIT $4`,
      [merchantId, mode, page.startingAfter ?? null, page.limit + 1],
    );
    return rows;
  }
}
