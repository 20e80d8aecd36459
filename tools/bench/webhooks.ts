import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { useWebhookAgentForTests } from '@xaalis/webhook-dispatch';
import {
  createTestCertificates,
  createWebhookAgent,
  sendWebhook,
  type TestCertificates,
} from '@xaalis/webhook-sender';
import { signatureHeader, verifyWebhook } from '@xaalis/webhook-signature';
import { call, signUpMerchant, startEmbeddedStack, type BenchMerchant } from './gateway';
import { httpPostJson } from './http-load';
import { measure, percentile, type Measurement } from './measure';
import type { Judged } from './report';
import { startBenchReceivers, type Arrival, type BenchReceivers } from './webhook-receivers';

/** Issue 4: deliveries fan out to this many endpoints of one merchant. */
export const ENDPOINTS = 10;
/** The dispatcher's own cap (MAX_IN_FLIGHT), given to the sender-alone baseline too. */
const SENDER_IN_FLIGHT = 64;
/**
 * Events produced but not yet received by every endpoint, at most, in the throughput phase: the
 * producers go as fast as the system takes events, not faster, so the window measures a rate
 * the system sustains rather than a backlog growing behind it.
 */
const EVENTS_IN_FLIGHT = 150;
const DRAIN_TIMEOUT_MS = 60_000;

const PAYMENT_BODY = JSON.stringify({
  amount: 12_500,
  description: 'Order 4711',
  customer: { phone: '+221771234567', name: 'Awa Diop' },
});

export interface DeliveryMeasurement extends Measurement {
  events: number;
  deliveries: number;
  /** Expected deliveries that never arrived (the run throws first, so always 0 in a report). */
  missing: number;
  /** Deliveries received more than once: at-least-once allows them, the report counts them. */
  duplicates: number;
  /** Deliveries that needed more than one attempt, from the delivery log. */
  retried: number;
  /** Deliveries whose signature was checked with @xaalis/webhook-signature. */
  verified: number;
  /**
   * Where the time goes, from the delivery log: event `created_at` to its delivery row
   * (forwarder, bus, consumer), and row to its recorded outcome (queue, send, write).
   */
  stages: {
    toRowP50Ms: number;
    toRowP99Ms: number;
    toOutcomeP50Ms: number;
    toOutcomeP99Ms: number;
  };
  /** Busy CPU of the whole machine (Postgres included), in CPUs, over the measured time. */
  machineCpus: number;
  /** CPU of this process (service, load and receivers), in CPUs, over the measured time. */
  processCpus: number;
  /** CPU of the Postgres backends serving the bench's database, in CPUs (NaN: not visible). */
  postgresCpus: number;
}

interface Settings {
  durationMs: number;
  concurrency: number;
}

interface Bench {
  baseUrl: string;
  merchant: BenchMerchant;
  receivers: BenchReceivers;
  urls: string[];
  pool: Pool;
}

/**
 * Webhook delivery end to end (issue 4, item 8): one merchant, ten dashboard endpoints on ten
 * HTTPS receivers on loopback, and payments succeeded through the API, so each delivery goes
 * the whole way (event store, forwarder, bus, webhooks consumer, delivery rows, worker, signed
 * POST). Two lines, each against the sender alone on the same receivers:
 *
 * - throughput: deliveries received per second while producers create and succeed payments as
 *   fast as the system takes them (EVENTS_IN_FLIGHT), judged ≥ 1,000/s;
 * - latency: events paced at half that rate, open loop, from the event's `created_at` (its
 *   append to the payment stream) to the receiver having read the body; judged p99 < 250 ms.
 *
 * Every expected delivery must arrive (else the run fails); duplicates are counted; a sample of
 * deliveries (each endpoint's first, then one in 500) is verified against the merchant secret.
 * One measured window each (BENCH_SECONDS), no rounds: the phases depend on each other's rate.
 */
