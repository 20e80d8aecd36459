import { connect } from 'node:net';

/**
 * A request exactly as it goes on the wire. fetch and node:http refuse to send most of what the
 * fuzz harness is after (bytes that are not UTF-8 in a path, a NUL in a header, a Content-Length
 * that lies, the same header twice), so the harness writes the bytes itself.
 */
export interface WireRequest {
  method: string;
  /** Path and query string, as bytes. */
  target: Buffer;
  /** In order, names and values as bytes (latin1); `host` is added. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /**
   * The Content-Length to declare, when it is not the body's length; null declares none. Default:
   * the body's length when there is a body.
   */
  contentLength?: number | null;
}

export interface WireResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export type WireOutcome =
  | { kind: 'response'; response: WireResponse; ms: number }
  | { kind: 'no_response'; reason: string; ms: number };

const CRLF = '\r\n';

/**
 * The request's bytes. One connection per request, so cases never share one; it stays keep-alive
 * (no `Connection: close`) because a server that closes with a body it has not read resets the
 * connection, and the reset cuts off its own answer: the harness would see silence that no real
 * client meets. The harness closes the connection once it has the answer.
 */
export function encodeRequest(request: WireRequest, host: string): Buffer {
  const head = [
    Buffer.from(`${request.method} `, 'latin1'),
    request.target,
    Buffer.from(` HTTP/1.1${CRLF}host: ${host}${CRLF}`, 'latin1'),
  ];
  for (const [name, value] of request.headers) {
    head.push(Buffer.from(`${name}: ${value}${CRLF}`, 'latin1'));
  }
  const length = request.contentLength === undefined ? request.body?.length : request.contentLength;
  if (length !== undefined && length !== null) {
    head.push(Buffer.from(`content-length: ${length}${CRLF}`, 'latin1'));
  }
  head.push(Buffer.from(CRLF, 'latin1'));
  if (request.body) head.push(request.body);
  return Buffer.concat(head);
}

/**
 * Sends one request and reads one response. A connection the server closes without an answer, or
 * no answer within `timeoutMs`, is a `no_response` (which the properties judge, not this function).
 */
export function sendWire(
  baseUrl: string,
  request: WireRequest,
  timeoutMs = 15_000,
): Promise<WireOutcome> {
  const url = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const finish = (outcome: WireOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ kind: 'no_response', reason: `no answer in ${timeoutMs} ms`, ms: timeoutMs }),
      timeoutMs,
    );
    const tryParse = (ended: boolean) => {
      const parsed = parseResponse(Buffer.concat(chunks), request.method === 'HEAD', ended);
      if (parsed) finish({ kind: 'response', response: parsed, ms: Date.now() - started });
      else if (ended) {
        finish({
          kind: 'no_response',
          reason: chunks.length === 0 ? 'closed without an answer' : 'closed mid-answer',
          ms: Date.now() - started,
        });
      }
    };
    socket.on('connect', () => {
      // Not end(): Node's server drops a request whose client half-closes before the answer.
      socket.write(encodeRequest(request, url.host));
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (chunks.length > 0) tryParse(true);
      else
        finish({
          kind: 'no_response',
          reason: error.code ?? error.message,
          ms: Date.now() - started,
        });
    });
  });
}

/**
 * The first HTTP/1.1 response in `bytes`, or undefined while it is incomplete. Bodies are framed by
 * Content-Length, chunked encoding, or (neither) the end of the connection.
 */
export function parseResponse(
  bytes: Buffer,
  headRequest: boolean,
  ended: boolean,
): WireResponse | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, headEnd).toString('latin1').split(CRLF);
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) return undefined;
  const status = Number(match[1]);
  // An interim answer (`100 Continue` to `Expect: 100-continue`): the real one follows it.
  if (status >= 100 && status < 200 && status !== 101) {
    return parseResponse(bytes.subarray(headEnd + 4), headRequest, ended);
  }
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rest = bytes.subarray(headEnd + 4);
  if (headRequest || status === 204 || status === 304 || status === 101) {
    return { status, headers, body: Buffer.alloc(0) };
  }
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const body = dechunk(rest);
    return body === undefined ? undefined : { status, headers, body };
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length < length) return undefined;
    return { status, headers, body: rest.subarray(0, length) };
  }
  return ended ? { status, headers, body: rest } : undefined;
}

/** A chunked body once its last chunk has arrived, else undefined. */
function dechunk(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (bytes.length < start + size + 2) return undefined;
    parts.push(bytes.subarray(start, start + size));
    at = start + size + 2;
  }
}
