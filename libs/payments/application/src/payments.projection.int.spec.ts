import { createPrismaClient, type PrismaClient } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { PAYMENT_STREAM_PREFIX, type PaymentEvent } from '@xaalis/payments-domain';
import {
  at,
  EXPIRES_AT,
  methodChosen,
  OTHER_PAYMENT_ID,
  OTHER_REFUND_ID,
  PAYMENT_ID,
  paymentCreated,
  paymentExpired,
  paymentFailed,
  paymentSucceeded,
  REFUND_ID,
  refundFailed,
  refundRequested,
  refundSucceeded,
  T0,
} from '@xaalis/payments-domain/testing';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { RECONCILE_AFTER_MS, paymentsProjection } from './payments.projection';

const THIRD_ID = 'pay_01JD0000000000000000000002';

/** Events of several payments, interleaved as a busy store would hold them. */
function history(): RecordedEvent[] {
  const revisions = new Map<string, number>();
  let position = 0;
  const record = (paymentId: string, event: PaymentEvent): RecordedEvent => {
    const revision = revisions.get(paymentId) ?? 0;
    revisions.set(paymentId, revision + 1);
    position += 1;
    return {
      id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      streamName: `${PAYMENT_STREAM_PREFIX}${paymentId}`,
      type: event.type,
      data: { ...event.data, paymentId },
      metadata: {},
      revision: BigInt(revision),
      position: String(position).padStart(20, '0'),
      createdAt: new Date(T0.getTime() + position * 1000),
    };
  };
  const live = { mode: 'live' as const };
  return [
    record(PAYMENT_ID, paymentCreated()),
    record(OTHER_PAYMENT_ID, paymentCreated({ ...live, clientReference: 'order-43' })),
    record(THIRD_ID, paymentCreated({ clientReference: null })),
    record(PAYMENT_ID, methodChosen()),
    record(OTHER_PAYMENT_ID, methodChosen({ redirectUrl: null })),
    record(PAYMENT_ID, paymentSucceeded()),
    record(THIRD_ID, methodChosen({ provider: 'orange_money' })),
    record(PAYMENT_ID, refundRequested({ amount: 4_000 })),
    record(THIRD_ID, paymentFailed()),
    record(PAYMENT_ID, refundFailed()),
    record(
      PAYMENT_ID,
      refundRequested({
        refundId: OTHER_REFUND_ID,
        // The whole amount (the first refund failed): the payment ends `refunded`.
        amount: 10_000,
        requestedAt: at(5).toISOString(),
      }),
    ),
    record(OTHER_PAYMENT_ID, paymentExpired()),
    record(PAYMENT_ID, refundSucceeded(OTHER_REFUND_ID, at(6))),
  ];
}

