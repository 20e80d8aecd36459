import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/** One request as a receiver saw it: which endpoint, which payment, when made and when received. */
export interface Arrival {
  endpoint: number;
  eventId: string;
  /** `data.object.id` of the event: the payment. */
  objectId: string;
  /** The event's `created_at`, epoch ms. */
  createdAt: number;
  /** When the body was read in full, epoch ms with a fraction. */
  arrivedAt: number;
}

/** A request kept whole, so its signature can be checked against the exact bytes. */
export interface Sample {
  endpoint: number;
  rawBody: Uint8Array;
  signature: string | undefined;
  eventId: string | undefined;
}

export interface BenchReceivers {
  ports: number[];
  /** Called with each batch of arrivals as the worker reports them (every 20 ms or so). */
  onArrivals(listener: (arrivals: Arrival[]) => void): void;
  /** Every arrival reported so far is handed to the listener before this resolves. */
  flush(): Promise<void>;
  /** Samples taken since the last call: each endpoint's first request after it, and one in 500. */
  takeSamples(): Sample[];
  close(): Promise<void>;
}

/**
 * The merchants' servers: `count` HTTPS servers on 127.0.0.1 that answer 200 once the body is
 * read, in a worker thread so their TLS work runs beside the service rather than on its event
 * loop (a merchant's server is another process). Keep-alive outlasts a bench phase, so no
 * connection is dropped under the sender between phases.
 */
const WORKER = `
const { createServer } = require('node:https');
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
let batch = [];
let samples = [];
let seen = 0;
const sampled = new Set();
const post = () => {
  if (batch.length === 0 && samples.length === 0) return;
  parentPort.postMessage({ arrivals: batch, samples });
  batch = [];
  samples = [];
};
setInterval(post, 20);
parentPort.on('message', (message) => {
  if (message === 'resample') sampled.clear();
  if (message !== 'flush') return;
  post();
  parentPort.postMessage({ flushed: true });
});
const servers = Array.from({ length: workerData.count }, (_, endpoint) => {
  const server = createServer({ cert: workerData.cert, key: workerData.key }, (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const arrivedAt = performance.timeOrigin + performance.now();
      const raw = Buffer.concat(chunks);
      const eventId = req.headers['xaalis-event-id'];
      let createdAt = NaN;
      let objectId = '';
      try {
        const event = JSON.parse(raw.toString('utf8'));
        createdAt = Date.parse(event.created_at);
        objectId = String(event.data && event.data.object && event.data.object.id);
      } catch {}
      batch.push([endpoint, eventId ?? '', objectId, createdAt, arrivedAt]);
      seen += 1;
      if (!sampled.has(endpoint) || seen % 500 === 0) {
        sampled.add(endpoint);
        samples.push({ endpoint, rawBody: raw, signature: req.headers['xaalis-signature'], eventId });
      }
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
  });
  server.keepAliveTimeout = 120000;
  return server;
});
Promise.all(servers.map((server) => new Promise((listening) =>
  server.listen(0, '127.0.0.1', () => listening(server.address().port)),
))).then((ports) => parentPort.postMessage({ ports }));
`;

type Row = [number, string, string, number, number];
type Message = { ports: number[] } | { arrivals: Row[]; samples: Sample[] } | { flushed: true };

export async function startBenchReceivers(options: {
  count: number;
  cert: string;
  key: string;
}): Promise<BenchReceivers> {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { count: options.count, cert: options.cert, key: options.key },
  });
  const [first] = (await once(worker, 'message')) as [Message];
  if (!('ports' in first)) throw new Error('the receivers did not start');
  let listener: (arrivals: Arrival[]) => void = () => undefined;
  let samples: Sample[] = [];
  let flushed: (() => void) | undefined;
  worker.on('message', (message: Message) => {
    if ('flushed' in message) flushed?.();
    if (!('arrivals' in message)) return;
    samples = samples.concat(message.samples);
    listener(
      message.arrivals.map(([endpoint, eventId, objectId, createdAt, arrivedAt]) => ({
        endpoint,
        eventId,
        objectId,
        createdAt,
        arrivedAt,
      })),
    );
  });
  return {
    ports: first.ports,
    onArrivals(next) {
      listener = next;
    },
    flush() {
      return new Promise<void>((done) => {
        flushed = done;
        worker.postMessage('flush');
      });
    },
    takeSamples() {
      const taken = samples;
      samples = [];
      worker.postMessage('resample');
      return taken;
    },
    async close() {
      await worker.terminate();
    },
  };
}
