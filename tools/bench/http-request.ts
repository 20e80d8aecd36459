import { randomBytes } from 'node:crypto';
import { type Agent, request as send } from 'node:http';

/**
 * One HTTP request of the bench and the check of its answer, shared by the calls made before a
 * measurement (`httpGet`, `httpPostJson`) and the load thread's loops.
 */

/** A request, and what its answer must be. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Sent to in turn, one request each, instead of `url` alone: reads of many records. */
  urls?: string[];
  headers?: Record<string, string>;
  /** Added to `headers` in turn, one set per request: callers with keys of their own. */
  headerSets?: Array<Record<string, string>>;
  /** A JSON body (POST). */
  body?: string;
  /** A new `Idempotency-Key` on every request: one key per order, as merchants send them. */
  freshIdempotencyKey?: boolean;
  /** A new random value of this top-level field of the body on every request (`action_id`). */
  freshBodyField?: string;
  /** Top-level fields every answer's JSON must hold, e.g. `{ status: 'requires_payment_method' }`. */
  expectFields?: Record<string, string | number | boolean | null>;
}

/** The operation of a load loop: `load` sent again and again, to each of its `urls` in turn. */
export function checkedSender(agent: Agent, load: LoadRequest): () => Promise<string> {
  const urls = load.urls ?? [load.url];
  const headerSets = load.headerSets ?? [{}];
  let next = 0;
  return () => {
    const url = urls[next % urls.length]!;
    const extra = headerSets[next % headerSets.length]!;
    next += 1;
    return sendChecked(agent, load, url, extra);
  };
}

/** Resolves with the body of a right answer; rejects with what was wrong with any other. */
export function sendChecked(
  agent: Agent,
  load: LoadRequest,
  url = load.url,
  extraHeaders: Record<string, string> = {},
): Promise<string> {
  const headers: Record<string, string | number> = { ...load.headers, ...extraHeaders };
  const body =
    load.body !== undefined && load.freshBodyField !== undefined
      ? JSON.stringify({
          ...JSON.parse(load.body),
          [load.freshBodyField]: randomBytes(12).toString('hex'),
        })
      : load.body;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (load.freshIdempotencyKey) headers['idempotency-key'] = randomBytes(12).toString('hex');
  return new Promise((resolve, reject) => {
    const req = send(url, { agent, method: load.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const wrong = wrongAnswer(load, res.statusCode ?? 0, text);
        if (wrong === undefined) resolve(text);
        else reject(new Error(`${load.method} ${url} answered ${wrong}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
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