describeWithPostgres('payments projection', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  const snapshot = async () => ({
    payments: await db.pool
      .query('SELECT * FROM payments ORDER BY id')
      .then((result) => result.rows),
    jobs: await db.pool
      .query('SELECT kind, reference, due_at, attempts FROM jobs ORDER BY kind, reference')
      .then((result) => result.rows),
    refunds: await db.pool
      .query(
        `SELECT id, payment_id, merchant_id, mode, amount, status, failure_reason, created_at
           FROM refunds ORDER BY id`,
      )
      .then((result) => result.rows),
  });
  const reset = () => prisma.$transaction((tx) => paymentsProjection.reset(tx));
  const inBatches = async (events: RecordedEvent[], size: number) => {
    for (let start = 0; start < events.length; start += size) {
      const batch = events.slice(start, start + size);
      await prisma.$transaction((tx) => paymentsProjection.applyBatch!(batch, tx));
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.pool);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  beforeEach(reset);

  it('one event at a time: rows and jobs as each fact asks', async () => {
    const events = history();
    for (const [index, event] of events.entries()) {
      await prisma.$transaction((tx) => paymentsProjection.apply(event, tx));
      if (index === 4) {
        // Both created and chosen: the live one with an unknown outcome is reconciled at once.
        const { jobs } = await snapshot();
        expect(jobs).toEqual(
          [
            { kind: 'payment.expire', reference: PAYMENT_ID, due_at: EXPIRES_AT, attempts: 0 },
            {
              kind: 'payment.expire',
              reference: OTHER_PAYMENT_ID,
              due_at: EXPIRES_AT,
              attempts: 0,
            },
            { kind: 'payment.reconcile', reference: OTHER_PAYMENT_ID, due_at: at(1), attempts: 0 },
            { kind: 'payment.expire', reference: THIRD_ID, due_at: EXPIRES_AT, attempts: 0 },
          ].sort((a, b) => `${a.kind} ${a.reference}`.localeCompare(`${b.kind} ${b.reference}`)),
        );
      }
    }
    const { payments, jobs } = await snapshot();
    expect(payments.map((row) => [row.id, row.status, row.revision, row.client_reference])).toEqual(
      [
        [PAYMENT_ID, 'refunded', '6', 'order-42'],
        [OTHER_PAYMENT_ID, 'expired', '2', 'order-43'],
        [THIRD_ID, 'failed', '2', null],
      ],
    );
    expect(payments[0]!.updated_at).toEqual(new Date(T0.getTime() + 13_000));
    expect(payments[0]!.created_at).toEqual(T0);
    // Every job ended with its payment or refund.
    expect(jobs).toEqual([]);
    // One row per refund, as its payment's state last left it.
    const { refunds } = await snapshot();
    expect(
      refunds.map((row) => [row.id, row.payment_id, row.amount, row.status, row.failure_reason]),
    ).toEqual(
      [
        [REFUND_ID, PAYMENT_ID, 4_000, 'failed', expect.any(String)],
        [OTHER_REFUND_ID, PAYMENT_ID, 10_000, 'succeeded', null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(refunds[0]).toMatchObject({ merchant_id: payments[0]!.merchant_id, mode: 'test' });
    expect(RECONCILE_AFTER_MS).toBe(60_000);
  });

  it('in batches of any size: the same rows and jobs as one event at a time', async () => {
    const events = history();
    for (const [index, event] of events.entries()) {
      await prisma.$transaction((tx) => paymentsProjection.apply(event, tx));
      if (index === 7) {
        // Mid-history: a refund is scheduled, the second payment is reconciled.
        const jobs = (await snapshot()).jobs.map((job) => [job.kind, job.reference]);
        expect(jobs).toContainEqual(['payment.refund', `${PAYMENT_ID}:${REFUND_ID}`]);
      }
    }
    const expected = await snapshot();
    for (const size of [2, 3, 5, events.length]) {
      await reset();
      await inBatches(events, size);
      expect(await snapshot()).toEqual(expected);
    }
    for (const cut of [4, 8, 11]) {
      await reset();
      await inBatches(events.slice(0, cut), cut);
      const partial = await snapshot();
      await reset();
      for (const event of events.slice(0, cut))
        await prisma.$transaction((tx) => paymentsProjection.apply(event, tx));
      expect(partial).toEqual(await snapshot());
    }
  });

  it('applies nothing twice: a batch offered again changes no row', async () => {
    const events = history();
    await inBatches(events.slice(0, 9), 9);
    const once = await snapshot();
    await inBatches(events.slice(0, 9), 9);
    await inBatches(events.slice(3, 7), 4);
    expect(await snapshot()).toEqual(once);
    expect(once.payments.find((row) => row.id === PAYMENT_ID)?.status).toBe('succeeded');
  });

  it('skips events of other types and streams it does not know', async () => {
    const [created] = history();
    const foreign: RecordedEvent = {
      ...created!,
      type: 'SomethingElse',
      id: '00000000-0000-4000-8000-000000009999',
    };
    await prisma.$transaction((tx) => paymentsProjection.applyBatch!([foreign], tx));
    expect(await snapshot()).toEqual({ payments: [], jobs: [], refunds: [] });
  });
});
