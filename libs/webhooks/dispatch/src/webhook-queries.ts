import type { Pool } from 'pg';
import type { Mode } from '@xaalis/kernel';
import type { DeliveryRow, EventRow, Page } from './webhook-rows';

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.status, d.attempts,
  d.last_status_code, d.last_error, d.next_attempt_at, d.created_at`;

/** A merchant's deliveries and events, one or a page, as the gateway asks for them. */
export class WebhookQueries {
  constructor(private readonly pool: Pool) {}

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
}
