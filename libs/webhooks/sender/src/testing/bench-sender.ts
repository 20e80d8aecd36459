/**
 * Throughput of the sender over loopback TLS: `node tools/scripts/run.js
 * libs/webhooks/sender/src/testing/bench-sender.ts [deliveries=20000] [endpoints=10] [concurrency=200]`.
 * The receivers answer 200 from a worker thread, so they do not share the sender's event loop.
 * Prints deliveries per second: a measurement to read, never a test to pass.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { signatureHeader } from '@xaalis/webhook-signature';
import { sendWebhook } from '../send-webhook';
import { createWebhookAgent } from '../webhook-agent';
import { createTestCertificates } from './certificates';

const RECEIVERS = `
const { createServer } = require('node:https');
const { parentPort, workerData } = require('node:worker_threads');
Promise.all(Array.from({ length: workerData.endpoints }, () => new Promise((listening) => {
  const server = createServer({ cert: workerData.cert, key: workerData.key }, (req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  server.listen(0, '127.0.0.1', () => listening(server.address().port));
}))).then((ports) => parentPort.postMessage(ports));
`;

async function main(): Promise<void> {
  const [deliveries = 20_000, endpoints = 10, concurrency = 200] = process.argv
    .slice(2)
    .map(Number);
  const certs = createTestCertificates();
  const worker = new Worker(RECEIVERS, {
    eval: true,
    workerData: { endpoints, cert: certs.cert, key: certs.key },
  });
  const [ports] = (await once(worker, 'message')) as [number[]];
  const agent = createWebhookAgent({ ca: certs.ca });
  const body = JSON.stringify({ id: 'evt_bench', type: 'payment.succeeded', data: { object: {} } });
  let next = 0;
  let failed = 0;
  const sender = async () => {
    while (next < deliveries) {
      const n = next++;
      const result = await sendWebhook({
        url: `https://localhost:${ports[n % endpoints]}/webhooks`,
        rawBody: body,
        headers: {
          'Xaalis-Signature': signatureHeader({
            secrets: ['whsec_bench'],
            timestamp: Math.floor(Date.now() / 1000),
            rawBody: body,
          }),
          'Xaalis-Event-Id': `evt_${n}`,
        },
        allowedHosts: ['localhost'],
        agent,
      });
      if (result.outcome !== 'succeeded') failed += 1;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, sender));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    JSON.stringify({
      deliveries,
      endpoints,
      concurrency,
      failed,
      seconds: Number(seconds.toFixed(2)),
      perSecond: Math.round(deliveries / seconds),
    }),
  );
  agent.destroy();
  await worker.terminate();
  certs.remove();
}

void main();
