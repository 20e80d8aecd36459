import { expectLedgerBalanced } from '@xaalis/ledger';
import { idempotencyKey } from './support/fixtures';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import { eventually, sleep } from './support/payments';

// Bodies are checked field by field; typing each would restate spec 2.3, 2.4 and 2.10.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Past this, a job the scheduler would have run again (it polls every 200 ms) has run. */
const QUIET_MS = 1_000;

/**
 * CONTRACT 7, live-style: a test subscription never advanced by `test_advance` runs on the
 * application clock alone, like a live one. The service's FixedClock is moved and its billing
 * scheduler (the shared `jobs` table, kind `billing.tick`) applies each billing instant once: a
 * job run again, a restart between an instant's due time and its firing, or several instants
 * slept through at once change nothing beyond that.
 */
describe('billing clock: a subscription on the application clock (no test_advance)', () => {
  let service: InProcessService;
  /** The first service: it owns the database that the restarted one shares. */
  let first: InProcessService;
  let closed = false;
  let newMerchant: (name?: string) => Promise<TestMerchant>;

  beforeAll(async () => {
    first = service = await startInProcessService();
    newMerchant = merchantFactory(() => service.http);
  });

  afterAll(async () => {
    try {
      if (first) await expectLedgerBalanced(first.db.pool);
    } finally {
      if (service && !closed) await service.service.close();
      await first?.db.drop();
    }
  });

  /** A monthly test subscription (3 days to pay, 14 of grace), created from the dashboard. */
  async function createSubscription(merchant: TestMerchant): Promise<Json> {
    const created = await merchant.owner.post(
      `/dashboard/v1/merchants/${merchant.merchantId}/test/subscriptions`,
      {
        idempotencyKey: idempotencyKey(),
        body: {
          customer: { phone: '+221771234567', name: 'Awa Diop' },
          amount: 15_000,
          interval: 'month',
        },
      },
    );
    expect({ status: created.status, body: created.body }).toMatchObject({
      status: 201,
      body: { object: 'subscription', livemode: false, status: 'active' },
    });
    return created.body;
  }

  const getSubscription = async (merchant: TestMerchant, id: string): Promise<Json> => {
    const got = await service.http.get(`/v1/subscriptions/${id}`, { bearer: merchant.testKey });
    expect(got.status).toBe(200);
    return got.body;
  };

  const getInvoice = async (merchant: TestMerchant, id: string): Promise<Json> => {
    const got = await service.http.get(`/v1/invoices/${id}`, { bearer: merchant.testKey });
    expect(got.status).toBe(200);
    return got.body;
  };

  /** How many of each event type the merchant has in `GET /v1/events` (one subscription each). */
  async function eventCounts(merchant: TestMerchant): Promise<Record<string, number>> {
    const listed = await service.http.get('/v1/events?limit=100', { bearer: merchant.testKey });
    expect(listed.status).toBe(200);
    const counts: Record<string, number> = {};
    for (const event of listed.body.data as Array<{ type: string }>) {
      counts[event.type] = (counts[event.type] ?? 0) + 1;
    }
    return counts;
  }

  /** The subscription's `billing.tick` job: its due time, or null when there is none. */
  async function tickDueAt(subscriptionId: string): Promise<string | null> {
    const { rows } = await first.db.pool.query<{ due_at: Date }>(
      `SELECT due_at FROM jobs WHERE kind = 'billing.tick' AND reference = $1`,
      [subscriptionId],
    );
    return rows[0]?.due_at.toISOString() ?? null;
  }

  /** Waits until the tick job is due at `expected` (the run and the projection are both done). */
  async function expectTickDueAt(subscriptionId: string, expected: string | null): Promise<void> {
    const seen = await eventually(
      () => tickDueAt(subscriptionId),
      (dueAt) => dueAt === expected,
    );
    expect({ subscriptionId, dueAt: seen }).toEqual({ subscriptionId, dueAt: expected });
  }

  /** The domain events of the subscription's stream, in the order they were recorded. */
  async function streamTypes(subscriptionId: string): Promise<string[]> {
    const { rows } = await first.db.pool.query<{ message_type: string }>(
      `SELECT message_type FROM es_messages WHERE stream_name = $1 ORDER BY stream_position`,
      [`subscription-${subscriptionId}`],
    );
    return rows.map((row) => row.message_type);
  }

  /**
   * The scheduler runs the job again though nothing new is due (as a second `runDue()` would):
   * the row is made due now, and is back at `next` once the run found nothing to apply.
   */
  async function runTickAgain(subscriptionId: string, next: string): Promise<void> {
    await first.db.pool.query(
      `UPDATE jobs SET due_at = $2 WHERE kind = 'billing.tick' AND reference = $1`,
      [subscriptionId, service.clock.now()],
    );
    await expectTickDueAt(subscriptionId, next);
    await sleep(QUIET_MS);
  }

  const at = (iso: string, offsetMs: number) => new Date(Date.parse(iso) + offsetMs);
  const plus = (iso: string, offsetMs: number) => at(iso, offsetMs).toISOString();

  it('the day before due_at a reminder, past due_at overdue and past_due: each once, however often the job runs', async () => {
    const merchant = await newMerchant();
    const created = await createSubscription(merchant);
    const invoice = created.latest_invoice;
    expect(invoice).toMatchObject({ status: 'open', reminders_sent: 0 });
    expect(invoice.due_at).toBe(plus(invoice.created_at, 3 * DAY_MS));
    expect(invoice.grace_ends_at).toBe(plus(invoice.due_at, 14 * DAY_MS));
    // The clock's job is due at the first billing instant: the reminder a day before due_at.
    await expectTickDueAt(created.id, plus(invoice.due_at, -DAY_MS));
    await sleep(QUIET_MS);
    expect((await getInvoice(merchant, invoice.id)).reminders_sent).toBe(0);

    service.clock.set(at(invoice.due_at, -DAY_MS + MINUTE_MS));
    await expectTickDueAt(created.id, invoice.due_at);
    expect(await getInvoice(merchant, invoice.id)).toMatchObject({
      status: 'open',
      reminders_sent: 1,
    });
    await runTickAgain(created.id, invoice.due_at);
    expect((await getInvoice(merchant, invoice.id)).reminders_sent).toBe(1);
    expect((await getSubscription(merchant, created.id)).status).toBe('active');

    service.clock.set(at(invoice.due_at, MINUTE_MS));
    // Next: the first reminder of the grace, three days after due_at.
    await expectTickDueAt(created.id, plus(invoice.due_at, 3 * DAY_MS));
    await runTickAgain(created.id, plus(invoice.due_at, 3 * DAY_MS));
    await runTickAgain(created.id, plus(invoice.due_at, 3 * DAY_MS));

    const subscription = await getSubscription(merchant, created.id);
    expect(subscription).toMatchObject({ status: 'past_due', canceled_at: null });
    expect(await getInvoice(merchant, invoice.id)).toEqual({
      ...invoice,
      status: 'open',
      reminders_sent: 2,
    });
    await eventually(
      () => eventCounts(merchant),
      (counts) => counts['subscription.past_due'] === 1,
    );
    await sleep(QUIET_MS);
    expect(await eventCounts(merchant)).toEqual({
      'invoice.created': 1,
      'invoice.overdue': 1,
      'subscription.past_due': 1,
    });
    expect(await streamTypes(created.id)).toEqual([
      'SubscriptionCreated',
      'InvoiceCreated',
      'InvoiceReminderSent',
      'InvoiceReminderSent',
      'InvoiceOverdue',
      'SubscriptionPastDue',
    ]);
  });

  it('a restart between due_at and its firing: the new service applies it exactly once', async () => {
    const merchant = await newMerchant();
    const created = await createSubscription(merchant);
    const invoice = created.latest_invoice;
    service.clock.set(at(invoice.due_at, -DAY_MS + MINUTE_MS));
    await expectTickDueAt(created.id, invoice.due_at);
    expect((await getInvoice(merchant, invoice.id)).reminders_sent).toBe(1);

    // Stopped before its clock reaches due_at: the instant comes due while nothing runs.
    await service.service.close();
    closed = true;
    service = await startInProcessService({}, { sharing: first });
    closed = false;
    // Its owner's browser was on the stopped service's port: later merchants sign up anew.
    newMerchant = merchantFactory(() => service.http);
    expect(await tickDueAt(created.id)).toBe(invoice.due_at);
    service.clock.set(at(invoice.due_at, 5 * MINUTE_MS));

    await expectTickDueAt(created.id, plus(invoice.due_at, 3 * DAY_MS));
    await runTickAgain(created.id, plus(invoice.due_at, 3 * DAY_MS));
    expect(await getSubscription(merchant, created.id)).toMatchObject({ status: 'past_due' });
    expect(await getInvoice(merchant, invoice.id)).toEqual({
      ...invoice,
      // PORT=0: the public base URL, and so the hosted page's link, follow the new port.
      hosted_invoice_url: `${service.url}/invoices/${invoice.id}/pay`,
      status: 'open',
      reminders_sent: 2,
    });
    const overdue = await eventually(
      () => eventCounts(merchant),
      (counts) => counts['subscription.past_due'] === 1,
    );
    await sleep(QUIET_MS);
    expect(await eventCounts(merchant)).toEqual(overdue);
    expect(overdue).toEqual({
      'invoice.created': 1,
      'invoice.overdue': 1,
      'subscription.past_due': 1,
    });
    expect((await streamTypes(created.id)).filter((type) => type === 'InvoiceOverdue')).toEqual([
      'InvoiceOverdue',
    ]);
  });

  it('slept through to past grace_ends_at: every instant applied in order, each once, then nothing is due', async () => {
    const merchant = await newMerchant();
    const created = await createSubscription(merchant);
    const invoice = created.latest_invoice;
    await expectTickDueAt(created.id, plus(invoice.due_at, -DAY_MS));

    // In one move, past the reminder, due_at, four grace reminders and grace_ends_at.
    service.clock.set(at(invoice.grace_ends_at, MINUTE_MS));
    await eventually(
      () => getSubscription(merchant, created.id),
      (subscription) => subscription.status === 'canceled',
    );
    await expectTickDueAt(created.id, null);
    await sleep(QUIET_MS);

    expect(await getSubscription(merchant, created.id)).toMatchObject({
      status: 'canceled',
      canceled_at: invoice.grace_ends_at,
      next_invoice_at: null,
    });
    expect(await getInvoice(merchant, invoice.id)).toEqual({
      ...invoice,
      status: 'uncollectible',
      reminders_sent: 6,
    });
    expect(await streamTypes(created.id)).toEqual([
      'SubscriptionCreated',
      'InvoiceCreated',
      'InvoiceReminderSent', // due_at − 1 day
      'InvoiceReminderSent', // due_at
      'InvoiceOverdue',
      'SubscriptionPastDue',
      'InvoiceReminderSent', // due_at + 3, 6, 9 and 12 days
      'InvoiceReminderSent',
      'InvoiceReminderSent',
      'InvoiceReminderSent',
      'InvoiceUncollectible',
      'SubscriptionCanceled',
    ]);
    const counts = await eventually(
      () => eventCounts(merchant),
      (seen) => seen['subscription.canceled'] === 1,
    );
    expect(counts).toEqual({
      'invoice.created': 1,
      'invoice.overdue': 1,
      'subscription.past_due': 1,
      'subscription.canceled': 1,
    });
  });
});
