// Response bodies are checked field by field by the flows; typing each would only restate them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

import type { Exchange } from '../../openapi/traffic';

export const SESSION_COOKIE = 'better-auth.session_token';

/** Every exchange of every client in this test file, checked against the OpenAPI document. */
export const traffic: Exchange[] = [];

/** Keeps an exchange for the check against the document; `text` is the body as received. */
export function recordExchange(method: string, url: string, response: Response, text: string) {
  const contentType = response.headers.get('content-type') ?? '';
  const body = text === '' ? undefined : contentType.includes('json') ? JSON.parse(text) : text;
  traffic.push({ method, url, status: response.status, contentType, body });
}

export interface HttpResult {
  status: number;
  /** Parsed JSON when the response is JSON, else the text. */
  body: Json;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** `Authorization: Bearer <key>`. */
  bearer?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/**
 * fetch with JSON in and out, and a cookie jar: cookies a response sets are sent back on the next
 * request, as a browser would for the dashboard's session cookie. One client is one browser;
 * `browser()` opens another (a second user) on the same service, sharing the transcript.
 */
export class HttpClient {
  private readonly jar = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    /** Every exchange, `METHOD path status body`: where to look when a step fails. */
    readonly transcript: string[] = [],
  ) {}

  /** A client with an empty cookie jar on the same service. */
  browser(): HttpClient {
    return new HttpClient(this.baseUrl, this.transcript);
  }

  /** The session cookie's value, if the jar holds one. */
  get sessionToken(): string | undefined {
    return this.jar.get(SESSION_COOKIE);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    if (this.jar.size > 0)
      headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    this.keepCookies(response.headers);
    const text = await response.text();
    this.transcript.push(`${method} ${path} → ${response.status} ${text.slice(0, 500)}`);
    recordExchange(method, path, response, text);
    const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
    return {
      status: response.status,
      body: json ? JSON.parse(text) : text,
      text,
      headers: response.headers,
    };
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, options?: RequestOptions) => this.request('POST', path, options);
  patch = (path: string, options?: RequestOptions) => this.request('PATCH', path, options);
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);

  /** One host, so name is enough; an expired or emptied cookie leaves the jar. */
  private keepCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const split = pair.indexOf('=');
      if (split <= 0) continue;
      const name = pair.slice(0, split);
      const value = pair.slice(split + 1);
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=');
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
}

/** The `Set-Cookie` line of the session cookie, to check its attributes. */
export function sessionCookieLine(headers: Headers): string | undefined {
  return headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}