export async function webhookDeliveryPairs(
  pool: Pool,
  databaseUrl: string,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  const certs = createTestCertificates();
  const agent = createWebhookAgent({ ca: certs.ca });
  let receivers: BenchReceivers | undefined;
  try {
    receivers = await startBenchReceivers({ count: ENDPOINTS, cert: certs.cert, key: certs.key });
    log('booting the embedded stack for webhooks');
    const stack = await startEmbeddedStack(databaseUrl, { WEBHOOK_ALLOWED_HOSTS: 'localhost' });
    try {
      // The receivers' CA is trusted through the dispatcher's agent, as the e2e tests do.
      useWebhookAgentForTests(stack.config, agent);
      const merchant = await signUpMerchant(stack.url);
      const urls = receivers.ports.map((port, i) => `https://localhost:${port}/hooks/${i}`);
      for (const url of urls) await createEndpoint(stack.url, merchant, url);
      const bench: Bench = { baseUrl: stack.url, merchant, receivers, urls, pool };
      return await run(bench, certs, settings, log);
    } finally {
      await stack.close();
    }
  } finally {
    agent.destroy();
    await receivers?.close();
    certs.remove();
  }
}

async function run(
  bench: Bench,
  certs: TestCertificates,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  const senderAgent = createWebhookAgent({ ca: certs.ca });
  try {
    log(`webhooks: sender alone, ${SENDER_IN_FLIGHT} in flight`);
    const sender = await measure(senderAlone(bench, senderAgent, settings.durationMs));

    log(`webhooks: throughput, ${settings.concurrency} producers`);
    const throughput = await saturated(bench, settings);
    log(describe(throughput));

    const halfRate = Math.max(ENDPOINTS, Math.round(throughput.rate / 2));
    log(`webhooks: latency at ${halfRate} deliveries/s`);
    const senderPaced = await senderAtRate(bench, senderAgent, halfRate, settings.durationMs);
    const latency = await atRate(bench, halfRate, settings.durationMs);
    log(describe(latency));

    return [
      {
        baseline: sender,
        subject: throughput,
        target: { kind: 'rate', min: 1_000, unit: 'deliveries/s' },
      },
      { baseline: senderPaced, subject: latency, target: { kind: 'latency', maxP99Ms: 250 } },
    ];
  } finally {
    senderAgent.destroy();
  }
}

function describe(m: DeliveryMeasurement): string {
  return (
    `${m.name}: ${Math.round(m.rate)}/s, p50 ${m.p50Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms; ` +
    `${m.events} events, ${m.deliveries} deliveries, ${m.duplicates} duplicates, ${m.retried} retried, ` +
    `${m.verified} signatures verified; CPU ${m.machineCpus.toFixed(2)} of ${cpus().length} ` +
    `(this process ${m.processCpus.toFixed(2)}, its Postgres backends ${m.postgresCpus.toFixed(2)}); ` +
    `event → row p50/p99 ${m.stages.toRowP50Ms}/${m.stages.toRowP99Ms} ms, ` +
    `row → outcome ${m.stages.toOutcomeP50Ms}/${m.stages.toOutcomeP99Ms} ms`
  );
}

/** A dashboard endpoint (CONTRACT 1) subscribed to the one event type the bench fires. */
async function createEndpoint(baseUrl: string, merchant: BenchMerchant, url: string) {
  await call(
    baseUrl,
    'POST',
    `/dashboard/v1/merchants/${merchant.merchantId}/test/webhook-endpoints`,
    {
      body: { url, event_types: ['payment.succeeded'] },
      cookie: merchant.cookie,
      idempotencyKey: `bench-${url}`,
    },
  );
}

/** One `payment.succeeded`: a payment created, then succeeded by the test helper. Its id. */
async function succeededPayment(bench: Bench): Promise<string> {
  const headers = { authorization: `Bearer ${bench.merchant.secretKey}` };
  const created = JSON.parse(
    await httpPostJson(`${bench.baseUrl}/v1/payments`, PAYMENT_BODY, headers),
  ) as { id: string };
  const moved = JSON.parse(
    await httpPostJson(
      `${bench.baseUrl}/v1/test_helpers/payments/${created.id}/succeed`,
      '{}',
      headers,
    ),
  ) as { status?: string };
  if (moved.status !== 'succeeded') {
    throw new Error(`succeed answered ${JSON.stringify(moved)}`);
  }
  return created.id;
}

/** The deliveries of one phase, as the receivers saw them. */
class Tally {
  readonly arrivals: Arrival[] = [];
  private readonly expected = new Set<string>();
  private readonly seen = new Map<string, Set<number>>();
  produced = 0;
  complete = 0;
  duplicates = 0;
  readonly phaseStart = new Date();

