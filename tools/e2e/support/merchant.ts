import { expect } from '@jest/globals';
import { idempotencyKey, newMerchant, newUser } from './fixtures';
import type { HttpClient } from './http';

export interface TestMerchant {
  merchantId: string;
  /** The owner's signed-in browser (dashboard calls). */
  owner: HttpClient;
  testKey: string;
  liveKey: string;
  webhookSecret: string;
}

/** Sign-up, a merchant, and a secret key per mode: what every payments flow starts from. */
export async function newTestMerchant(http: HttpClient, name?: string): Promise<TestMerchant> {
  return addTestMerchant(await signUpOwner(http), name);
}

/** A new user's signed-in browser, owner of nothing yet. */
export async function signUpOwner(http: HttpClient): Promise<HttpClient> {
  const owner = http.browser();
  const signUp = await owner.request('POST', '/dashboard/v1/auth/sign-up', { body: newUser() });
  expect(signUp.status).toBe(201);
  return owner;
}

/**
 * Another merchant of an owner who is already signed in. Sign-up hashes a password, which is the
 * slow part of `newTestMerchant` (about a second): suites that want a fresh merchant per test
 * sign up once and add merchants here.
 */
export async function addTestMerchant(owner: HttpClient, name?: string): Promise<TestMerchant> {
  const merchant = await owner.request('POST', '/dashboard/v1/merchants', {
    body: newMerchant(name === undefined ? {} : { name }),
  });
  expect(merchant.status).toBe(201);
  const merchantId: string = merchant.body.id;
  const key = async (mode: 'test' | 'live') => {
    const issued = await owner.request(
      'POST',
      `/dashboard/v1/merchants/${merchantId}/${mode}/api-keys`,
      {
        idempotencyKey: idempotencyKey(),
      },
    );
    expect(issued.status).toBe(201);
    return issued.body.secret_key as string;
  };
  return {
    merchantId,
    owner,
    testKey: await key('test'),
    liveKey: await key('live'),
    webhookSecret: merchant.body.webhook_secret,
  };
}

/** A restricted key (`rk_…`) of the merchant carrying exactly `scopes`. */
export async function issueRestrictedKey(
  merchant: TestMerchant,
  scopes: string[],
  mode: 'test' | 'live' = 'test',
): Promise<string> {
  const issued = await merchant.owner.request(
    'POST',
    `/dashboard/v1/merchants/${merchant.merchantId}/${mode}/restricted-api-keys`,
    { idempotencyKey: idempotencyKey(), body: { scopes } },
  );
  expect(issued.status).toBe(201);
  expect(issued.body.scopes).toEqual(scopes);
  return issued.body.secret_key as string;
}

/**
 * A suite's merchant maker: the first call signs an owner up, every call gives a fresh merchant
 * of that owner. `http` is read on first use, so it can be made before the service starts.
 */
export function merchantFactory(http: () => HttpClient): (name?: string) => Promise<TestMerchant> {
  let owner: Promise<HttpClient> | undefined;
  return async (name?: string) => {
    owner ??= signUpOwner(http());
    return addTestMerchant(await owner, name);
  };
}
