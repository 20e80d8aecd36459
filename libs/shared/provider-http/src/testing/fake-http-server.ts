import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The small HTTP server under each provider fake: a real listener on 127.0.0.1, every request
 * recorded, and injected failures. A `'timeout'` failure lets the fake do the work and then
 * withholds the answer until `close()`, which is the case reconciliation exists for: the
 * provider acted, the caller never heard.
 */
export type FailureKind = 500 | 429 | 400 | 'timeout';

/** The failures a fake answers with an error body in its provider's shape. */
export type InjectedStatus = Exclude<FailureKind, 'timeout'>;

export interface RecordedRequest {
  method: string;
  /** Path and query string, e.g. `/v1/checkout/sessions/search?client_reference=pay_1`. */
  path: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  rawBody: string;
  /** Parsed JSON, form fields as a record, or undefined when the body is neither. */
  body: unknown;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Returned by a handler: answer, or hold the answer (`'hold'`) until the server closes. */
export type FakeHandlerResult = FakeReply | 'hold';

/** A request as a fake's handler sees it: the recorded request and its parsed URL. */
export type FakeRequest = RecordedRequest & { url: URL };

/**
 * One endpoint of a fake. A fake keeps its endpoints in lists, one for each API of the provider
 * (Wave's Checkout and Payout APIs, Orange Money's merchant payments and transactions), so
 * another API (a cash-in, a payout lookup) is one more list behind the same key check and
 * failure injection.
 */
export interface FakeRoute {
  method: 'GET' | 'POST';
  /** Matched against the whole path without the query; its groups, URI-decoded, are `params`. */
  path: RegExp;
  reply(request: FakeRequest, params: string[]): FakeReply;
}

/** The reply of the first route for this method and path, or null when there is none. */
export function dispatch(routes: readonly FakeRoute[], request: FakeRequest): FakeReply | null {
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const match = route.path.exec(request.url.pathname);
    if (match === null) continue;
    return route.reply(
      request,
      match.slice(1).map((param) => decodeURIComponent(param)),
    );
  }
  return null;
}

export interface FakeHttpServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeHttpServer(
  handle: (request: FakeRequest) => FakeHandlerResult,
): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((rawBody) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers,
        rawBody,
        body: parseBody(headers['content-type'], rawBody),
      };
      requests.push(recorded);
      let result: FakeHandlerResult;
      try {
        result = handle({ ...recorded, url: new URL(recorded.path, 'http://127.0.0.1') });
      } catch (error) {
        result = {
          status: 500,
          body: { message: error instanceof Error ? error.message : 'fake failed' },
        };
      }
      if (result === 'hold') return;
      const body =
        result.body === undefined
          ? ''
          : typeof result.body === 'string'
            ? result.body
            : JSON.stringify(result.body);
      res.writeHead(result.status, {
        ...(body === '' ? {} : { 'content-type': 'application/json' }),
        ...result.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Failures to inject, consumed in order by the requests they apply to. */
export class FailureQueue {
  private readonly queue: Array<{ kind: FailureKind; method?: string }> = [];

  /**
   * `times` failures; with `method`, only requests of that method take them, so a background
   * lookup (GET) cannot use up a failure meant for a creation (POST).
   */
  push(kind: FailureKind, times: number, method?: string): void {
    for (let i = 0; i < times; i++) this.queue.push({ kind, method });
  }

  /**
   * One request under the next failure that applies to it, if any: the injected error instead of
   * `reply`, or for a timeout `reply` run (the provider acted) and its answer held.
   */
  answer(
    injected: (kind: InjectedStatus) => FakeReply,
    reply: () => FakeReply,
    method?: string,
  ): FakeHandlerResult {
    const index = this.queue.findIndex(
      (failure) => failure.method === undefined || failure.method === method,
    );
    const failure = index === -1 ? null : this.queue.splice(index, 1)[0]!.kind;
    if (failure !== null && failure !== 'timeout') return injected(failure);
    const answer = reply();
    return failure === 'timeout' ? 'hold' : answer;
  }
}

/** A signed or keyed notification as the provider would POST it. */
export interface FakeNotification {
  headers: Record<string, string>;
  rawBody: string;
}

/** POSTs a notification to a receiver, as the provider does; answers with what it replied. */
export async function postNotification(
  targetUrl: string,
  notification: FakeNotification,
): Promise<{ status: number; body: string }> {
  const response = await fetch(targetUrl, {
    method: 'POST',
    headers: notification.headers,
    body: notification.rawBody,
  });
  return { status: response.status, body: await response.text() };
}

export function randomId(length = 14): string {
  return randomBytes(length)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')
    .slice(0, length);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseBody(contentType: string | undefined, rawBody: string): unknown {
  if (rawBody === '') return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(rawBody));
  }
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    return undefined;
  }
}
