import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { newPaymentObject } from '@xaalis/contracts/testing';
import { HttpMetrics } from '@xaalis/http';
import { FixedClock, newId } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import type { DeliveryWorker } from './delivery-worker';
import { WebhookEventMetrics, type RecordedOutcome } from './webhook-event-metrics';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhookEventsConsumer } from './webhook-events.consumer';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const MERCHANTS = 60;

/**
 * The webhooks app's side of issue 16 item 6 on real Postgres: the default endpoint set by
 * request (what `PATCH /v1/account` waits for) is there for every event consumed after it,
 * whenever `account.updated` comes; an event no endpoint wanted is recorded as such.
 */
describeWithPostgres('WebhookEventsConsumer and the default endpoint set by request', () => {
  let database: TestDatabase;
  let pool: Pool;
  let endpoints: WebhookEndpoints;
  let metrics: HttpMetrics;
  let consumer: WebhookEventsConsumer;
  /** Stands in for the sending worker, which is not under test: only its wake-ups are. */
  const worker = { wakes: 0, wake: () => (worker.wakes += 1) };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
    endpoints = new WebhookEndpoints(pool);
    metrics = new HttpMetrics({ collectDefaultMetrics: false });
    consumer = new WebhookEventsConsumer(
      pool,
      new FixedClock(NOW),
      worker as unknown as DeliveryWorker,
      new WebhookEventMetrics(metrics),
    );
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await database?.drop();
  });

  let revision = 0;
  const envelope = (merchantId: string, at: Date) => ({
    id: newId('event'),
    merchant_id: merchantId,
    livemode: false,
    created_at: at.toISOString(),
    source: { stream: `stream-${merchantId}`, revision: (revision += 1) },
  });
  const accountUpdated = (merchantId: string, url: string, at: Date): IntegrationEvent => ({
    ...envelope(merchantId, at),
    type: 'account.updated',
    data: { object: { object: 'account', id: merchantId, livemode: false, webhook_url: url } },
  });
  const paymentSucceeded = (merchantId: string): IntegrationEvent => ({
    ...envelope(merchantId, NOW),
    type: 'payment.succeeded',
    data: { object: newPaymentObject({ id: newId('payment'), amount: 2_500 }) },
  });

  /** Per event of the merchants: endpoints it matched and deliveries it got. */
  const recorded = async (merchantIds: string[]) =>
    (
      await pool.query<{ merchant_id: string; matched: number; deliveries: number; url: string }>(
        `SELECT e.merchant_id, e.endpoints_matched AS matched, count(d.id)::int AS deliveries,
                min(w.url) AS url
           FROM webhook_events e
           LEFT JOIN webhook_deliveries d ON d.event_id = e.id
           LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE e.merchant_id = ANY($1)
          GROUP BY e.id ORDER BY e.merchant_id`,
        [merchantIds],
      )
    ).rows;

  const counted = async (outcome: RecordedOutcome) => {
    const text = await metrics.text();
    const line = `webhook_events_recorded_total{type="payment.succeeded",outcome="${outcome}"} `;
    const found = text.split('\n').find((row) => row.startsWith(line));
    return found === undefined ? 0 : Number(found.slice(line.length));
  };

  it(`delivers each of ${MERCHANTS} merchants' events consumed after the request, whenever account.updated comes`, async () => {
    const merchantIds = Array.from({ length: MERCHANTS }, () => newId('merchant'));
    const urlOf = (merchantId: string) => `https://hooks.example/${merchantId}`;
    const [deliveringBefore, wakesBefore] = [await counted('delivering'), worker.wakes];

    await Promise.all(
      merchantIds.map(async (merchantId, i) => {
        const at = new Date(NOW.getTime() + i);
        const change = accountUpdated(merchantId, urlOf(merchantId), at);
        // account.updated travels apart from the payments: before, beside or after them.
        const late = i % 3 === 0 ? consumer.receive(change) : undefined;
        await endpoints.setDefault({ merchantId, mode: 'test', url: urlOf(merchantId), at });
        const beside = i % 3 === 1 ? consumer.receive(change) : undefined;
        await consumer.receive(paymentSucceeded(merchantId));
        await Promise.all([late, beside]);
        if (i % 3 === 2) await consumer.receive(change);
      }),
    );

    expect(await recorded(merchantIds)).toEqual(
      [...merchantIds].sort().map((merchantId) => ({
        merchant_id: merchantId,
        matched: 1,
        deliveries: 1,
        url: urlOf(merchantId),
      })),
    );
    expect(await counted('delivering')).toBe(deliveringBefore + MERCHANTS);
    expect(worker.wakes).toBe(wakesBefore + MERCHANTS);
  });

  it('records an event consumed before any endpoint as matching none: counted, logged, no delivery', async () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const merchantId = newId('merchant');
    const [noneBefore, deliveringBefore, wakesBefore] = [
      await counted('no_endpoint'),
      await counted('delivering'),
      worker.wakes,
    ];

    const early = paymentSucceeded(merchantId);
    await consumer.receive(early);
    // Redelivered by the bus: recorded, counted and logged once.
    await consumer.receive(early);

    expect(await recorded([merchantId])).toEqual([
      { merchant_id: merchantId, matched: 0, deliveries: 0, url: null },
    ]);
    expect(await counted('no_endpoint')).toBe(noneBefore + 1);
    expect(worker.wakes).toBe(wakesBefore);
    expect(debug.mock.calls.map(([message]) => message)).toEqual([
      `${early.id} (payment.succeeded) of ${merchantId} test recorded with no endpoint wanting it`,
    ]);

    await consumer.receive(accountUpdated(merchantId, 'https://hooks.example/late', NOW));
    await consumer.receive(paymentSucceeded(merchantId));
    const rows = await recorded([merchantId]);
    expect(rows.map((row) => [row.matched, row.deliveries]).sort()).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(await counted('delivering')).toBe(deliveringBefore + 1);
    expect(debug).toHaveBeenCalledTimes(1);
  });

  it('leaves no event with other than one delivery per endpoint it matched', async () => {
    const { rows } = await pool.query<{ id: string }>(
      `SELECT e.id FROM webhook_events e
        WHERE e.endpoints_matched <> (SELECT count(*) FROM webhook_deliveries d WHERE d.event_id = e.id)`,
    );
    expect(rows).toEqual([]);
    const { rows: all } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_events',
    );
    expect(all[0]!.n).toBe(MERCHANTS + 2);
  });

  it('records events received at once together, in fewer transactions, each once', async () => {
    const merchantIds = Array.from({ length: 8 }, () => newId('merchant'));
    for (const merchantId of merchantIds) {
      const url = `https://hooks.example/${merchantId}`;
      await endpoints.setDefault({ merchantId, mode: 'test', url, at: NOW });
    }
    const events = merchantIds.flatMap((merchantId) => [
      paymentSucceeded(merchantId),
      paymentSucceeded(merchantId),
    ]);
    const [deliveringBefore, wakesBefore] = [await counted('delivering'), worker.wakes];
    const connect = jest.spyOn(pool, 'connect');

    // Every event twice, as a bus delivering again while the first is being recorded.
    await Promise.all([...events, ...events].map((event) => consumer.receive(event)));

    const transactions = connect.mock.calls.length;
    connect.mockRestore();
    expect(transactions).toBeLessThan(events.length);
    const rows = await recorded(merchantIds);
    expect(rows).toHaveLength(events.length);
    expect(rows.every((row) => row.matched === 1 && row.deliveries === 1)).toBe(true);
    expect(await counted('delivering')).toBe(deliveringBefore + events.length);
    expect(worker.wakes).toBe(wakesBefore + events.length);
  });
});
