import { expect } from '@jest/globals';
import { idempotencyKey, newUser } from './fixtures';
import type { HttpClient, HttpResult } from './http';
import { eventually } from './payments';

// Wallets and payouts are checked field by field by the suites; typing each would restate spec 2.5/2.6.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PayoutObject = any;

/** CONTRACT 6: a payout to it is refused by the sandbox (`recipient_refused`). */
export const REFUSED_RECIPIENT = '+221700000002';
export const RECIPIENT = '+221771234567';

/** A wallet body within spec 4.3's bounds; `overrides` replace fields. */
export function walletBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Refunds agent',
    provider: 'wave',
    max_payout_amount: 20_000,
    max_daily_amount: 50_000,
    allowed_recipient_phones: [RECIPIENT, REFUSED_RECIPIENT],
    ...overrides,
  };
}

/** `POST /v1/agent-wallets`, which must answer 201: the wallet. */
export async function newWallet(
  http: HttpClient,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<PayoutObject> {
  const created = await http.post('/v1/agent-wallets', {
    bearer: key,
    idempotencyKey: idempotencyKey(),
    body: walletBody(overrides),
  });
  expect({ status: created.status, text: created.text }).toEqual({
    status: 201,
    text: expect.stringContaining('"agent_wallet"'),
  });
  return created.body;
}

/** `POST /v1/agent-wallets/{id}/keys`, which must answer 201: the issued key, secret included. */
export async function issueAgentKey(
  http: HttpClient,
  key: string,
  walletId: string,
): Promise<PayoutObject> {
  const issued = await http.post(`/v1/agent-wallets/${walletId}/keys`, {
    bearer: key,
    idempotencyKey: idempotencyKey(),
  });
  expect({ status: issued.status, text: issued.text }).toEqual({
    status: 201,
    text: expect.stringContaining('"agent_key"'),
  });
  return issued.body;
}

/** `POST /v1/agent/payouts` with a fresh idempotency key (the action id names the payout). */
export function agentPayout(
  http: HttpClient,
  agentKey: string,
  body: { amount: number; phone?: string; action_id: string },
): Promise<HttpResult> {
  return http.post('/v1/agent/payouts', {
    bearer: agentKey,
    idempotencyKey: idempotencyKey(),
    body: {
      amount: body.amount,
      recipient: { phone: body.phone ?? RECIPIENT },
      action_id: body.action_id,
    },
  });
}

/** An agent payout that must be accepted: 201, `pending`. */
export async function newAgentPayout(
  http: HttpClient,
  agentKey: string,
  body: { amount: number; phone?: string; action_id: string },
): Promise<PayoutObject> {
  const created = await agentPayout(http, agentKey, body);
  expect({ status: created.status, text: created.text }).toEqual({
    status: 201,
    text: expect.stringContaining('"pending"'),
  });
  return created.body;
}

export async function getPayout(http: HttpClient, key: string, id: string): Promise<PayoutObject> {
  const got = await http.get(`/v1/payouts/${id}`, { bearer: key });
  expect(got.status).toBe(200);
  return got.body;
}

/** `GET /v1/agent/wallet`: the wallet with `spent_today` and `remaining_today`. */
export async function agentWallet(http: HttpClient, agentKey: string): Promise<PayoutObject> {
  const got = await http.get('/v1/agent/wallet', { bearer: agentKey });
  expect(got.status).toBe(200);
  return got.body;
}

/**
 * The agent's wallet once its day counts `spent` XOF. A payout's end is recorded on its own stream
 * first and freed on the wallet's stream after (`PayoutOutcomes.settle`), so for a moment after a
 * payout shows `failed` the day still counts it: stricter than the policy, never looser.
 */
export async function expectSpentToday(
  http: HttpClient,
  agentKey: string,
  spent: number,
): Promise<PayoutObject> {
  const wallet = await eventually(
    () => agentWallet(http, agentKey),
    (seen) => seen.spent_today === spent,
  );
  expect(wallet.spent_today).toBe(spent);
  return wallet;
}

/** CONTRACT 6's fee: basis points of the amount, rounded half up to whole XOF. */
export const payoutFeeOf = (amount: number, bps = 100) =>
  Math.floor((amount * bps + 5_000) / 10_000);

/** `POST /v1/test_helpers/payouts/{id}/{action}` with `key`. */
export function payoutTestHelper(
  http: HttpClient,
  key: string,
  id: string,
  action: 'succeed' | 'fail',
): Promise<HttpResult> {
  return http.post(`/v1/test_helpers/payouts/${id}/${action}`, { bearer: key });
}

/** One page of `GET /v1/agent-wallets/{id}/payouts?{query}`: its ids and `has_more`. */
export async function walletPayoutPage(
  http: HttpClient,
  key: string,
  walletId: string,
  query: string,
): Promise<{ ids: string[]; has_more: boolean }> {
  const page = await http.get(`/v1/agent-wallets/${walletId}/payouts?${query}`, { bearer: key });
  expect(page.status).toBe(200);
  return { ids: page.body.data.map((p: PayoutObject) => p.id), has_more: page.body.has_more };
}

/** A new user's signed-in browser, made a `developer` of the merchant by its owner. */
export async function addDeveloper(
  http: HttpClient,
  owner: HttpClient,
  merchantId: string,
): Promise<HttpClient> {
  const developer = http.browser();
  const user = newUser();
  expect((await developer.post('/dashboard/v1/auth/sign-up', { body: user })).status).toBe(201);
  const member = await owner.post(`/dashboard/v1/merchants/${merchantId}/members`, {
    body: { email: user.email, role: 'developer' },
  });
  expect(member.status).toBe(201);
  return developer;
}
