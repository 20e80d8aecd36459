import type { Pool, PoolClient } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { newId, type Mode } from '@xaalis/kernel';
import { ALL_EVENT_TYPES, endpointWants } from './endpoint-matching';
import { payloadBody, toWebhookPayload } from './event-payload';
import type { DeliveryRow, EndpointRow, EventRow } from './webhook-rows';

const modeOf = (event: IntegrationEvent): Mode => (event.livemode ? 'live' : 'test');

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

/** The webhooks app's tables, in SQL: every write here is one statement or the caller's transaction. */
export class WebhookStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Inside the consumer's `processOnce` transaction: the event as delivered and one pending
   * delivery per active endpoint of its merchant and mode that wants its type.
   */
  async recordEvent(tx: PoolClient, event: IntegrationEvent, now: Date): Promise<number> {
    const mode = modeOf(event);
    await tx.query(
      `INSERT INTO webhook_events (id, merchant_id, mode, type, body, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
      [
        event.id,
        event.merchant_id,
        mode,
        event.type,
        payloadBody(toWebhookPayload(event)),
        event.created_at,
      ],
    );
    const { rows } = await tx.query<{ id: string; event_types: string[] }>(
      `SELECT id, event_types FROM webhook_endpoints
        WHERE merchant_id = $1 AND mode = $2 AND active ORDER BY id`,
      [event.merchant_id, mode],
    );
    const endpoints = rows.filter((endpoint) => endpointWants(endpoint.event_types, event.type));
    for (const endpoint of endpoints) {
      await tx.query(
        `INSERT INTO webhook_deliveries
           (id, merchant_id, mode, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6, $6)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
        [
          newId('webhookDelivery', now.getTime()),
          event.merchant_id,
          mode,
          endpoint.id,
          event.id,
          now,
        ],
      );
    }
    return endpoints.length;
  }

  /**
   * `account.updated`: the mode's default endpoint takes the account's URL (all event types);
   * a cleared URL deactivates it. Events older than the endpoint's last change are ignored, so
   * a late redelivery never puts back an old URL.
   */
  async upsertDefaultEndpoint(
    tx: PoolClient,
    input: { merchantId: string; mode: Mode; url: string | null; at: Date },
  ): Promise<void> {
    const { merchantId, mode, url, at } = input;
    if (url === null) {
      await tx.query(
        `UPDATE webhook_endpoints SET active = false, updated_at = $3
          WHERE merchant_id = $1 AND mode = $2 AND is_default AND updated_at <= $3`,
        [merchantId, mode, at],
      );
      return;
    }
    await tx.query(
      `INSERT INTO webhook_endpoints
         (id, merchant_id, mode, url, event_types, active, is_default, managed_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, ARRAY[$5]::text[], true, true, 'account', $6, $6)
       ON CONFLICT (merchant_id, mode) WHERE is_default DO UPDATE
         SET url = EXCLUDED.url, active = true, updated_at = EXCLUDED.updated_at
         WHERE webhook_endpoints.updated_at <= EXCLUDED.updated_at`,
      [newId('webhookEndpoint', at.getTime()), merchantId, mode, url, ALL_EVENT_TYPES, at],
    );
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
   * whose lease ran out (and whose row another worker took) changes nothing.
   */
  async recordAttempt(input: {
    id: string;
    lease: number;
    status: 'pending' | 'succeeded' | 'failed';
    nextAttemptAt: Date | null;
    statusCode: number | null;
    error: string | null;
    now: Date;
  }): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE webhook_deliveries
          SET attempts = attempts + 1, status = $3, next_attempt_at = $4,
              last_status_code = $5, last_error = $6, updated_at = $7
        WHERE id = $1 AND lease = $2`,
      [
        input.id,
        input.lease,
        input.status,
        input.nextAttemptAt,
        input.statusCode,
        input.error,
        input.now,
      ],
    );
    return result.rowCount === 1;
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

  async createEndpoint(input: {
    merchantId: string;
    mode: Mode;
    url: string;
    eventTypes: string[];
    now: Date;
  }): Promise<EndpointRow> {
    const { rows } = await this.pool.query<EndpointRow>(
      `INSERT INTO webhook_endpoints
         (id, merchant_id, mode, url, event_types, active, is_default, managed_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, true, false, NULL, $6, $6)
       RETURNING ${ENDPOINT_COLUMNS}`,
      [
        newId('webhookEndpoint', input.now.getTime()),
        input.merchantId,
        input.mode,
        input.url,
        input.eventTypes,
        input.now,
      ],
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