  expect(paymentId: string): void {
    this.expected.add(paymentId);
    this.produced += 1;
  }

  add(arrivals: Arrival[]): void {
    for (const arrival of arrivals) {
      this.arrivals.push(arrival);
      const endpoints = this.seen.get(arrival.objectId) ?? new Set<number>();
      this.seen.set(arrival.objectId, endpoints);
      if (endpoints.has(arrival.endpoint)) {
        this.duplicates += 1;
        continue;
      }
      endpoints.add(arrival.endpoint);
      if (endpoints.size === ENDPOINTS) this.complete += 1;
    }
  }

  get outstanding(): number {
    return this.produced - this.complete;
  }

  missing(): number {
    let missing = 0;
    for (const id of this.expected) missing += ENDPOINTS - (this.seen.get(id)?.size ?? 0);
    return missing;
  }

  unexpected(): number {
    return this.arrivals.filter((arrival) => !this.expected.has(arrival.objectId)).length;
  }
}

/** A tally of what arrives from now on: what earlier phases sent goes to their listener first. */
async function newPhase(bench: Bench): Promise<Tally> {
  await bench.receivers.flush();
  bench.receivers.takeSamples();
  const tally = new Tally();
  bench.receivers.onArrivals((arrivals) => tally.add(arrivals));
  return tally;
}

/** Time on the receivers' clock: epoch ms with a fraction, like `Arrival.arrivedAt`. */
const now = () => performance.timeOrigin + performance.now();

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ), 100 on Linux unless built otherwise. */
const USER_HZ = 100;

/**
 * CPU time, in ms, of each Postgres backend serving this database (read from /proc: Postgres
 * runs on this box), so the report can tell the bench's own database work from whatever else
 * the machine is running. Empty when /proc does not show them.
 */
async function postgresCpuMs(pool: Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const byPid = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // utime and stime, the 14th and 15th fields; the name in parentheses may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ);
    } catch {
      // Gone since the query, or not ours to read.
    }
  }
  return byPid;
}

/** Busy and total CPU time of the machine, of this process and of its Postgres backends, in ms. */
async function cpuSnapshot(pool: Pool) {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const used = times.user + times.nice + times.sys + times.irq;
    busy += used;
    total += used + times.idle;
  }
  const own = process.cpuUsage();
  const postgres = await postgresCpuMs(pool);
  return { busy, total, processMs: (own.user + own.system) / 1000, postgres, at: now() };
}

/**
 * CPUs used since `start`. Postgres counts the backends alive at the end (one that exited in
 * between is missed, so a low figure); NaN when none could be read.
 */
async function cpuSince(pool: Pool, start: Awaited<ReturnType<typeof cpuSnapshot>>) {
  const end = await cpuSnapshot(pool);
  const wallMs = end.at - start.at;
  const share = end.total === start.total ? 0 : (end.busy - start.busy) / (end.total - start.total);
  let postgresMs = end.postgres.size === 0 ? NaN : 0;
  for (const [pid, ms] of end.postgres) postgresMs += ms - (start.postgres.get(pid) ?? 0);
  return {
    machineCpus: share * cpus().length,
    processCpus: (end.processMs - start.processMs) / wallMs,
    postgresCpus: postgresMs / wallMs,
    processMs: end.processMs - start.processMs,
  };
}

/**
 * Producers create and succeed payments while fewer than EVENTS_IN_FLIGHT events wait for
 * their deliveries; deliveries received in the measured window (after a warm-up as long) count.
 */
