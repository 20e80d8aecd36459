import type { Pool } from 'pg';
import type { IntegrationEvent } from '@xaalis/contracts';
import { newId } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { WebhookStore } from './webhook-store';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const LATER = new Date('2026-11-22T10:00:05.000Z');

describeWithPostgres('WebhookStore', () => {
  let database: TestDatabase;
  let pool: Pool;
  let store: WebhookStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
    store = new WebhookStore(pool);
  });

  afterAll(async () => {
    await database?.drop();
  });

  const merchant = () => newId('merchant');

  const endpoint = async (
    merchantId: string,
    eventTypes: string[],
    mode: 'test' | 'live' = 'test',
  ) => {
    const row = await store.createEndpoint({
      id: newId('webhookEndpoint'),
      merchantId,
      mode,
      url: `https://hooks.example/${eventTypes.join('+')}`,
      eventTypes,
      now: NOW,
    });
    if (!row) throw new Error('the endpoint was not created');
    return row;
  };

  const paymentEvent = (merchantId: string, livemode = false): IntegrationEvent => ({
    id: newId('event'),
    type: 'payment.succeeded',
    merchant_id: merchantId,
    livemode,
    created_at: NOW.toISOString(),
    source: { stream: 'payment-1', revision: 1 },
    data: { object: { id: 'pay_1', object: 'payment', amount: 2_500 } },
  });

  /** Records the event in a transaction of its own, as the consumer's `processOnce` does. */
  const record = async (event: IntegrationEvent): Promise<number> => {
    const tx = await pool.connect();
    try {
      await tx.query('BEGIN');
      const wanted = await store.recordEvent(tx, event, NOW);
      await tx.query('COMMIT');
      return wanted;
    } finally {
      tx.release();
    }
  };

  const deliveriesOf = async (eventId: string) =>
    (
      await pool.query<{ id: string; endpoint_id: string; status: string }>(
        'SELECT id, endpoint_id, status FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id',
        [eventId],
      )
    ).rows;

  const endpointsMatched = async (eventId: string) =>
    (
      await pool.query<{ endpoints_matched: number }>(
        'SELECT endpoints_matched FROM webhook_events WHERE id = $1',
        [eventId],
      )
    ).rows[0]?.endpoints_matched;

  describe('recordEvent', () => {
    it('stores the event and one pending delivery per active endpoint of its merchant and mode that wants it', async () => {
      const merchantId = merchant();
      const wanted = [
        await endpoint(merchantId, ['payment.succeeded']),
        await endpoint(merchantId, ['*']),
        await endpoint(merchantId, ['payment.failed', 'payment.succeeded']),
      ];
      await endpoint(merchantId, ['payment.failed']);
      const inactive = await endpoint(merchantId, ['*']);
      await store.updateEndpoint({
        merchantId,
        mode: 'test',
        id: inactive.id,
        active: false,
        now: NOW,
      });
      await endpoint(merchantId, ['*'], 'live');
      await endpoint(merchant(), ['*']);

      const event = paymentEvent(merchantId);
      expect(await record(event)).toBe(3);

      const deliveries = await deliveriesOf(event.id);
      expect(deliveries.map((d) => d.endpoint_id)).toEqual(wanted.map((e) => e.id).sort());
      expect(deliveries.every((d) => d.status === 'pending' && d.id.startsWith('whd_'))).toBe(true);
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(3);
      expect(await endpointsMatched(event.id)).toBe(3);
      const stored = await store.event(merchantId, 'test', event.id);
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
      const endpoints = [];
      for (let i = 0; i < 37; i += 1) endpoints.push(await endpoint(merchantId, ['*']));
      const event = paymentEvent(merchantId);

      expect(await record(event)).toBe(37);

      const deliveries = await deliveriesOf(event.id);
      expect(deliveries.map((d) => d.endpoint_id)).toEqual(endpoints.map((e) => e.id).sort());
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(37);
      expect(await endpointsMatched(event.id)).toBe(37);
    });

    it('counts exactly one statement of endpoints, then none more', async () => {
      const merchantId = merchant();
      for (let i = 0; i < 16; i += 1) await endpoint(merchantId, ['*']);
      const event = paymentEvent(merchantId);

      expect(await record(event)).toBe(16);
      expect(await deliveriesOf(event.id)).toHaveLength(16);
      expect(await endpointsMatched(event.id)).toBe(16);
    });

    it('creates nothing twice when the same event is recorded again', async () => {
      const merchantId = merchant();
      await endpoint(merchantId, ['*']);
      await endpoint(merchantId, ['*']);
      const event = paymentEvent(merchantId);
      await record(event);
      const first = await deliveriesOf(event.id);

      expect(await record(event)).toBe(2);
      expect(await deliveriesOf(event.id)).toEqual(first);
    });

    it('stores an event no endpoint wants, with no delivery, marked as matching none', async () => {
      const merchantId = merchant();
      await endpoint(merchantId, ['payment.failed']);
      const event = paymentEvent(merchantId);
      expect(await record(event)).toBe(0);
      expect(await deliveriesOf(event.id)).toEqual([]);
      expect(await store.event(merchantId, 'test', event.id)).toBeDefined();
      expect(await endpointsMatched(event.id)).toBe(0);
    });
  });

  describe('createEndpoint', () => {
    it('makes an endpoint once per id: a retry of its creation gets the one the first run made', async () => {
      const merchantId = merchant();
      const id = newId('webhookEndpoint');
      const input = {
        id,
        merchantId,
        mode: 'test' as const,
        url: 'https://hooks.example/a',
        eventTypes: ['*'],
        now: NOW,
      };
      const made = await store.createEndpoint(input);
      const again = await store.createEndpoint({ ...input, now: new Date(NOW.getTime() + 1000) });
      expect(again).toEqual(made);
      expect(made).toMatchObject({ id, merchant_id: merchantId, url: 'https://hooks.example/a' });
      const { rows } = await pool.query(
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE id = $1',
        [id],
      );
      expect(rows[0].n).toBe(1);
    });

    it('gives nothing for an id another merchant or mode holds', async () => {
      const id = newId('webhookEndpoint');
      const input = {
        id,
        mode: 'test' as const,
        url: 'https://hooks.example/b',
        eventTypes: ['*'],
        now: NOW,
      };
      await store.createEndpoint({ ...input, merchantId: merchant() });
      expect(await store.createEndpoint({ ...input, merchantId: merchant() })).toBeUndefined();
    });
  });

  describe('setDefaultEndpoint', () => {
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1_000);
    const defaults = async (merchantId: string) =>
      (
        await pool.query(
          `SELECT id, url, active, event_types, managed_by, created_at, updated_at
             FROM webhook_endpoints WHERE merchant_id = $1 AND is_default`,
          [merchantId],
        )
      ).rows;

    it('makes the account URL the mode default for every event type, and answers it', async () => {
      const merchantId = merchant();
      const set = await store.setDefaultEndpoint({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/a',
        at: at(1),
      });

      expect(set).toEqual({
        id: expect.stringMatching(/^we_/),
        merchant_id: merchantId,
        mode: 'test',
        url: 'https://hooks.example/a',
        event_types: ['*'],
        active: true,
        is_default: true,
        managed_by: 'account',
        created_at: at(1),
      });
      const event = paymentEvent(merchantId);
      expect(await record(event)).toBe(1);
      expect((await deliveriesOf(event.id)).map((d) => d.endpoint_id)).toEqual([set.id]);
      expect(await record(paymentEvent(merchantId, true))).toBe(0);
    });

    it('takes a newer change, ignores an older one and repeats the same one harmlessly', async () => {
      const merchantId = merchant();
      const first = await store.setDefaultEndpoint({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/a',
        at: at(1),
      });
      const newer = await store.setDefaultEndpoint({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/b',
        at: at(3),
      });
      expect(newer).toMatchObject({ id: first.id, url: 'https://hooks.example/b' });

      // The slower of two racing PATCHes, and a late account.updated of the first.
      const older = await store.setDefaultEndpoint({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/c',
        at: at(2),
      });
      expect(older).toEqual(newer);
      const tx = await pool.connect();
      try {
        await store.upsertDefaultEndpoint(tx, {
          merchantId,
          mode: 'test',
          url: 'https://hooks.example/a',
          at: at(1),
        });
        // account.updated of the change the request already set.
        await store.upsertDefaultEndpoint(tx, {
          merchantId,
          mode: 'test',
          url: 'https://hooks.example/b',
          at: at(3),
        });
      } finally {
        tx.release();
      }

      expect(await defaults(merchantId)).toEqual([
        {
          id: first.id,
          url: 'https://hooks.example/b',
          active: true,
          event_types: ['*'],
          managed_by: 'account',
          created_at: at(1),
          updated_at: at(3),
        },
      ]);
    });

    it('turns a default endpoint deactivated in the dashboard back on with a newer change', async () => {
      const merchantId = merchant();
      const set = await store.setDefaultEndpoint({
        merchantId,
        mode: 'live',
        url: 'https://hooks.example/a',
        at: at(1),
      });
      await store.updateEndpoint({
        merchantId,
        mode: 'live',
        id: set.id,
        active: false,
        now: at(2),
      });
      expect(await record(paymentEvent(merchantId, true))).toBe(0);

      const again = await store.setDefaultEndpoint({
        merchantId,
        mode: 'live',
        url: 'https://hooks.example/a',
        at: at(3),
      });
      expect(again).toMatchObject({ id: set.id, active: true });
      expect(await record(paymentEvent(merchantId, true))).toBe(1);
    });
  });

  describe('recordAttempt', () => {
    /** Ten due deliveries of a fresh merchant, leased once. */
    const leasedDeliveries = async () => {
      const merchantId = merchant();
      for (let i = 0; i < 10; i += 1) await endpoint(merchantId, ['*']);
      await record(paymentEvent(merchantId));
      const leased = await store.lease({
        now: LATER,
        leaseMs: 60_000,
        limit: 100,
        perEndpoint: 4,
        busyEndpoints: [],
      });
      return leased.filter((d) => d.merchant_id === merchantId);
    };

    const rowOf = async (id: string) =>
      (
        await pool.query(
          `SELECT status, attempts, next_attempt_at, last_status_code, last_error
             FROM webhook_deliveries WHERE id = $1`,
          [id],
        )
      ).rows[0];

    it('writes outcomes that finish together, each to its own row', async () => {
      const leased = await leasedDeliveries();
      expect(leased).toHaveLength(10);
      const retryAt = new Date(LATER.getTime() + 10_000);

      const written = await Promise.all(
        leased.map((delivery, i) =>
          store.recordAttempt({
            id: delivery.id,
            lease: delivery.lease,
            status: i % 2 === 0 ? 'succeeded' : 'pending',
            nextAttemptAt: i % 2 === 0 ? null : retryAt,
            statusCode: i % 2 === 0 ? 200 : 500,
            error: i % 2 === 0 ? null : `HTTP 500: down ${i}`,
            now: LATER,
          }),
        ),
      );

      expect(written).toEqual(leased.map(() => true));
      for (const [i, delivery] of leased.entries()) {
        expect(await rowOf(delivery.id)).toEqual(
          i % 2 === 0
            ? {
                status: 'succeeded',
                attempts: 1,
                next_attempt_at: null,
                last_status_code: 200,
                last_error: null,
              }
            : {
                status: 'pending',
                attempts: 1,
                next_attempt_at: retryAt,
                last_status_code: 500,
                last_error: `HTTP 500: down ${i}`,
              },
        );
      }
    });

    it('changes nothing for an attempt whose lease was taken over, in the same batch as others', async () => {
      const [stale, fresh] = await leasedDeliveries();
      // A manual retry leases the row again: the first lease's outcome no longer counts.
      const retried = await store.leaseOne({
        merchantId: stale.merchant_id,
        mode: 'test',
        deliveryId: stale.id,
        now: LATER,
        leaseMs: 60_000,
      });
      expect(retried?.lease).toBe(stale.lease + 1);

      const outcome = {
        status: 'succeeded' as const,
        nextAttemptAt: null,
        error: null,
        now: LATER,
      };
      const written = await Promise.all([
        store.recordAttempt({ ...outcome, id: stale.id, lease: stale.lease, statusCode: 201 }),
        store.recordAttempt({ ...outcome, id: fresh.id, lease: fresh.lease, statusCode: 202 }),
        store.recordAttempt({ ...outcome, id: stale.id, lease: retried!.lease, statusCode: 203 }),
      ]);

      expect(written).toEqual([false, true, true]);
      expect(await rowOf(stale.id)).toMatchObject({ attempts: 1, last_status_code: 203 });
      expect(await rowOf(fresh.id)).toMatchObject({ attempts: 1, last_status_code: 202 });
    });
  });
});
