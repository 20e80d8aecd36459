import type { ClientRequest } from 'node:http';
import type { Agent, RequestOptions } from 'node:https';
import { request } from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  BlockedAddressError,
  checkConnectTarget,
  guardedLookup,
  isAllowedHost,
  isBlockedAddress,
  normalizeHost,
  resolveAll,
  type Resolve,
} from '@xaalis/net-guard';
import { describeError, statusFailure } from './failure-text';
import { createWebhookAgent } from './webhook-agent';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 4096;
export const USER_AGENT = 'Xaalis-Webhooks/1';

export interface SendWebhookInput {
  url: string;
  /** The signed bytes; sent exactly as given. */
  rawBody: string | Buffer;
  /** Signature and event-id headers; `content-type` and `content-length` are set here. */
  headers: Readonly<Record<string, string>>;
  /** WEBHOOK_ALLOWED_HOSTS: hosts whose private addresses may be reached. */
  allowedHosts: readonly string[];
  /** The whole exchange, from DNS to the last byte read (spec 6: 10 seconds). */
  timeoutMs?: number;
  /** Response bytes read before the connection is dropped. */
  maxResponseBytes?: number;
  /** From `createWebhookAgent`, shared by the dispatcher; a module-wide one otherwise. */
  agent?: Agent;
  /** Name resolution behind the connect-time guard; tests stand in a DNS here. */
  resolve?: Resolve;
}

export interface SendResult {
  outcome: 'succeeded' | 'failed';
  /** The receiver's status, or null when none arrived. */
  statusCode: number | null;
  /** Short text for the delivery's `last_error`; null on success. */
  error: string | null;
  durationMs: number;
}

interface Exchange {
  statusCode: number | null;
  error: string | null;
  /** Failed on a kept-alive connection the receiver had closed, before any answer. */
  stale: boolean;
}

let sharedAgent: Agent | undefined;

/**
 * One webhook POST (spec 6, Delivery). Never throws: every way it can go wrong is a `failed`
 * result. 2xx within `timeoutMs` succeeds; a timeout, any 3xx (never followed), 4xx, 5xx, TLS or
 * connection error fails. Every connection passes the connect-time guard (CONTRACT 9): IP literals
 * and `localhost` before connecting, names in `lookup`, and the connected address once more, which
 * also covers a caller's agent that brings its own lookup.
 */
export async function sendWebhook(input: SendWebhookInput): Promise<SendResult> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const result = (exchange: Pick<Exchange, 'statusCode' | 'error'>): SendResult => ({
    outcome: exchange.error === null ? 'succeeded' : 'failed',
    statusCode: exchange.statusCode,
    error: exchange.error,
    durationMs: Math.round(performance.now() - started),
  });

  const target = parseTarget(input.url, input.allowedHosts);
  if (typeof target === 'string') return result({ statusCode: null, error: target });

  const send = () =>
    exchange(target, input, timeoutMs, Math.max(1, started + timeoutMs - performance.now()));
  let outcome = await send();
  // Node's documented remedy for a kept-alive connection closed under us: one fresh attempt.
  // Nothing was answered, and delivery is at-least-once anyway.
  if (outcome.stale && performance.now() - started < timeoutMs) outcome = await send();
  return result(outcome);
}

function parseTarget(url: string, allowedHosts: readonly string[]): URL | string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'invalid URL';
  }
  if (target.protocol !== 'https:') return 'URL must use https://';
  if (target.username !== '' || target.password !== '') return 'URL must not contain credentials';
  try {
    checkConnectTarget(target.hostname, allowedHosts);
  } catch (error) {
    return describeError(error);
  }
  return target;
}

function exchange(
  target: URL,
  input: SendWebhookInput,
  timeoutMs: number,
  remainingMs: number,
): Promise<Exchange> {
  const body = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody) : input.rawBody;
  const maxResponseBytes = input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const host = normalizeHost(target.hostname);

  return new Promise((settle) => {
    let statusCode: number | null = null;
    const kept: Buffer[] = [];
    let settled = false;
    const done = (transportError: string | null, stale = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (statusCode === null) {
        settle({ statusCode, error: transportError ?? 'no response', stale });
      } else {
        const ok = statusCode >= 200 && statusCode < 300;
        const error = ok ? null : statusFailure(statusCode, Buffer.concat(kept));
        settle({ statusCode, error, stale: false });
      }
    };

    // A status that arrived in time decides the outcome even if the body is still trickling in.
    const timer = setTimeout(() => {
      done(`timeout: no response within ${timeoutMs} ms`);
      req?.destroy();
    }, remainingMs);

    const req = openRequest({
      method: 'POST',
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port === '' ? 443 : Number(target.port),
      path: `${target.pathname}${target.search}`,
      headers: requestHeaders(input.headers, body.length),
      agent: input.agent ?? (sharedAgent ??= createWebhookAgent()),
      lookup: guardedLookup(input.allowedHosts, input.resolve ?? resolveAll),
    });
    if (req === undefined) return done('invalid request headers');
    if (!isAllowedHost(host, input.allowedHosts)) checkConnectedAddress(req, host);

    req.on('response', (res) => {
      statusCode = res.statusCode ?? null;
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        if (seen < maxResponseBytes) kept.push(chunk.subarray(0, maxResponseBytes - seen));
        seen += chunk.length;
        if (seen > maxResponseBytes) {
          done(null);
          res.destroy();
        }
      });
      res.on('end', () => done(null));
      res.on('error', () => done(null));
    });

    req.on('error', (error: NodeJS.ErrnoException) => {
      const stale =
        req.reusedSocket &&
        statusCode === null &&
        (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      done(describeError(error), stale);
    });
    req.on('close', () => done('connection closed before a response'));
    req.end(body);
  });
}

function openRequest(options: RequestOptions): ClientRequest | undefined {
  try {
    return request(options);
  } catch {
    // Node refuses header values with control characters before sending anything.
    return undefined;
  }
}

/**
 * The last line of the guard: the address the socket actually reached, on a new connection as
 * soon as TCP connects (before TLS completes, so no request byte leaves) and on a reused one at
 * once. Catches an agent whose own `lookup` replaced the guarded one.
 */
function checkConnectedAddress(req: ClientRequest, host: string): void {
  req.on('socket', (socket: Socket) => {
    const check = () => {
      const address = socket.remoteAddress;
      if (address !== undefined && isBlockedAddress(address)) {
        req.destroy(new BlockedAddressError(host, address));
      }
    };
    if (socket.connecting) socket.once('connect', check);
    else check();
  });
}

function requestHeaders(
  given: Readonly<Record<string, string>>,
  length: number,
): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT };
  for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = value;
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(length);
  return headers;
}
