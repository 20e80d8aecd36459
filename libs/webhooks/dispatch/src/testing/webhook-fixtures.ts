import type { Pool } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { bareEventObject } from '@xaalis/contracts/testing';
import { newId, type Mode } from '@xaalis/kernel';
import type { WebhookEndpoints } from '../webhook-endpoints';
import { recordEvent } from '../webhook-intake';
import type { EndpointRow } from '../webhook-rows';

/** The time the fixtures are made at. */
export const NOW = new Date('2026-11-22T10:00:00.000Z');

/** A `payment.succeeded` of the merchant, in test mode unless `livemode`. */
export const newPaymentEvent = (merchantId: string, livemode = false): IntegrationEvent => ({
  id: newId('event'),
  type: 'payment.succeeded',
  merchant_id: merchantId,
  livemode,
  created_at: NOW.toISOString(),
  source: { stream: 'payment-1', revision: 1 },
  data: { object: bareEventObject({ id: 'pay_1', object: 'payment', amount: 2_500 }) },
});

/** A new active endpoint of the merchant wanting `eventTypes`, its URL naming them. */
export async function newEndpoint(
  endpoints: WebhookEndpoints,
  merchantId: string,
  eventTypes: string[],
  mode: Mode = 'test',
): Promise<EndpointRow> {
  const row = await endpoints.create({
    id: newId('webhookEndpoint'),
    merchantId,
    mode,
    url: `https://hooks.example/${eventTypes.join('+')}`,
    eventTypes,
    now: NOW,
  });
  if (!row) throw new Error('the endpoint was not created');
  return row;
}

/**
 * Records the event in a transaction of its own, as the consumer's `processOnce` does; answers
 * how many endpoints wanted it.
 */
export async function recordInTransaction(pool: Pool, event: IntegrationEvent): Promise<number> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    const wanted = await recordEvent(tx, event, NOW);
    await tx.query('COMMIT');
    return wanted;
  } finally {
    tx.release();
  }
}

/** The event's deliveries, by endpoint id. */
export async function deliveriesOfEvent(pool: Pool, eventId: string) {
  const { rows } = await pool.query<{ id: string; endpoint_id: string; status: string }>(
    'SELECT id, endpoint_id, status FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id',
    [eventId],
  );
  return rows;
}