async function saturated(bench: Bench, settings: Settings): Promise<DeliveryMeasurement> {
  const tally = await newPhase(bench);
  let stop = false;
  let failure: { error: unknown } | undefined;
  const producers = Array.from({ length: settings.concurrency }, async () => {
    while (!stop && failure === undefined) {
      if (tally.outstanding >= EVENTS_IN_FLIGHT) {
        await sleep(2);
        continue;
      }
      try {
        tally.expect(await succeededPayment(bench));
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await sleep(Math.max(1_000, settings.durationMs / 2));
  const cpu = await cpuSnapshot(bench.pool);
  const start = now();
  await sleep(settings.durationMs);
  const end = now();
  const used = await cpuSince(bench.pool, cpu);
  stop = true;
  await Promise.all(producers);
  if (failure !== undefined) throw failure.error;
  await drain(bench, tally);

  const inWindow = tally.arrivals.filter((a) => a.arrivedAt >= start && a.arrivedAt < end);
  const seconds = (end - start) / 1000;
  return summarize(bench, tally, {
    name: `webhooks: deliveries/s, ${ENDPOINTS} endpoints (event created_at → receiver)`,
    arrivals: inWindow,
    seconds,
    cpu: used,
  });
}

/** Events paced at `deliveriesPerSecond / ENDPOINTS`, open loop, for `durationMs`. */
async function atRate(
  bench: Bench,
  deliveriesPerSecond: number,
  durationMs: number,
): Promise<DeliveryMeasurement> {
  const tally = await newPhase(bench);
  const cpu = await cpuSnapshot(bench.pool);
  const seconds = await paced(deliveriesPerSecond / ENDPOINTS, durationMs, async () => {
    tally.expect(await succeededPayment(bench));
  });
  const used = await cpuSince(bench.pool, cpu);
  await drain(bench, tally);
  // The rate offered: every delivery of the events started in the paced window.
  return summarize(bench, tally, {
    name: `webhooks: event created_at → receiver at ${deliveriesPerSecond} deliveries/s`,
    arrivals: tally.arrivals,
    seconds,
    cpu: used,
  });
}

/**
 * Starts `op` `perSecond` times a second for `durationMs` whether the last ones ended or not
 * (an open system: the load does not ease when the service slows), then waits for them all.
 * Returns the seconds over which they were started.
 */
async function paced(
  perSecond: number,
  durationMs: number,
  op: () => Promise<void>,
): Promise<number> {
  const intervalMs = 1000 / perSecond;
  const started: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  const start = performance.now();
  for (let n = 0; failure === undefined;) {
    const elapsed = performance.now() - start;
    if (elapsed >= durationMs) break;
    for (; n * intervalMs <= elapsed; n += 1) {
      // Caught at once: a rejection left for the final await would end the process first.
      started.push(op().catch((error: unknown) => void (failure ??= { error })));
    }
    await sleep(Math.max(1, n * intervalMs - elapsed));
  }
  await Promise.all(started);
  if (failure !== undefined) throw failure.error;
  return durationMs / 1000;
}

/** Waits until every produced event reached every endpoint; fails with what is missing. */
async function drain(bench: Bench, tally: Tally): Promise<void> {
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (tally.outstanding > 0 && performance.now() < deadline) {
    await bench.receivers.flush();
    if (tally.outstanding > 0) await sleep(20);
  }
  await bench.receivers.flush();
  const missing = tally.missing();
  const unexpected = tally.unexpected();
  if (missing > 0 || unexpected > 0) {
    throw new Error(
      `webhooks: ${missing} of ${tally.produced * ENDPOINTS} deliveries missing after ` +
        `${DRAIN_TIMEOUT_MS / 1000} s, ${unexpected} unexpected`,
    );
  }
}

async function summarize(
  bench: Bench,
  tally: Tally,
  input: {
    name: string;
    arrivals: Arrival[];
    seconds: number;
    cpu: Awaited<ReturnType<typeof cpuSince>>;
  },
): Promise<DeliveryMeasurement> {
  const latencies = input.arrivals.map((a) => a.arrivedAt - a.createdAt).sort((a, b) => a - b);
  const verified = verifySamples(bench);
  const retried = await retriedDeliveries(bench);
  const stages = await stageTimes(bench, tally.phaseStart);
  const count = input.arrivals.length;
  return {
    name: input.name,
    rate: count / input.seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    operations: count,
    seconds: input.seconds,
    cpuMsPerOp: count === 0 ? 0 : input.cpu.processMs / count,
    events: tally.produced,
    deliveries: tally.arrivals.length,
    missing: tally.missing(),
    duplicates: tally.duplicates,
    retried,
    verified,
    stages,
    machineCpus: input.cpu.machineCpus,
    processCpus: input.cpu.processCpus,
    postgresCpus: input.cpu.postgresCpus,
  };
}

/** The sampled requests carry a valid signature under the merchant's secret, and their event id. */
function verifySamples(bench: Bench): number {
  const samples = bench.receivers.takeSamples();
  for (const sample of samples) {
    const event = verifyWebhook({
      rawBody: sample.rawBody,
      header: sample.signature,
      secret: bench.merchant.webhookSecret,
    });
    if (event.id !== sample.eventId || event.type !== 'payment.succeeded') {
      throw new Error(`webhooks: endpoint ${sample.endpoint} got ${event.type} ${event.id}`);
    }
  }
  return samples.length;
}

/** Deliveries of the bench merchant that took more than one attempt so far. */
async function retriedDeliveries(bench: Bench): Promise<number> {
  const { rows } = await bench.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM webhook_deliveries WHERE merchant_id = $1 AND attempts > 1',
    [bench.merchant.merchantId],
  );
  return Number(rows[0].n);
}

async function stageTimes(bench: Bench, since: Date): Promise<DeliveryMeasurement['stages']> {
  const { rows } = await bench.pool.query<DeliveryMeasurement['stages']>(
    `SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY to_row))::int AS "toRowP50Ms",
            round(percentile_cont(0.99) WITHIN GROUP (ORDER BY to_row))::int AS "toRowP99Ms",
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY to_outcome))::int AS "toOutcomeP50Ms",
            round(percentile_cont(0.99) WITHIN GROUP (ORDER BY to_outcome))::int AS "toOutcomeP99Ms"
       FROM (SELECT extract(epoch FROM d.created_at - e.created_at) * 1000 AS to_row,
                    extract(epoch FROM d.updated_at - d.created_at) * 1000 AS to_outcome
               FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
              WHERE d.merchant_id = $1 AND e.created_at >= $2) timed`,
    [bench.merchant.merchantId, since],
  );
  return rows[0];
}

/** The same signed POSTs from this process straight to the receivers: the ceiling. */
function senderAlone(
  bench: Bench,
  agent: ReturnType<typeof createWebhookAgent>,
  durationMs: number,
) {
  bench.receivers.onArrivals(() => undefined);
  let n = 0;
  return {
    name: `sendWebhook alone, ${ENDPOINTS} endpoints, ${SENDER_IN_FLIGHT} in flight`,
    op: () => signedSend(bench, agent, n++),
    options: { durationMs, concurrency: SENDER_IN_FLIGHT },
  };
}

/** The sender alone paced like the latency line: what the HTTPS hop itself costs at that rate. */
async function senderAtRate(
  bench: Bench,
  agent: ReturnType<typeof createWebhookAgent>,
  deliveriesPerSecond: number,
  durationMs: number,
): Promise<Measurement> {
  bench.receivers.onArrivals(() => undefined);
  const latencies: number[] = [];
  let n = 0;
  const cpu = await cpuSnapshot(bench.pool);
  const seconds = await paced(deliveriesPerSecond, durationMs, async () => {
    const t0 = performance.now();
    await signedSend(bench, agent, n++);
    latencies.push(performance.now() - t0);
  });
  const { processMs } = await cpuSince(bench.pool, cpu);
  await bench.receivers.flush();
  bench.receivers.takeSamples();
  latencies.sort((a, b) => a - b);
  return {
    name: `sendWebhook alone at ${deliveriesPerSecond}/s`,
    rate: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    operations: latencies.length,
    seconds,
    cpuMsPerOp: latencies.length === 0 ? 0 : processMs / latencies.length,
  };
}

async function signedSend(
  bench: Bench,
  agent: ReturnType<typeof createWebhookAgent>,
  n: number,
): Promise<void> {
  const rawBody = JSON.stringify({
    id: `evt_bench_${n}`,
    type: 'payment.succeeded',
    created_at: new Date().toISOString(),
    data: { object: { id: `pay_bench_${n}` } },
  });
  const result = await sendWebhook({
    url: bench.urls[n % ENDPOINTS],
    rawBody,
    headers: {
      'Xaalis-Signature': signatureHeader({
        secrets: [bench.merchant.webhookSecret],
        timestamp: Math.floor(Date.now() / 1000),
        rawBody,
      }),
      'Xaalis-Event-Id': `evt_bench_${n}`,
    },
    allowedHosts: ['localhost'],
    agent,
  });
  if (result.outcome !== 'succeeded') throw new Error(`sendWebhook: ${result.error}`);
}
