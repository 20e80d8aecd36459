/**
 * The load thread of `http-load.ts`: runs closed loops of one request, checks every answer, and
 * sends the latencies back. The first wrong answer stops every loop and is reported.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request as send } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import type { LoadRequest, LoadResult, LoadRun } from './http-load';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves when its answer is right, rejects with what was wrong. */
function once(load: LoadRequest): Promise<void> {
  const headers: Record<string, string | number> = { ...load.headers };
  if (load.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(load.body);
  }
  if (load.freshIdempotencyKey) headers['idempotency-key'] = randomBytes(12).toString('hex');
  return new Promise((resolve, reject) => {
    const req = send(load.url, { agent, method: load.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const wrong = wrongAnswer(load, res.statusCode ?? 0, text);
        if (wrong === undefined) resolve();
        else reject(new Error(`${load.method} ${load.url} answered ${wrong}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(load.body);
  });
}

/** What is wrong with an answer, or undefined. GET wants a 200, POST any 2xx. */
function wrongAnswer(load: LoadRequest, status: number, text: string): string | undefined {
  const ok = load.method === 'GET' ? status === 200 : status >= 200 && status < 300;
  if (!ok) return `${status}: ${text.slice(0, 300)}`;
  if (load.expectFields === undefined) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `${status} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  for (const [field, value] of Object.entries(load.expectFields)) {
    if (json[field] !== value) return `${status} with ${field} ${JSON.stringify(json[field])}`;
  }
  return undefined;
}

async function run({ id, request, concurrency, durationMs }: LoadRun): Promise<LoadResult> {
  const latencies: number[] = [];
  let failure: string | undefined;
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (failure === undefined && performance.now() < end) {
        const t0 = performance.now();
        try {
          await once(request);
        } catch (error) {
          failure ??= error instanceof Error ? error.message : String(error);
          return;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  if (failure !== undefined) return { id, error: failure };
  return {
    id,
    latencies: Float64Array.from(latencies),
    seconds: (performance.now() - start) / 1000,
  };
}

const port = parentPort;
if (port === null) throw new Error('http-load.worker.ts runs as a worker thread');
port.on('message', (message: LoadRun) => {
  void run(message).then((result) => port.postMessage(result));
});
