import {
  newMerchant,
  newUser,
  idempotencyKey,
  unknownSecretKey,
  WEBHOOK_HOST,
  type NewUser,
} from './fixtures';
import { HttpClient, sessionCookieLine, type HttpResult } from './http';

const HOUR_MS = 3_600_000;
const GRACE_HOURS = 2;

export interface IdentityFlowResult {
  /** The merchant's owner, to sign in again after a restart. */
  owner: NewUser;
  merchantId: string;
  /** A secret key that works when the flow ends (the rolled key). */
  secretKey: string;
  /** A restricted key (`account:read`) that works when the flow ends. */
  restrictedKey: string;
  /** Every secret the service handed out or was given: none may show up in any process output. */
  secrets: string[];
  /** Every exchange, for failure messages. */
  transcript: string[];
}

/**
 * CONTRACT 5 end to end through the gateway at `baseUrl`, the same in both modes: users and
 * sessions, a merchant and its members, API keys (secret, restricted, rolled, revoked), access
 * rules, the merchant API (account, balance over the bus), and the operational endpoints.
 * Each step throws with its name in front of the failed assertion.
 */
export async function driveIdentityFlow(baseUrl: string): Promise<IdentityFlowResult> {
  const http = new HttpClient(baseUrl);
  const secrets: string[] = [];
  const keep = <T extends string | undefined>(secret: T): T => {
    if (secret) secrets.push(secret);
    return secret;
  };
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Error) {
        error.message = `identity flow, step "${name}":\n${error.message}\n\nlast exchanges:\n${http.transcript.slice(-5).join('\n')}`;
      }
      throw error;
    }
  };

  const owner = newUser();
  const developer = newUser();
  const stranger = newUser();
  for (const user of [owner, developer, stranger]) keep(user.password);

  await step('GET /health answers ok', async () => {
    const health = await http.get('/health');
    expect({ status: health.status, body: health.body }).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
  });

  const ownerBrowser = await step(
    'sign-up sets an HttpOnly, SameSite=Lax session cookie',
    async () => {
      const browser = http.browser();
      const signUp = await browser.post('/dashboard/v1/auth/sign-up', { body: owner });
      expect(signUp.status).toBe(201);
      expect(signUp.body).toEqual({
        user: {
          object: 'user',
          id: expect.stringMatching(/^usr_[0-9A-Za-z]{20,}$/),
          email: owner.email,
          name: owner.name,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      });
      const cookie = sessionCookieLine(signUp.headers);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/;\s*Secure/i); // served over http
      keep(browser.sessionToken);
      return browser;
    },
  );

  const ownerSession = await step(
    'sign-in: 401 for a wrong password, 200 and a new session otherwise',
    async () => {
      const browser = http.browser();
      const wrong = await browser.post('/dashboard/v1/auth/sign-in', {
        body: { email: owner.email, password: `${owner.password}-wrong` },
      });
      expectError(wrong, 401, 'authentication_required');
      expect(browser.sessionToken).toBeUndefined();
      const right = await browser.post('/dashboard/v1/auth/sign-in', {
        body: { email: owner.email, password: owner.password },
      });
      expect(right.status).toBe(200);
      expect(right.body.user).toMatchObject({ email: owner.email, name: owner.name });
      expect(browser.sessionToken).toEqual(expect.any(String));
      expect(browser.sessionToken).not.toBe(ownerBrowser.sessionToken);
      keep(browser.sessionToken);
      return browser;
    },
  );

  await step('me: the signed-in user, no memberships yet; 401 without a session', async () => {
    expectError(await http.browser().get('/dashboard/v1/me'), 401, 'authentication_required');
    const me = await ownerSession.get('/dashboard/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user: expect.objectContaining({ email: owner.email }),
      memberships: [],
    });
    // The sign-up's own session is a session too.
    expect((await ownerBrowser.get('/dashboard/v1/me')).status).toBe(200);
  });

  const merchantId = await step(
    'create a merchant: webhook_secret shown once, caller is owner',
    async () => {
      const shop = newMerchant();
      const created = await ownerSession.post('/dashboard/v1/merchants', { body: shop });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        object: 'merchant',
        id: expect.stringMatching(/^mer_[0-9A-Za-z]{20,}$/),
        name: shop.name,
        webhook_secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{22,}$/),
        created_at: expect.any(String),
      });
      keep(created.body.webhook_secret);
      const me = await ownerSession.get('/dashboard/v1/me');
      expect(me.body.memberships).toEqual([{ merchant_id: created.body.id, role: 'owner' }]);
      return created.body.id as string;
    },
  );
  const dashboardKeys = `/dashboard/v1/merchants/${merchantId}/test`;

  const developerSession = await step('add an existing user as developer', async () => {
    const browser = http.browser();
    const signUp = await browser.post('/dashboard/v1/auth/sign-up', { body: developer });
    expect(signUp.status).toBe(201);
    keep(browser.sessionToken);
    const added = await ownerSession.post(`/dashboard/v1/merchants/${merchantId}/members`, {
      body: { email: developer.email, role: 'developer' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      merchant_id: merchantId,
      user_id: signUp.body.user.id,
      role: 'developer',
    });
    const me = await browser.get('/dashboard/v1/me');
    expect(me.body.memberships).toEqual([{ merchant_id: merchantId, role: 'developer' }]);
    return browser;
  });

  const secretKey = await step(
    'issue a secret key: idempotency key required, secret shown once, works at once',
    async () => {
      expectError(await ownerSession.post(`${dashboardKeys}/api-keys`), 400, 'validation_error');
      const issued = await ownerSession.post(`${dashboardKeys}/api-keys`, {
        idempotencyKey: idempotencyKey(),
      });
      expect(issued.status).toBe(201);
      expect(issued.body).toMatchObject({
        object: 'api_key',
        id: expect.stringMatching(/^key_/),
        mode: 'test',
        scopes: null,
        revoked_at: null,
        secret_key: expect.stringMatching(/^sk_test_[0-9A-Za-z]{22,}$/),
      });
      keep(issued.body.secret_key);
      const account = await http.get('/v1/account', { bearer: issued.body.secret_key });
      expect(account.status).toBe(200);
      return issued.body as { id: string; secret_key: string };
    },
  );

  await step('list keys to owner and developer, never with a secret', async () => {
    for (const session of [ownerSession, developerSession]) {
      const list = await session.get(`${dashboardKeys}/api-keys`);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ object: 'list', has_more: false });
      expect(list.body.data.map((key: { id: string }) => key.id)).toContain(secretKey.id);
      expect(list.text).not.toContain('secret_key');
      expect(list.text).not.toContain(secretKey.secret_key);
    }
  });

  const restrictedKey = await step('restricted key: its scope 200, any other 403', async () => {
    expectError(
      await ownerSession.post(`${dashboardKeys}/restricted-api-keys`, {
        idempotencyKey: idempotencyKey(),
        body: { scopes: ['account:delete'] },
      }),
      400,
      'validation_error',
    );
    const issued = await ownerSession.post(`${dashboardKeys}/restricted-api-keys`, {
      idempotencyKey: idempotencyKey(),
      body: { scopes: ['account:read'] },
    });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      object: 'api_key',
      scopes: ['account:read'],
      secret_key: expect.stringMatching(/^rk_test_/),
    });
    const key = keep(issued.body.secret_key as string);
    const account = await http.get('/v1/account', { bearer: key });
    expect(account.status).toBe(200);
    expect(account.body.id).toBe(merchantId);
    expectError(await http.get('/v1/balance', { bearer: key }), 403, 'forbidden');
    expectError(
      await http.patch('/v1/account', {
        bearer: key,
        body: { webhook_url: `https://${WEBHOOK_HOST}/r` },
      }),
      403,
      'forbidden',
    );
    return key;
  });

  const rolled = await step(
    `roll with grace_hours ${GRACE_HOURS}: new key works, old key works during grace`,
    async () => {
      const response = await ownerSession.post(`${dashboardKeys}/api-keys/${secretKey.id}/roll`, {
        idempotencyKey: idempotencyKey(),
        body: { grace_hours: GRACE_HOURS },
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        object: 'api_key',
        id: expect.stringMatching(/^key_/),
        secret_key: expect.stringMatching(/^sk_test_/),
        previous_key: {
          object: 'api_key',
          id: secretKey.id,
          revoked_at: null,
          scheduled_revoke_at: expect.any(String),
        },
      });
      keep(response.body.secret_key);
      expect(response.body.id).not.toBe(secretKey.id);
      expect(response.body.secret_key).not.toBe(secretKey.secret_key);
      expect(response.body.previous_key).not.toHaveProperty('secret_key');
      const graceMs =
        Date.parse(response.body.previous_key.scheduled_revoke_at) -
        Date.parse(response.body.created_at);
      expect(Math.abs(graceMs - GRACE_HOURS * HOUR_MS)).toBeLessThan(5_000);
      expect((await http.get('/v1/account', { bearer: response.body.secret_key })).status).toBe(
        200,
      );
      expect((await http.get('/v1/account', { bearer: secretKey.secret_key })).status).toBe(200);
      return response.body as { id: string; secret_key: string };
    },
  );

  await step(
    'revoke the old key in its grace: 401 with the same body as an unknown key',
    async () => {
      const revoked = await ownerSession.delete(`${dashboardKeys}/api-keys/${secretKey.id}`, {
        idempotencyKey: idempotencyKey(),
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({
        object: 'api_key',
        id: secretKey.id,
        revoked_at: expect.any(String),
      });
      expect(revoked.text).not.toContain('secret_key');
      const refused = await http.get('/v1/account', { bearer: secretKey.secret_key });
      const unknown = await http.get('/v1/account', { bearer: unknownSecretKey() });
      expectError(refused, 401, 'authentication_required');
      expect(refused.text).toBe(unknown.text);
      expect((await http.get('/v1/account', { bearer: rolled.secret_key })).status).toBe(200);
    },
  );

  await step('a developer gets 403 on owner-only calls', async () => {
    expectError(
      await developerSession.post(`${dashboardKeys}/api-keys`, {
        idempotencyKey: idempotencyKey(),
      }),
      403,
      'forbidden',
    );
    expectError(
      await developerSession.post(`/dashboard/v1/merchants/${merchantId}/members`, {
        body: { email: stranger.email, role: 'developer' },
      }),
      403,
      'forbidden',
    );
  });

  await step("another merchant's resources are 404", async () => {
    const strangerSession = http.browser();
    expect(
      (await strangerSession.post('/dashboard/v1/auth/sign-up', { body: stranger })).status,
    ).toBe(201);
    keep(strangerSession.sessionToken);
    const other = await strangerSession.post('/dashboard/v1/merchants', { body: newMerchant() });
    expect(other.status).toBe(201);
    keep(other.body.webhook_secret);
    const otherKey = await strangerSession.post(
      `/dashboard/v1/merchants/${other.body.id}/test/api-keys`,
      {
        idempotencyKey: idempotencyKey(),
      },
    );
    expect(otherKey.status).toBe(201);
    keep(otherKey.body.secret_key);
    expect((await http.get('/v1/account', { bearer: otherKey.body.secret_key })).body.id).toBe(
      other.body.id,
    );

    expectError(
      await ownerSession.get(`/dashboard/v1/merchants/${other.body.id}/test/api-keys`),
      404,
      'not_found',
    );
    expectError(
      await ownerSession.delete(`${dashboardKeys}/api-keys/${otherKey.body.id}`, {
        idempotencyKey: idempotencyKey(),
      }),
      404,
      'not_found',
    );
    expectError(await strangerSession.get(`${dashboardKeys}/api-keys`), 404, 'not_found');
    // Nor does the stranger's key reach the first merchant: the account it sees is its own.
    expect((await http.get('/v1/account', { bearer: rolled.secret_key })).body.id).toBe(merchantId);
  });

  await step(
    'GET and PATCH /v1/account: https only, no private target, then the new URL',
    async () => {
      const before = await http.get('/v1/account', { bearer: rolled.secret_key });
      expect(before.status).toBe(200);
      expect(before.body).toEqual({
        object: 'account',
        id: merchantId,
        name: expect.any(String),
        livemode: false,
        webhook_url: null,
      });
      for (const webhook_url of [`http://${WEBHOOK_HOST}/hooks`, 'https://127.0.0.1/hooks']) {
        expectError(
          await http.patch('/v1/account', { bearer: rolled.secret_key, body: { webhook_url } }),
          400,
          'validation_error',
        );
      }
      const url = `https://${WEBHOOK_HOST}/xaalis`;
      const updated = await http.patch('/v1/account', {
        bearer: rolled.secret_key,
        body: { webhook_url: url },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ ...before.body, webhook_url: url });
      expect((await http.get('/v1/account', { bearer: rolled.secret_key })).body.webhook_url).toBe(
        url,
      );
    },
  );

  await step('GET /v1/balance: zeros, from the payouts ledger over the bus', async () => {
    const balance = await http.get('/v1/balance', { bearer: rolled.secret_key });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({
      object: 'balance',
      livemode: false,
      currency: 'XOF',
      available: 0,
      pending: 0,
    });
  });

  await step('GET /metrics is Prometheus text', async () => {
    const metrics = await http.get('/metrics', { headers: { accept: 'text/plain' } });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/^# HELP http_requests_total /m);
    expect(metrics.text).toMatch(/^http_requests_total\{.*route="\/v1\/account".*\} \d+/m);
  });

  await step('GET /docs/openapi.json describes the API', async () => {
    const document = await http.get('/docs/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\./);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/dashboard/v1/auth/sign-up',
        '/dashboard/v1/me',
        '/v1/account',
        '/v1/balance',
      ]),
    );
  });

  return {
    owner,
    merchantId,
    secretKey: rolled.secret_key,
    restrictedKey,
    secrets,
    transcript: http.transcript,
  };
}

export function expectError(response: HttpResult, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
}
