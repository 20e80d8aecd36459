import type { PoolClient } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { modeOf, newId, type Mode } from '@xaalis/kernel';
import { ALL_EVENT_TYPES } from './endpoint-matching';
import { payloadBody, toWebhookPayload } from './event-payload';

/**
 * Taking in events: what `WebhookEventsConsumer` writes inside its `processOnce` (one event) or
 * `processEachOnce` (several) transaction, so the processed-message mark and these rows commit
 * together. Plain functions of the transaction: they hold no state, and the caller owns the
 * transaction.
 */

/** Delivery ids offered to each event of a statement: more endpoints than most merchants have. */
const DELIVERY_IDS_PER_STATEMENT = 16;

/**
 * The event as delivered and one pending delivery per active endpoint of its merchant and mode
 * that wants its type (`endpointWants`, here in SQL: the type or `*`). Returns how many endpoints
 * wanted it. `recordEvents` for one event.
 */
export async function recordEvent(
  tx: PoolClient,
  event: IntegrationEvent,
  now: Date,
): Promise<number> {
  const [matched] = await recordEvents(tx, [event], now);
  return matched!;
}

/**
 * `recordEvent` for several events in one statement: the consumer records what arrived while
 * its last transaction was on its way, and on this machine a statement costs mostly its round
 * trip. Each event gets up to DELIVERY_IDS_PER_STATEMENT endpoints per statement; the events of
 * a merchant with more take more rounds, each after the last endpoint id of the one before, so
 * an endpoint changed between rounds cannot make another be skipped.
 *
 * The event row keeps how many endpoints wanted it (`endpoints_matched`, a delivery each): an
 * event recorded with no endpoint shows as such rather than as a silent absence of deliveries.
 * Returns that number per event, in the events' order.
 */
export async function recordEvents(
  tx: PoolClient,
  events: IntegrationEvent[],
  now: Date,
): Promise<number[]> {
  const matched = events.map(() => 0);
  let rounds = events.map((event, index) => ({ index, event, after: '', first: true }));
  while (rounds.length > 0) {
    const ids = Array.from({ length: rounds.length * DELIVERY_IDS_PER_STATEMENT }, () =>
      newId('webhookDelivery', now.getTime()),
    );
    const { rows } = await tx.query<{ matched: number; last: string | null }>(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                              $6::timestamptz[], $7::text[], $8::boolean[])
           WITH ORDINALITY AS i(id, merchant_id, mode, type, body, created_at, after, first, n)
       ), endpoint AS (
         SELECT input.n, page.id, row_number() OVER (PARTITION BY input.n ORDER BY page.id) AS k
           FROM input CROSS JOIN LATERAL (
             SELECT id FROM webhook_endpoints
              WHERE merchant_id = input.merchant_id AND mode = input.mode AND active
                AND event_types && ARRAY[input.type, $9]::text[] AND id > input.after
              ORDER BY id LIMIT $10
           ) page
       ), event AS (
         INSERT INTO webhook_events (id, merchant_id, mode, type, body, created_at, endpoints_matched)
         SELECT input.id, input.merchant_id, input.mode, input.type, input.body, input.created_at,
                (SELECT count(*) FROM endpoint WHERE endpoint.n = input.n)
           FROM input WHERE input.first
         ON CONFLICT (id) DO NOTHING
       ), delivery AS (
         INSERT INTO webhook_deliveries
           (id, merchant_id, mode, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
         SELECT ($11::text[])[(input.n - 1) * $10 + endpoint.k], input.merchant_id, input.mode,
                endpoint.id, input.id, 'pending', $12, $12, $12
           FROM endpoint JOIN input ON input.n = endpoint.n
         ON CONFLICT (endpoint_id, event_id) DO NOTHING
       )
       SELECT count(endpoint.id)::int AS matched, max(endpoint.id) AS last
         FROM input LEFT JOIN endpoint ON endpoint.n = input.n
        GROUP BY input.n ORDER BY input.n`,
      [
        rounds.map(({ event }) => event.id),
        rounds.map(({ event }) => event.merchant_id),
        rounds.map(({ event }) => modeOf(event.livemode)),
        rounds.map(({ event }) => event.type),
        rounds.map(({ event, first }) => (first ? payloadBody(toWebhookPayload(event)) : '')),
        rounds.map(({ event }) => event.created_at),
        rounds.map(({ after }) => after),
        rounds.map(({ first }) => first),
        ALL_EVENT_TYPES,
        DELIVERY_IDS_PER_STATEMENT,
        ids,
        now,
      ],
    );
    rounds = rounds.flatMap((round, n) => {
      matched[round.index] += rows[n]!.matched;
      if (rows[n]!.matched < DELIVERY_IDS_PER_STATEMENT) return [];
      return [{ ...round, after: rows[n]!.last!, first: false }];
    });
  }
  const many = events.flatMap((event, index) =>
    matched[index]! >= DELIVERY_IDS_PER_STATEMENT
      ? [{ id: event.id, matched: matched[index]! }]
      : [],
  );
  if (many.length > 0) {
    await tx.query(
      `UPDATE webhook_events e SET endpoints_matched = m.matched
         FROM unnest($1::text[], $2::int[]) AS m(id, matched) WHERE e.id = m.id`,
      [many.map(({ id }) => id), many.map(({ matched }) => matched)],
    );
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
