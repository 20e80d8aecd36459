import type { Pool } from 'pg';
import { newId } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { newEndpoint, newPaymentEvent, recordInTransaction } from './testing/webhook-fixtures';
import { DeliveryQueue, type AttemptOutcome } from './delivery-queue';
import { WebhookEndpoints } from './webhook-endpoints';

const LATER = new Date('2026-11-22T10:00:05.000Z');

describeWithPostgres('DeliveryQueue', () => {
  let database: TestDatabase;
  let pool: Pool;
  let queue: DeliveryQueue;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
    queue = new DeliveryQueue(pool);
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** Ten due deliveries of a fresh merchant, leased once. */
  const leasedDeliveries = async () => {
    const merchantId = newId('merchant');
    const endpoints = new WebhookEndpoints(pool);
    for (let i = 0; i < 10; i += 1) await newEndpoint(endpoints, merchantId, ['*']);
    await recordInTransaction(pool, newPaymentEvent(merchantId));
    const leased = await queue.lease({
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

  const succeeded = { status: 'succeeded' as const, nextAttemptAt: null, error: null, now: LATER };

  describe('recordAttempt', () => {
    it('writes outcomes that finish together, each to its own row', async () => {
      const leased = await leasedDeliveries();
      expect(leased).toHaveLength(10);
      const retryAt = new Date(LATER.getTime() + 10_000);

      const written = await Promise.all(
        leased.map((delivery, i) =>
          queue.recordAttempt({
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
      const retried = await queue.leaseOne({
        merchantId: stale.merchant_id,
        mode: 'test',
        deliveryId: stale.id,
        now: LATER,
        leaseMs: 60_000,
      });
      expect(retried?.lease).toBe(stale.lease + 1);

      // The first goes on its own; the two submitted while it is on its way go together.
      const written = await Promise.all([
        queue.recordAttempt({ ...succeeded, id: fresh.id, lease: fresh.lease, statusCode: 202 }),
        queue.recordAttempt({ ...succeeded, id: stale.id, lease: stale.lease, statusCode: 201 }),
        queue.recordAttempt({ ...succeeded, id: stale.id, lease: retried!.lease, statusCode: 203 }),
      ]);

      expect(written).toEqual([true, false, true]);
      expect(await rowOf(stale.id)).toMatchObject({ attempts: 1, last_status_code: 203 });
      expect(await rowOf(fresh.id)).toMatchObject({ attempts: 1, last_status_code: 202 });
    });

    it('counts the same outcome submitted twice as one attempt, on its own or in one batch', async () => {
      const [first, second] = await leasedDeliveries();
      const outcome = (delivery: typeof first, statusCode: number): AttemptOutcome => ({
        ...succeeded,
        id: delivery.id,
        lease: delivery.lease,
        statusCode,
      });

      expect(await queue.recordAttempt(outcome(first, 200))).toBe(true);
      expect(await queue.recordAttempt(outcome(first, 200))).toBe(false);
      // Behind an outcome on its way, both copies go in one statement.
      const written = await Promise.all([
        queue.recordAttempt(outcome(first, 299)),
        queue.recordAttempt(outcome(second, 200)),
        queue.recordAttempt(outcome(second, 200)),
      ]);

      expect(written).toEqual([false, true, false]);
      expect(await rowOf(first.id)).toMatchObject({ attempts: 1, last_status_code: 200 });
      expect(await rowOf(second.id)).toMatchObject({ attempts: 1, last_status_code: 200 });
    });

    it('counts each attempt once when a batch committed and lost its reply, so went again alone', async () => {
      const leased = await leasedDeliveries();
      let lost = 0;
      // The pool, but a statement of several outcomes loses its reply once it has committed.
      const query = async (text: string, values: unknown[][]) => {
        const result = await pool.query(text, values);
        if (lost === 0 && values[0]!.length > 1) {
          lost += 1;
          throw new Error('Connection terminated unexpectedly');
        }
        return result;
      };
      const losing = new DeliveryQueue({ query } as unknown as Pick<Pool, 'query'>);

      const written = await Promise.all(
        leased.map((delivery) =>
          losing.recordAttempt({
            ...succeeded,
            id: delivery.id,
            lease: delivery.lease,
            statusCode: 200,
          }),
        ),
      );

      expect(lost).toBe(1);
      // The first went alone; the batch behind it was written, then each of its outcomes again.
      expect(written).toEqual([true, ...leased.slice(1).map(() => false)]);
      for (const delivery of leased) {
        expect(await rowOf(delivery.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
      }
    });

    it('leaves a delivery with an outcome to its next lease, and to a manual retry', async () => {
      const [delivery] = await leasedDeliveries();
      const retryAt = new Date(LATER.getTime() + 10_000);
      await queue.recordAttempt({
        id: delivery.id,
        lease: delivery.lease,
        status: 'pending',
        nextAttemptAt: retryAt,
        statusCode: 500,
        error: 'HTTP 500',
        now: LATER,
      });

      const due = await queue.lease({
        now: retryAt,
        leaseMs: 60_000,
        limit: 100,
        perEndpoint: 4,
        busyEndpoints: [],
      });
      const next = due.find((d) => d.id === delivery.id);
      expect(next).toMatchObject({ attempts: 1, lease: delivery.lease + 2 });
      expect(
        await queue.recordAttempt({
          ...succeeded,
          id: delivery.id,
          lease: next!.lease,
          statusCode: 200,
        }),
      ).toBe(true);

      const retried = await queue.leaseOne({
        merchantId: delivery.merchant_id,
        mode: 'test',
        deliveryId: delivery.id,
        now: retryAt,
        leaseMs: 60_000,
      });
      expect(retried).toMatchObject({ attempts: 2 });
      expect(
        await queue.recordAttempt({
          ...succeeded,
          id: delivery.id,
          lease: retried!.lease,
          statusCode: 201,
        }),
      ).toBe(true);
      expect(await rowOf(delivery.id)).toMatchObject({
        status: 'succeeded',
        attempts: 3,
        last_status_code: 201,
      });
    });
  });
});
