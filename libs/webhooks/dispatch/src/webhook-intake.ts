import type { PoolClient } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { modeOf, newId, type Mode } from '@xaalis/kernel';
import { ALL_EVENT_TYPES } from './endpoint-matching';
import { payloadBody, toWebhookPayload } from './event-payload';

/**
 * Taking in events: what `WebhookEventsConsumer` writes inside its `processOnce` transaction, so
 * the processed-message mark and these rows commit together. Plain functions of the transaction:
 * they hold no state, and the caller owns the transaction.
 */

/** Delivery ids offered to one `recordEvent` statement: more endpoints than most merchants have. */
const DELIVERY_IDS_PER_STATEMENT = 16;

/**
 * The event as delivered and one pending delivery per active endpoint of its merchant and mode
 * that wants its type (`endpointWants`, here in SQL: the type or `*`). One statement for up to
 * DELIVERY_IDS_PER_STATEMENT endpoints: the forwarder publishes events one at a time, so every
 * round trip here delays every later event. A merchant with more endpoints takes more rounds, each
 * after the last endpoint id of the one before, so an endpoint changed between rounds cannot make
 * another be skipped.
 *
 * The event row keeps how many endpoints wanted it (`endpoints_matched`, a delivery each): an
 * event recorded with no endpoint shows as such rather than as a silent absence of deliveries.
 * Returns that number.
 */
export async function recordEvent(
  tx: PoolClient,
  event: IntegrationEvent,
  now: Date,
): Promise<number> {
  const mode = modeOf(event.livemode);
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
 * deactivates it. Asked by `PATCH /v1/account` (`WebhookEndpoints.setDefault`) and again by
 * `account.updated`, with the same `at`: a change older than the endpoint's last one is ignored,
 * so neither a late redelivery nor the slower of two racing PATCHes puts back an old URL. `db` is
 * the consumer's transaction or the pool.
 */
export async function upsertDefaultEndpoint(
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
