import { randomToken } from '@xaalis/kernel';

// Response bodies are read by tests field by field; typing each would only restate the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A tiny fetch wrapper that keeps the raw text of every response, to look for leaked secrets. */
export interface HttpResult<Body = Json> {
  status: number;
  body: Body;
  text: string;
  headers: Headers;
}

export class HttpClient {
  /** Every response body and header block seen, in order. */
  readonly transcript: string[] = [];

  constructor(private readonly baseUrl: string) {}

  async call<Body = Json>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      cookie?: string;
      bearer?: string;
      idempotencyKey?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<HttpResult<Body>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.cookie) headers.cookie = options.cookie;
    if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    this.transcript.push(
      `${method} ${path} ${response.status} ${JSON.stringify([...response.headers])} ${text}`,
    );
    return {
      status: response.status,
      body: text === '' ? undefined : JSON.parse(text),
      text,
      headers: response.headers,
    };
  }
}

/** `name=value` of the session cookie a response set, for the next request's Cookie header. */
export function sessionCookie(headers: Headers): string {
  const cookie = headers.getSetCookie().find((line) => /^[^=]*\.session_token=/.test(line));
  if (!cookie) throw new Error('No session cookie was set');
  return cookie.split(';')[0];
}

/** An owner signed up through the dashboard, with a merchant of `name`. */
export interface SignedUpMerchant {
  cookie: string;
  merchantId: string;
  /** The merchant as `POST /dashboard/v1/merchants` answered it (its webhook secret shown once). */
  created: Json;
  /** A new secret key of `mode`, issued through the dashboard. */
  secretKey(mode: 'test' | 'live'): Promise<string>;
}

export async function signUpMerchant(
  http: HttpClient,
  email: string,
  name: string,
): Promise<SignedUpMerchant> {
  const signUp = await http.call('POST', '/dashboard/v1/auth/sign-up', {
    body: { email, password: 'correct horse battery', name: 'Owner' },
  });
  const cookie = sessionCookie(signUp.headers);
  const created = (await http.call('POST', '/dashboard/v1/merchants', { cookie, body: { name } }))
    .body;
  const merchantId: string = created.id;
  const secretKey = async (mode: 'test' | 'live') =>
    (
      await http.call('POST', `/dashboard/v1/merchants/${merchantId}/${mode}/api-keys`, {
        cookie,
        idempotencyKey: randomToken(16),
      })
    ).body.secret_key as string;
  return { cookie, merchantId, created, secretKey };
}
