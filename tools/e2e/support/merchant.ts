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
  const owner = http.browser();
  const user = newUser();
  expect((await owner.request('POST', '/dashboard/v1/auth/sign-up', { body: user })).status).toBe(201);
  const merchant = await owner.request('POST', '/dashboard/v1/merchants', {
    body: newMerchant(name === undefined ? {} : { name }),
  });
  expect(merchant.status).toBe(201);
  const merchantId: string = merchant.body.id;
  const key = async (mode: 'test' | 'live') => {
    const issued = await owner.request('POST', `/dashboard/v1/merchants/${merchantId}/${mode}/api-keys`, {
      idempotencyKey: idempotencyKey(),
    });
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
