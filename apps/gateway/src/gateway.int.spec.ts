import { WebhookSecrets } from '@xaalis/identity';
import { randomToken } from '@xaalis/kernel';
import { describeWithPostgres } from '@xaalis/testing';
import { type Gateway, startGateway, zeroBalanceBus } from './testing/gateway-harness';
import { HttpClient, type HttpResult, sessionCookie } from './testing/http-client';

const HOUR = 3_600_000;
const PASSWORD = 'correct horse battery';

describeWithPostgres('gateway: identity and access over HTTP', () => {
  let gw: Gateway;
  let http: HttpClient;
  /** Every secret the service handed out: none may show up anywhere else. */
  const secrets: string[] = [];
  const consoleLines: string[] = [];

  let ownerCookie: string;
  let developerCookie: string;
  let strangerCookie: string;
  let merchantId: string;
  let testKey: { id: string; secret_key: string };

  const signUp = async (email: string, name = 'Someone') => {
    const response = await http.call('POST', '/dashboard/v1/auth/sign-up', {
      body: { email, password: PASSWORD, name },
    });
    expect(response.status).toBe(201);
    return { response, cookie: sessionCookie(response.headers) };
  };
  const dashboard = (
    method: string,
    path: string,
    cookie: string,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ) => http.call(method, `/dashboard/v1${path}`, { cookie, ...options });
  const keys = (mode = 'test') => `/merchants/${merchantId}/${mode}`;
  const issueKey = async (
    mode = 'test',
    cookie = ownerCookie,
    path = `/merchants/${merchantId}/${mode}`,
  ) => {
    const response = await dashboard('POST', `${path}/api-keys`, cookie, {
      idempotencyKey: randomToken(16),
    });
    expect(response.status).toBe(201);
    secrets.push(response.body.secret_key);
    return response.body as { id: string; secret_key: string };
  };
  const api = (method: string, path: string, bearer: string, body?: unknown) =>
    http.call(method, `/v1${path}`, { bearer, body });
  const expectError = (response: HttpResult, status: number, code: string) => {
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  };

  beforeAll(async () => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        consoleLines.push(args.map(String).join(' '));
      });
    }
    gw = await startGateway();
    http = new HttpClient(gw.url);
  });

  afterAll(async () => {
    await gw?.close();
    jest.restoreAllMocks();
  });

  describe('users and sessions', () => {
    it('signs up with a usr_ id and an HttpOnly, SameSite=Lax session cookie (no Secure over http)', async () => {
      const { response, cookie } = await signUp('Awa@Boutique.sn', 'Awa Ndiaye');
      expect(response.body).toEqual({
        user: {
          object: 'user',
          id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/),
          email: 'awa@boutique.sn',
          name: 'Awa Ndiaye',
          created_at: expect.any(String),
        },
      });
      const setCookie = response.headers
        .getSetCookie()
        .find((line) => line.startsWith('better-auth.session_token='));
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      expect(setCookie).not.toMatch(/Secure/i);
      ownerCookie = cookie;
    });

    it('refuses a password outside 10..128 characters, a bad email and a taken email', async () => {
      for (const body of [
        { email: 'x@shop.sn', password: 'short', name: 'X' },
        { email: 'x@shop.sn', password: 'p'.repeat(129), name: 'X' },
        { email: 'not-an-email', password: PASSWORD, name: 'X' },
        // @IsEmail takes these; better-auth refused them, which was a 500 (found by the fuzzer).
        { email: '!@a.aa', password: PASSWORD, name: 'X' },
        { email: '/a@a.ev', password: PASSWORD, name: 'X' },
        { email: 'awa@boutique.sn', password: PASSWORD, name: 'Again' },
      ]) {
        expectError(
          await http.call('POST', '/dashboard/v1/auth/sign-up', { body }),
          400,
          'validation_error',
        );
      }
    });

    it('signs in: 401 for a wrong password or unknown email (same body), 200 and a cookie otherwise', async () => {
      const wrong = await http.call('POST', '/dashboard/v1/auth/sign-in', {
        body: { email: 'awa@boutique.sn', password: 'wrong password!' },
      });
      const unknown = await http.call('POST', '/dashboard/v1/auth/sign-in', {
        body: { email: 'nobody@shop.sn', password: PASSWORD },
      });
      expectError(wrong, 401, 'authentication_required');
      expect(unknown.text).toBe(wrong.text);
      const odd = await http.call('POST', '/dashboard/v1/auth/sign-in', {
        body: { email: '!x3@a.aa', password: PASSWORD },
      });
      expectError(odd, 400, 'validation_error');
      expect(odd.body.error.details).toEqual([
        expect.objectContaining({ field: 'email', issue: expect.stringContaining('email') }),
      ]);
      const right = await http.call('POST', '/dashboard/v1/auth/sign-in', {
        body: { email: 'awa@boutique.sn', password: PASSWORD },
      });
      expect(right.status).toBe(200);
      expect(right.body.user.email).toBe('awa@boutique.sn');
      ownerCookie = sessionCookie(right.headers);
    });

    it('answers /me only with a valid session', async () => {
      expectError(await http.call('GET', '/dashboard/v1/me'), 401, 'authentication_required');
      expectError(
        await dashboard('GET', '/me', 'better-auth.session_token=forged.value'),
        401,
        'authentication_required',
      );
      const me = await dashboard('GET', '/me', ownerCookie);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        user: expect.objectContaining({ email: 'awa@boutique.sn' }),
        memberships: [],
      });
    });
  });

  describe('merchants and members', () => {
    it('creates a merchant: the webhook secret is shown once and the caller becomes owner', async () => {
      expectError(
        await dashboard('POST', '/merchants', ownerCookie, { body: { name: 'A' } }),
        400,
        'validation_error',
      );
      const created = await dashboard('POST', '/merchants', ownerCookie, {
        body: { name: 'Boutique Awa' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        object: 'merchant',
        id: expect.stringMatching(/^mer_[0-9A-Z]{26}$/),
        name: 'Boutique Awa',
        webhook_secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
        created_at: gw.clock.now().toISOString(),
      });
      merchantId = created.body.id;
      secrets.push(created.body.webhook_secret);
      // Kept encrypted, yet recoverable by the service: the dispatcher must sign with it.
      expect(await gw.app.get(WebhookSecrets).secretOf(merchantId)).toBe(
        created.body.webhook_secret,
      );
      const me = await dashboard('GET', '/me', ownerCookie);
      expect(me.body.memberships).toEqual([{ merchant_id: merchantId, role: 'owner' }]);
    });

    it('adds an existing user as developer, once', async () => {
      developerCookie = (await signUp('dev@boutique.sn', 'Dev')).cookie;
      strangerCookie = (await signUp('stranger@other.sn', 'Stranger')).cookie;
      const added = await dashboard('POST', `/merchants/${merchantId}/members`, ownerCookie, {
        body: { email: 'DEV@boutique.sn', role: 'developer' },
      });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        merchant_id: merchantId,
        user_id: expect.stringMatching(/^usr_/),
        role: 'developer',
      });
      const again = await dashboard('POST', `/merchants/${merchantId}/members`, ownerCookie, {
        body: { email: 'dev@boutique.sn', role: 'owner' },
      });
      expectError(again, 409, 'invalid_state');
      const nobody = await dashboard('POST', `/merchants/${merchantId}/members`, ownerCookie, {
        body: { email: 'ghost@shop.sn', role: 'developer' },
      });
      expectError(nobody, 404, 'not_found');
      expectError(
        await dashboard('POST', `/merchants/${merchantId}/members`, ownerCookie, {
          body: { email: 'dev@boutique.sn', role: 'admin' },
        }),
        400,
        'validation_error',
      );
      const me = await dashboard('GET', '/me', developerCookie);
      expect(me.body.memberships).toEqual([{ merchant_id: merchantId, role: 'developer' }]);
    });

    it('hides a merchant from non-members (404) and refuses an unknown mode (400)', async () => {
      expectError(await dashboard('GET', `${keys()}/api-keys`, strangerCookie), 404, 'not_found');
      expectError(
        await dashboard(
          'GET',
          `/merchants/mer_01JD0000000000000000000000/test/api-keys`,
          ownerCookie,
        ),
        404,
        'not_found',
      );
      expectError(
        await dashboard('GET', `/merchants/${merchantId}/prod/api-keys`, ownerCookie),
        400,
        'validation_error',
      );
    });

    it('gives a developer 403 on owner-only calls', async () => {
      const idempotencyKey = randomToken(16);
      expectError(
        await dashboard('POST', `${keys()}/api-keys`, developerCookie, { idempotencyKey }),
        403,
        'forbidden',
      );
      expectError(
        await dashboard('POST', `${keys()}/restricted-api-keys`, developerCookie, {
          idempotencyKey,
          body: { scopes: ['balance:read'] },
        }),
        403,
        'forbidden',
      );
      expectError(
        await dashboard('POST', `${keys()}/api-keys/key_x/roll`, developerCookie, {
          idempotencyKey,
          body: {},
        }),
        403,
        'forbidden',
      );
      expectError(
        await dashboard('DELETE', `${keys()}/api-keys/key_x`, developerCookie, { idempotencyKey }),
        403,
        'forbidden',
      );
      expectError(
        await dashboard('POST', `/merchants/${merchantId}/members`, developerCookie, {
          body: { email: 'stranger@other.sn', role: 'developer' },
        }),
        403,
        'forbidden',
      );
      expectError(
        await dashboard(
          'PUT',
          `/merchants/${merchantId}/live/provider-identities/wave`,
          developerCookie,
          { body: { aggregated_merchant_id: 'am-1' } },
        ),
        403,
        'forbidden',
      );
    });

    it('lets the owner set the live Wave identity', async () => {
      const set = await dashboard(
        'PUT',
        `/merchants/${merchantId}/live/provider-identities/wave`,
        ownerCookie,
        {
          body: { aggregated_merchant_id: 'am-4242' },
        },
      );
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({
        provider: 'wave',
        livemode: true,
        aggregated_merchant_id: 'am-4242',
      });
      const row = await gw.prisma.providerIdentity.findFirst({ where: { merchantId } });
      expect(row).toMatchObject({ mode: 'live', aggregatedMerchantId: 'am-4242' });
    });
  });

  describe('API keys', () => {
    it('needs an idempotency key to issue one', async () => {
      expectError(
        await dashboard('POST', `${keys()}/api-keys`, ownerCookie),
        400,
        'validation_error',
      );
    });

    it('issues a secret key that works the moment it is returned, and replays it without the secret', async () => {
      const idempotencyKey = randomToken(16);
      const issued = await dashboard('POST', `${keys()}/api-keys`, ownerCookie, { idempotencyKey });
      expect(issued.status).toBe(201);
      expect(issued.body).toEqual({
        object: 'api_key',
        id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
        mode: 'test',
        scopes: null,
        display_prefix: expect.stringMatching(/^sk_test_.{4}….{4}$/),
        last_used_at: null,
        revoked_at: null,
        scheduled_revoke_at: null,
        created_at: gw.clock.now().toISOString(),
        secret_key: expect.stringMatching(/^sk_test_[0-9A-Za-z]{32}$/),
      });
      testKey = issued.body;
      secrets.push(testKey.secret_key);

      const account = await api('GET', '/account', testKey.secret_key);
      expect(account.status).toBe(200);
      expect(account.body).toEqual({
        object: 'account',
        id: merchantId,
        name: 'Boutique Awa',
        livemode: false,
        webhook_url: null,
      });

      const replay = await dashboard('POST', `${keys()}/api-keys`, ownerCookie, { idempotencyKey });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const { secret_key: _secret, ...withoutSecret } = issued.body;
      expect(replay.body).toEqual(withoutSecret);
    });

    it('lists keys to owner and developer, newest first, never with a secret, with last use', async () => {
      const second = await issueKey();
      for (const cookie of [ownerCookie, developerCookie]) {
        const list = await dashboard('GET', `${keys()}/api-keys`, cookie);
        expect(list.status).toBe(200);
        expect(list.body).toMatchObject({ object: 'list', has_more: false });
        expect(list.body.data.map((key: { id: string }) => key.id)).toEqual([
          second.id,
          testKey.id,
        ]);
        expect(list.text).not.toContain('secret_key');
        expect(list.body.data[1].last_used_at).toBe(gw.clock.now().toISOString());
      }
      const page = await dashboard('GET', `${keys()}/api-keys?limit=1`, ownerCookie);
      expect(page.body.has_more).toBe(true);
      const next = await dashboard(
        'GET',
        `${keys()}/api-keys?limit=1&starting_after=${page.body.data[0].id}`,
        ownerCookie,
      );
      expect(next.body.data.map((key: { id: string }) => key.id)).toEqual([testKey.id]);
      expectError(
        await dashboard('GET', `${keys()}/api-keys?starting_after=key_nope`, ownerCookie),
        404,
        'not_found',
      );
      expectError(
        await dashboard('GET', `${keys()}/api-keys?limit=0`, ownerCookie),
        400,
        'validation_error',
      );
    });

    it('issues restricted keys: scopes enforced, write implies read, unknown scope 400', async () => {
      const issue = (scopes: unknown) =>
        dashboard('POST', `${keys()}/restricted-api-keys`, ownerCookie, {
          idempotencyKey: randomToken(16),
          body: { scopes },
        });
      expectError(await issue(['payments:delete']), 400, 'validation_error');
      expectError(await issue(['wallets:read']), 400, 'validation_error');
      expectError(await issue([]), 400, 'validation_error');

      const balanceOnly = await issue(['balance:read']);
      expect(balanceOnly.status).toBe(201);
      expect(balanceOnly.body).toMatchObject({
        object: 'api_key',
        scopes: ['balance:read'],
        secret_key: expect.stringMatching(/^rk_test_/),
      });
      secrets.push(balanceOnly.body.secret_key);
      expect((await api('GET', '/balance', balanceOnly.body.secret_key)).status).toBe(200);
      expectError(await api('GET', '/account', balanceOnly.body.secret_key), 403, 'forbidden');
      expectError(
        await api('PATCH', '/account', balanceOnly.body.secret_key, {
          webhook_url: 'https://hooks.test/a',
        }),
        403,
        'forbidden',
      );

      const accountWriter = await issue(['account:write']);
      secrets.push(accountWriter.body.secret_key);
      expect((await api('GET', '/account', accountWriter.body.secret_key)).status).toBe(200);
      expectError(await api('GET', '/balance', accountWriter.body.secret_key), 403, 'forbidden');
    });

    it('rolls a key: the old one works until the end of its grace, then gets the unknown-key 401', async () => {
      const old = await issueKey();
      const rolled = await dashboard('POST', `${keys()}/api-keys/${old.id}/roll`, ownerCookie, {
        idempotencyKey: randomToken(16),
        body: { grace_hours: 2 },
      });
      expect(rolled.status).toBe(201);
      const scheduled = new Date(gw.clock.now().getTime() + 2 * HOUR).toISOString();
      expect(rolled.body).toMatchObject({
        object: 'api_key',
        secret_key: expect.stringMatching(/^sk_test_/),
        previous_key: { id: old.id, scheduled_revoke_at: scheduled, revoked_at: null },
      });
      expect(rolled.body.previous_key).not.toHaveProperty('secret_key');
      secrets.push(rolled.body.secret_key);

      expect((await api('GET', '/account', old.secret_key)).status).toBe(200);
      expect((await api('GET', '/account', rolled.body.secret_key)).status).toBe(200);
      gw.clock.advance(2 * HOUR - 1);
      expect((await api('GET', '/account', old.secret_key)).status).toBe(200);
      gw.clock.advance(1);
      const expired = await api('GET', '/account', old.secret_key);
      const unknown = await api('GET', '/account', `sk_test_${randomToken(32)}`);
      expectError(expired, 401, 'authentication_required');
      expect(expired.text).toBe(unknown.text);

      const listed = await dashboard('GET', `${keys()}/api-keys`, ownerCookie);
      expect(listed.body.data.find((key: { id: string }) => key.id === old.id)).toMatchObject({
        revoked_at: scheduled,
      });
      expectError(
        await dashboard('POST', `${keys()}/api-keys/${old.id}/roll`, ownerCookie, {
          idempotencyKey: randomToken(16),
          body: {},
        }),
        409,
        'invalid_state',
      );
      expectError(
        await dashboard('POST', `${keys()}/api-keys/${rolled.body.id}/roll`, ownerCookie, {
          idempotencyKey: randomToken(16),
          body: { grace_hours: 721 },
        }),
        400,
        'validation_error',
      );
    });

    it('rolls with no grace: the old key stops at once', async () => {
      const old = await issueKey();
      const rolled = await dashboard('POST', `${keys()}/api-keys/${old.id}/roll`, ownerCookie, {
        idempotencyKey: randomToken(16),
        body: {},
      });
      expect(rolled.status).toBe(201);
      secrets.push(rolled.body.secret_key);
      expectError(await api('GET', '/account', old.secret_key), 401, 'authentication_required');
      expect((await api('GET', '/account', rolled.body.secret_key)).status).toBe(200);
    });

    it('revokes a key at once: the same 401 as unknown, malformed or missing keys', async () => {
      const key = await issueKey();
      expect((await api('GET', '/account', key.secret_key)).status).toBe(200);
      const revoked = await dashboard('DELETE', `${keys()}/api-keys/${key.id}`, ownerCookie, {
        idempotencyKey: randomToken(16),
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({
        object: 'api_key',
        id: key.id,
        revoked_at: gw.clock.now().toISOString(),
      });
      expect(revoked.text).not.toContain('secret_key');

      const answers = [
        await api('GET', '/account', key.secret_key),
        await api('GET', '/account', `sk_test_${randomToken(32)}`),
        await api('GET', '/account', 'nonsense'),
        await http.call('GET', '/v1/account'),
        await http.call('GET', '/v1/account', {
          headers: { authorization: `Basic ${key.secret_key}` },
        }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.text).toBe(answers[0].text);
      }
      expectError(
        await dashboard('DELETE', `${keys()}/api-keys/${key.id}`, ownerCookie, {
          idempotencyKey: randomToken(16),
        }),
        409,
        'invalid_state',
      );
      expectError(
        await dashboard(
          'DELETE',
          `${keys()}/api-keys/key_01JD0000000000000000000000`,
          ownerCookie,
          { idempotencyKey: randomToken(16) },
        ),
        404,
        'not_found',
      );
    });

    it('keeps modes apart: a test key never sees live objects, nor the reverse', async () => {
      const live = await issueKey('live');
      expect(live.secret_key).toMatch(/^sk_live_/);
      const account = await api('GET', '/account', live.secret_key);
      expect(account.body).toMatchObject({ livemode: true });
      const liveList = await dashboard('GET', `${keys('live')}/api-keys`, ownerCookie);
      expect(liveList.body.data.map((key: { id: string }) => key.id)).toEqual([live.id]);
      // The test key through the live path, and the live key through the test path: not found.
      const idempotencyKey = randomToken(16);
      expectError(
        await dashboard('DELETE', `${keys('live')}/api-keys/${testKey.id}`, ownerCookie, {
          idempotencyKey,
        }),
        404,
        'not_found',
      );
      expectError(
        await dashboard('POST', `${keys()}/api-keys/${live.id}/roll`, ownerCookie, {
          idempotencyKey: randomToken(16),
          body: {},
        }),
        404,
        'not_found',
      );
    });

    it("hides another merchant's keys and merchant (404)", async () => {
      const other = await dashboard('POST', '/merchants', strangerCookie, {
        body: { name: 'Other Shop' },
      });
      secrets.push(other.body.webhook_secret);
      const otherKey = await issueKey('test', strangerCookie, `/merchants/${other.body.id}/test`);
      expect((await api('GET', '/account', otherKey.secret_key)).body.id).toBe(other.body.id);
      expectError(
        await dashboard('DELETE', `${keys()}/api-keys/${otherKey.id}`, ownerCookie, {
          idempotencyKey: randomToken(16),
        }),
        404,
        'not_found',
      );
      expectError(
        await dashboard('GET', `/merchants/${other.body.id}/test/api-keys`, ownerCookie),
        404,
        'not_found',
      );
    });

    it('refuses agent-shaped keys it does not know, and secret keys on /v1/agent', async () => {
      expectError(
        await api('GET', '/account', `ak_test_${randomToken(32)}`),
        401,
        'authentication_required',
      );
      // No /v1/agent route exists yet: the router answers before any guard.
      expect((await api('GET', '/agent/payouts', testKey.secret_key)).status).toBe(404);
    });
  });

  describe('merchant API', () => {
    it('PATCH /v1/account: https only, no private targets, then the mode default', async () => {
      expectError(
        await api('PATCH', '/account', testKey.secret_key, { webhook_url: 'http://hooks.test/x' }),
        400,
        'validation_error',
      );
      expectError(
        await api('PATCH', '/account', testKey.secret_key, { webhook_url: 'https://127.0.0.1/x' }),
        400,
        'validation_error',
      );
      expectError(
        await api('PATCH', '/account', testKey.secret_key, {
          webhook_url: 'https://hooks.test/x',
          extra: 1,
        }),
        400,
        'validation_error',
      );
      const updated = await api('PATCH', '/account', testKey.secret_key, {
        webhook_url: 'https://hooks.test/xaalis',
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({
        object: 'account',
        id: merchantId,
        name: 'Boutique Awa',
        livemode: false,
        webhook_url: 'https://hooks.test/xaalis',
      });
      expect((await api('GET', '/account', testKey.secret_key)).body.webhook_url).toBe(
        'https://hooks.test/xaalis',
      );
    });

    it('GET /v1/balance asks the payouts app over the bus', async () => {
      zeroBalanceBus.requests.length = 0;
      const balance = await api('GET', '/balance', testKey.secret_key);
      expect(balance.status).toBe(200);
      expect(balance.body).toEqual({
        object: 'balance',
        livemode: false,
        currency: 'XOF',
        available: 0,
        pending: 0,
      });
      expect(zeroBalanceBus.requests).toEqual([
        { pattern: 'payouts.balance.get', data: { merchant_id: merchantId, mode: 'test' } },
      ]);
    });
  });

  describe('what no client may send (CONTRACT 2)', () => {
    /** A payment creation sent as this exact text; the error of its answer. */
    const createPayment = async (text: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${gw.url}/v1/payments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${testKey.secret_key}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: text,
      });
      const body = (await response.json()) as {
        error: { code: string; message: string; details?: Array<{ field: string; issue: string }> };
      };
      return { status: response.status, ...body.error };
    };

    it('refuses deep JSON and unstorable strings in a payment before anything runs', async () => {
      zeroBalanceBus.requests.length = 0;
      const deep = await createPayment(
        `{"amount":100,"metadata":${'{"a":'.repeat(5_000)}"x"${'}'.repeat(5_000)}}`,
      );
      expect(deep).toMatchObject({
        status: 400,
        message: 'The request body is nested deeper than 32 levels of objects and arrays.',
      });
      for (const [body, field] of [
        [{ amount: 100, description: 'a\u0000b' }, 'description'],
        [{ amount: 100, metadata: { 'a\u0000b': 'x' } }, 'metadata.a\u0000b'],
        [{ amount: 100, metadata: { k: 'a\u0000b' } }, 'metadata.k'],
        [{ amount: 100, client_reference: '\ud800' }, 'client_reference'],
      ] as const) {
        const error = await createPayment(JSON.stringify(body));
        expect({
          status: error.status,
          code: error.code,
          fields: error.details?.map((d) => d.field),
        }).toEqual({
          status: 400,
          code: 'validation_error',
          fields: [field],
        });
      }
      const key = await createPayment('{"amount":100}', { 'idempotency-key': 'cl\u00e9' });
      expect(key).toMatchObject({
        status: 400,
        details: [{ field: 'idempotency-key', issue: 'must be printable ASCII characters' }],
      });
      expect(zeroBalanceBus.requests).toEqual([]);
    });

    it('answers URLs no object or filter can match with 404 / 400, never 500', async () => {
      for (const path of [`/payments/${'a'.repeat(256)}`, '/payments/%ff', '/payments/%zz']) {
        expectError(await api('GET', path, testKey.secret_key), 404, 'not_found');
      }
      expectError(
        await dashboard('GET', '/merchants/%00/test/api-keys', ownerCookie),
        404,
        'not_found',
      );
      const query = await api('GET', '/payments?starting_after=%00', testKey.secret_key);
      expectError(query, 400, 'validation_error');
      expect(query.body.error.details).toEqual([
        { field: 'starting_after', issue: 'must not contain the NUL character (U+0000)' },
      ]);
    });
  });

  describe('sign-out', () => {
    it('ends the session server-side', async () => {
      const signedOut = await http.call('POST', '/dashboard/v1/auth/sign-out', {
        cookie: ownerCookie,
      });
      expect(signedOut.status).toBe(204);
      expect(
        signedOut.headers.getSetCookie().some((line) => /^better-auth\.session_token=;/.test(line)),
      ).toBe(true);
      // The client keeps sending the old cookie: the server no longer knows it.
      expectError(await dashboard('GET', '/me', ownerCookie), 401, 'authentication_required');
      expectError(
        await http.call('POST', '/dashboard/v1/auth/sign-out', { cookie: ownerCookie }),
        401,
        'authentication_required',
      );
    });
  });

  describe('OpenAPI', () => {
    it('documents every route with its auth', async () => {
      const document = await http.call('GET', '/docs/openapi.json');
      expect(document.status).toBe(200);
      expect(Object.keys(document.body.paths)).toEqual(
        expect.arrayContaining([
          '/dashboard/v1/auth/sign-up',
          '/dashboard/v1/me',
          '/dashboard/v1/merchants/{merchantId}/{mode}/api-keys',
          '/dashboard/v1/merchants/{merchantId}/{mode}/api-keys/{id}/roll',
          '/dashboard/v1/merchants/{merchantId}/live/provider-identities/wave',
          '/v1/account',
          '/v1/balance',
        ]),
      );
      expect(document.body.paths['/v1/account'].get.security).toEqual([{ api_key: [] }]);
      expect(document.body.paths['/dashboard/v1/me'].get.security).toEqual([{ session: [] }]);
      expect(document.body.components.schemas.RestrictedApiKeyDto.required).toEqual(['scopes']);
    });
  });

  describe('secrets', () => {
    it('were handed out', () => {
      expect(secrets.length).toBeGreaterThanOrEqual(10);
    });

    it('appear in exactly one response each: the one that issued them', () => {
      for (const secret of secrets) {
        expect(http.transcript.filter((entry) => entry.includes(secret))).toHaveLength(1);
      }
    });

    it('are nowhere in the database in clear, in any table', async () => {
      const { rows: tables } = await gw.db.pool.query<{ name: string }>(
        `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name
           FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
      );
      expect(tables.map((table) => table.name)).toEqual(
        expect.arrayContaining(['public.api_keys', 'public.http_idempotency_keys']),
      );
      for (const { name } of tables) {
        const { rows } = await gw.db.pool.query<{ text: string }>(
          `SELECT t::text AS text FROM ${name} t`,
        );
        const dump = rows.map((row) => row.text).join('\n');
        for (const secret of secrets) {
          // The random part alone, so an encoding of the whole string would not slip through either.
          expect({
            table: name,
            leaked: dump.includes(secret.slice(secret.lastIndexOf('_') + 1)),
          }).toEqual({ table: name, leaked: false });
        }
      }
    });

    it('are in no log line', () => {
      const logged = [...gw.logs.lines, ...consoleLines].join('\n');
      for (const secret of secrets)
        expect(logged.includes(secret.slice(secret.lastIndexOf('_') + 1))).toBe(false);
    });
  });
});
