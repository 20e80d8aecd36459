import type { HttpResult } from './http';

export interface RawRequest {
  /** Sent as is: for bodies `HttpClient` would not send (broken JSON, other media types). */
  body?: string;
  headers?: Record<string, string>;
}

/**
 * One request without `HttpClient`'s JSON encoding and without following redirects, so a test
 * sees a malformed body's answer or a 303 and its `Location` as the browser first gets them.
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  request: RawRequest = {},
): Promise<HttpResult> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return {
    status: response.status,
    body: json ? JSON.parse(text) : text,
    text,
    headers: response.headers,
  };
}
