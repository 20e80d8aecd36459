import { expect } from '@jest/globals';
import { idempotencyKey } from './fixtures';
import type { HttpClient, HttpResult } from './http';
import type { TestMerchant } from './merchant';
import { eventually } from './payments';
import { rawRequest } from './raw-http';

// Subscriptions, invoices and events are checked field by field by the suites (spec 2.3, 2.4).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BillingObject = any;

export const CUSTOMER = { phone: '+221771234567', name: 'Awa Diop' };
export const DAY_MS = 24 * 60 * 60_000;

/** A create body within spec 4.2's bounds; `overrides` replace fields. */
export const subscriptionBody = (overrides: Record<string, unknown> = {}) => ({
  customer: CUSTOMER,
  amount: 10_000,
  interval: 'month',
  ...overrides,
});

/** The dashboard create, as `browser` (owner or developer), with `key` unless it is null. */
export function createSubscription(
  browser: HttpClient,
  merchantId: string,
  body: unknown,
  key: string | null = idempotencyKey(),
): Promise<HttpResult> {
  return browser.post(`/dashboard/v1/merchants/${merchantId}/test/subscriptions`, {
    body,
    ...(key === null ? {} : { idempotencyKey: key }),
  });
}

/** A subscription that must be created: 201, `active`, its first invoice `open`. */
export async function newSubscription(
  merchant: TestMerchant,
  overrides: Record<string, unknown> = {},
): Promise<BillingObject> {
  const created = await createSubscription(
    merchant.owner,
    merchant.merchantId,
    subscriptionBody(overrides),
  );
  expect({ status: created.status, text: created.text }).toEqual({
    status: 201,
    text: expect.stringContaining('"subscription"'),
  });
  expect(created.body.latest_invoice.status).toBe('open');
  return created.body;
}

export async function getSubscription(
  http: HttpClient,
  key: string,
  id: string,
): Promise<BillingObject> {
  const got = await http.get(`/v1/subscriptions/${id}`, { bearer: key });
  expect({ status: got.status, text: got.text }).toEqual({ status: 200, text: expect.any(String) });
  return got.body;
}

export async function getInvoice(
  http: HttpClient,
  key: string,
  id: string,
): Promise<BillingObject> {
  const got = await http.get(`/v1/invoices/${id}`, { bearer: key });
  expect({ status: got.status, text: got.text }).toEqual({ status: 200, text: expect.any(String) });
  return got.body;
}

/** `POST /v1/subscriptions/{id}/test_advance` with a fresh key, which must answer 200. */
export async function advance(http: HttpClient, key: string, id: string): Promise<BillingObject> {
  const moved = await http.post(`/v1/subscriptions/${id}/test_advance`, {
    bearer: key,
    idempotencyKey: idempotencyKey(),
  });
  expect({ status: moved.status, text: moved.text }).toEqual({
    status: 200,
    text: expect.stringContaining('"subscription"'),
  });
  return moved.body;
}

/** `POST /v1/subscriptions/{id}/cancel`, which must answer 200: the subscription and `pending_payment`. */
export async function cancel(
  http: HttpClient,
  key: string,
  id: string,
  atPeriodEnd: boolean,
): Promise<BillingObject> {
  const canceled = await http.post(`/v1/subscriptions/${id}/cancel`, {
    bearer: key,
    idempotencyKey: idempotencyKey(),
    body: { at_period_end: atPeriodEnd },
  });
  expect({ status: canceled.status, text: canceled.text }).toEqual({
    status: 200,
    text: expect.stringContaining('"subscription"'),
  });
  return canceled.body;
}

/** The merchant's webhook events of one type (`GET /v1/events?type=`), newest first. */
export async function eventsOf(
  http: HttpClient,
  key: string,
  type: string,
): Promise<BillingObject[]> {
  const listed = await http.get(`/v1/events?type=${type}&limit=100`, { bearer: key });
  expect(listed.status).toBe(200);
  return listed.body.data;
}

/** The events of `type` whose object is `id`, oldest first. */
export async function eventsAbout(
  http: HttpClient,
  key: string,
  type: string,
  id: string,
): Promise<BillingObject[]> {
  const events = await eventsOf(http, key, type);
  return events.filter((event) => event.data.object.id === id).reverse();
}

/** Waits until `count` events of `type` about `id` are listed (the bus carries them). */
export async function awaitEvents(
  http: HttpClient,
  key: string,
  type: string,
  id: string,
  count = 1,
): Promise<BillingObject[]> {
  const seen = await eventually(
    () => eventsAbout(http, key, type, id),
    (events) => events.length >= count,
  );
  expect({ type, id, count: seen.length }).toEqual({ type, id, count });
  return seen;
}

/** The hosted invoice page, as a browser first gets it (no redirect followed). */
export const invoicePage = (baseUrl: string, invoiceId: string) =>
  rawRequest(baseUrl, 'GET', `/invoices/${invoiceId}/pay`, { headers: { accept: 'text/html' } });

/** The page's "Payer" form post: an empty form body, no redirect followed. */
export const postInvoicePage = (baseUrl: string, invoiceId: string) =>
  rawRequest(baseUrl, 'POST', `/invoices/${invoiceId}/pay`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: '',
  });

/** "Payer", which must answer 303 to a hosted checkout: the payment's id and `cs`. */
export async function startInvoiceCheckout(
  baseUrl: string,
  invoiceId: string,
): Promise<{ paymentId: string; cs: string; location: string }> {
  const posted = await postInvoicePage(baseUrl, invoiceId);
  const location = posted.headers.get('location') ?? '';
  expect({ status: posted.status, location }).toEqual({
    status: 303,
    location: expect.stringMatching(/\/checkout\/pay_\w+\?cs=/),
  });
  const url = new URL(location, baseUrl);
  return {
    paymentId: url.pathname.split('/').pop() as string,
    cs: url.searchParams.get('cs') as string,
    location,
  };
}
