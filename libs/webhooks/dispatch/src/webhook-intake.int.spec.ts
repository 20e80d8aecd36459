import type { Pool } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { modeOf, newId } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import {
  deliveriesOfEvent,
  newEndpoint,
  newPaymentEvent,
  NOW,
  recordInTransaction,
} from './testing/webhook-fixtures';
import { WebhookEndpoints } from './webhook-endpoints';
import { recordEvents } from './webhook-intake';
import { WebhookQueries } from './webhook-queries';

describeWithPostgres('recordEvent', () => {
  let database: TestDatabase;
  let pool: Pool;
  let endpoints: WebhookEndpoints;
  let queries: WebhookQueries;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
    endpoints = new WebhookEndpoints(pool);
    queries = new WebhookQueries(pool);
  });

  afterAll(async () => {
    await database?.drop();
  });

  const merchant = () => newId('merchant');
  const endpoint = (merchantId: string, eventTypes: string[], mode: 'test' | 'live' = 'test') =>
    newEndpoint(endpoints, merchantId, eventTypes, mode);
  const record = (event: IntegrationEvent) => recordInTransaction(pool, event);
  const deliveriesOf = (eventId: string) => deliveriesOfEvent(pool, eventId);

  const endpointsMatched = async (eventId: string) =>
    (
      await pool.query<{ endpoints_matched: number }>(
        'SELECT endpoints_matched FROM webhook_events WHERE id = $1',
        [eventId],
      )
    ).rows[0]?.endpoints_matched;

  it('stores the event and one pending delivery per active endpoint of its merchant and mode that wants it', async () => {
    const merchantId = merchant();
    const wanted = [
      await endpoint(merchantId, ['payment.succeeded']),
      await endpoint(merchantId, ['*']),
      await endpoint(merchantId, ['payment.failed', 'payment.succeeded']),
    ];
    await endpoint(merchantId, ['payment.failed']);
    const inactive = await endpoint(merchantId, ['*']);
    await endpoints.update({
      merchantId,
      mode: 'test',
      id: inactive.id,
      active: false,
      now: NOW,
    });
    await endpoint(merchantId, ['*'], 'live');
    await endpoint(merchant(), ['*']);

    const event = newPaymentEvent(merchantId);
    expect(await record(event)).toBe(3);

    const deliveries = await deliveriesOf(event.id);
    expect(deliveries.map((d) => d.endpoint_id)).toEqual(wanted.map((e) => e.id).sort());
    expect(deliveries.every((d) => d.status === 'pending' && d.id.startsWith('whd_'))).toBe(true);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(3);
    expect(await endpointsMatched(event.id)).toBe(3);
    const stored = await queries.event(merchantId, 'test', event.id);
    expect(JSON.parse(stored!.body)).toEqual({
      id: event.id,
      type: 'payment.succeeded',
      livemode: false,
      created_at: event.created_at,
      data: event.data,
    });
  });

  it('fans out to more endpoints than one statement takes', async () => {
    const merchantId = merchant();
    const made = [];
    for (let i = 0; i < 37; i += 1) made.push(await endpoint(merchantId, ['*']));
    const event = newPaymentEvent(merchantId);

    expect(await record(event)).toBe(37);

    const deliveries = await deliveriesOf(event.id);
    expect(deliveries.map((d) => d.endpoint_id)).toEqual(made.map((e) => e.id).sort());
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(37);
    expect(await endpointsMatched(event.id)).toBe(37);
  });

  it('counts exactly one statement of endpoints, then none more', async () => {
    const merchantId = merchant();
    for (let i = 0; i < 16; i += 1) await endpoint(merchantId, ['*']);
    const event = newPaymentEvent(merchantId);

    expect(await record(event)).toBe(16);
    expect(await deliveriesOf(event.id)).toHaveLength(16);
    expect(await endpointsMatched(event.id)).toBe(16);
  });

  it('creates nothing twice when the same event is recorded again', async () => {
    const merchantId = merchant();
    await endpoint(merchantId, ['*']);
    await endpoint(merchantId, ['*']);
    const event = newPaymentEvent(merchantId);
    await record(event);
    const first = await deliveriesOf(event.id);

    expect(await record(event)).toBe(2);
    expect(await deliveriesOf(event.id)).toEqual(first);
  });

  it('records several events in one statement, each with its own endpoints', async () => {
    const [none, two, many] = [merchant(), merchant(), merchant()];
    const wanted = [await endpoint(two, ['*']), await endpoint(two, ['payment.succeeded'])];
    await endpoint(two, ['*'], 'live');
    const fanned = [];
    for (let i = 0; i < 20; i += 1) fanned.push(await endpoint(many, ['*']));
    const events = [
      newPaymentEvent(none),
      newPaymentEvent(two),
      newPaymentEvent(many),
      newPaymentEvent(two, true),
    ];

    const tx = await pool.connect();
    let matched: number[];
    try {
      await tx.query('BEGIN');
      matched = await recordEvents(tx, events, NOW);
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }

    expect(matched).toEqual([0, 2, 20, 1]);
    expect(await deliveriesOf(events[0]!.id)).toEqual([]);
    expect((await deliveriesOf(events[1]!.id)).map((d) => d.endpoint_id)).toEqual(
      wanted.map((e) => e.id).sort(),
    );
    expect((await deliveriesOf(events[2]!.id)).map((d) => d.endpoint_id)).toEqual(
      fanned.map((e) => e.id).sort(),
    );
    expect(await deliveriesOf(events[3]!.id)).toHaveLength(1);
    for (const [index, event] of events.entries()) {
      expect(await endpointsMatched(event.id)).toBe(matched[index]);
      expect(
        JSON.parse((await queries.event(event.merchant_id, modeOf(event.livemode), event.id))!.body)
          .id,
      ).toBe(event.id);
    }
  });

  it('stores an event no endpoint wants, with no delivery, marked as matching none', async () => {
    const merchantId = merchant();
    await endpoint(merchantId, ['payment.failed']);
    const event = newPaymentEvent(merchantId);
    expect(await record(event)).toBe(0);
    expect(await deliveriesOf(event.id)).toEqual([]);
    expect(await queries.event(merchantId, 'test', event.id)).toBeDefined();
    expect(await endpointsMatched(event.id)).toBe(0);
  });
});
