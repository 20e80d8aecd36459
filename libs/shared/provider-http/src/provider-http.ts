/**
 * One HTTP call to a provider, reduced to what the adapters decide on: the provider answered
 * (status and body), or it did not (timeout, network error). Nothing here throws, so an adapter
 * can never turn a lost response into a failure by accident.
 */
export type FetchFn = typeof fetch;

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export type ProviderResponse =
  | {
      kind: 'answered';
      status: number;
      /** The parsed JSON body; undefined when the body is empty or not JSON. */
      json: unknown;
      text: string;
    }
  | { kind: 'no_answer'; reason: string };

export async function callProvider(
  fetchFn: FetchFn,
  request: ProviderRequest,
): Promise<ProviderResponse> {
  try {
    const response = await fetchFn(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      // The body read below is bound by the same signal, so a provider that sends headers and
      // then stalls is a timeout too.
      signal: AbortSignal.timeout(request.timeoutMs),
      redirect: 'manual',
    });
    const text = await response.text();
    return { kind: 'answered', status: response.status, json: parseJson(text), text };
  } catch (error) {
    return { kind: 'no_answer', reason: describeNoAnswer(error) };
  }
}

/** A definitive no: a 4xx other than 408 (timeout) and 429 (rate limited), which may pass later. */
export function isDefinitiveRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A short, secret-free description of a provider's error answer, for `reason` fields. */
export function describeAnswer(provider: string, status: number, json: unknown): string {
  const code = errorCode(json);
  return code === null
    ? `${provider} answered ${status}`
    : `${provider} answered ${status} (${code})`;
}

function errorCode(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const body = json as Record<string, unknown>;
  for (const key of ['code', 'error', 'title']) {
    const value = body[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 100);
  }
  return null;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeNoAnswer(error: unknown): string {
  // Duck-typed: fetch's DOMException comes from another realm than this module's Error under
  // some runners, so `instanceof` would miss it.
  if (typeof error === 'object' && error !== null) {
    const { name, cause } = error as { name?: unknown; cause?: { code?: unknown } };
    if (name === 'TimeoutError') return 'timeout';
    if (name === 'AbortError') return 'aborted';
    if (cause !== undefined && cause !== null && typeof cause.code === 'string') {
      return `network error (${cause.code})`;
    }
  }
  return 'network error';
}

/** Header look-up that does not depend on how the transport cased the names. */
export function headerValue(
  headers: Record<string, string | undefined>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
