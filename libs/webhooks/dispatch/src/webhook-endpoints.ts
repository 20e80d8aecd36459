import type { Pool } from 'pg';
import type { Mode } from '@xaalis/kernel';
import { upsertDefaultEndpoint } from './webhook-intake';
import type { EndpointRow, Page } from './webhook-rows';

const ENDPOINT_COLUMNS = `id, merchant_id, mode, url, event_types, active, is_default, managed_by,
  created_at`;

/** A merchant's webhook endpoints (`webhook_endpoints`), as the gateway asks for them. */
export class WebhookEndpoints {
  constructor(private readonly pool: Pool) {}

  /**
   * The id is the caller's, fixed by the request's idempotency key: a retry whose first run made
   * the endpoint (and died before answering) gets that endpoint, as it now stands.
   */
  async create(input: {
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

  async update(input: {
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

  /** `upsertDefaultEndpoint` on its own, then the default endpoint as it now stands. */
  async setDefault(input: {
    merchantId: string;
    mode: Mode;
    url: string;
    at: Date;
  }): Promise<EndpointRow> {
    await upsertDefaultEndpoint(this.pool, input);
    const { rows } = await this.pool.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
        WHERE merchant_id = $1 AND mode = $2 AND is_default`,
      [input.merchantId, input.mode],
    );
    return rows[0];
  }

  /** Newest first; `limit + 1` rows (CONTRACT 4). Undefined when the cursor is not theirs. */
  async list(merchantId: string, mode: Mode, page: Page): Promise<EndpointRow[] | undefined> {
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
