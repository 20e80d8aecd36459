import { randomToken } from '@xaalis/kernel';
import { IdempotencyStore } from '@xaalis/http';
import { describeWithPostgres } from '@xaalis/testing';
import { type Gateway, startGateway } from '../testing/gateway-harness';
import { HttpClient, sessionCookie } from '../testing/http-client';
import { WebhookSecretHandler } from './webhook-secret.handler';

const HOUR = 3_600_000;

/**
 * `gateway.webhook_secret.get` around a roll, on the gateway's clock: the reply the webhooks app
 * signs with. The HTTP side end to end is tools/e2e/webhook-secret-rotation.e2e.spec.ts.
 */
describeWithPostgres('gateway: webhook secret roll and the signing secrets it answers', () => {
  let gw: Gateway;
  let http: HttpClient;
  let cookie: string;
  let merchantId: string;
  /** Every webhook secret handed out, oldest first. */
  const secrets: string[] = [];

  const signingSecrets = (merchant_id: string) =>
    gw.app.get(WebhookSecretHandler).get({ merchant_id });

  const roll = async (overlapHours?: number) => {
    const response = await http.call(
      'POST',
      `/dashboard/v1/merchants/${merchantId}/webhook-secret/roll`,
      {
        cookie,
        idempotencyKey: randomToken(16),
        body: overlapHours === undefined ? {} : { overlap_hours: overlapHours },
      },
    );
    expect(response.status).toBe(201);
    secrets.push(response.body.webhook_secret);
    return response.body;
  };

  beforeAll(async () => {
    gw = await startGateway();
    http = new HttpClient(gw.url);
    const signUp = await http.call('POST', '/dashboard/v1/auth/sign-up', {
      body: { email: 'owner@rotation.sn', password: 'correct horse battery', name: 'Owner' },
    });
    cookie = sessionCookie(signUp.headers);
    const created = await http.call('POST', '/dashboard/v1/merchants', {
      cookie,
      body: { name: 'Boutique Rotation' },
    });
    merchantId = created.body.id;
    secrets.push(created.body.webhook_secret);
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('answers the secret given at creation before any roll', async () => {
    expect(await signingSecrets(merchantId)).toEqual({ ok: true, value: { secrets } });
  });

  it('answers the new secret then the old one until the overlap ends, then the new one alone', async () => {
    const rolledAt = gw.clock.now();
    const rolled = await roll(2);
    expect(rolled).toEqual({
      object: 'webhook_secret',
      webhook_secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      previous_expires_at: new Date(rolledAt.getTime() + 2 * HOUR).toISOString(),
      created_at: rolledAt.toISOString(),
    });
    const [created, current] = secrets;
    expect(current).not.toBe(created);

    expect(await signingSecrets(merchantId)).toEqual({
      ok: true,
      value: { secrets: [current, created] },
    });
    gw.clock.advance(2 * HOUR - 1);
    expect(await signingSecrets(merchantId)).toEqual({
      ok: true,
      value: { secrets: [current, created] },
    });
    gw.clock.advance(1);
    expect(await signingSecrets(merchantId)).toEqual({ ok: true, value: { secrets: [current] } });
  });

  it('defaults to a 24-hour overlap', async () => {
    const rolledAt = gw.clock.now();
    const rolled = await roll();
    expect(rolled.previous_expires_at).toBe(new Date(rolledAt.getTime() + 24 * HOUR).toISOString());
  });

  it('a second roll during an overlap retires the older secret at once', async () => {
    const [, replaced, current] = secrets;
    expect(await signingSecrets(merchantId)).toEqual({
      ok: true,
      value: { secrets: [current, replaced] },
    });
    await roll(1);
    expect(await signingSecrets(merchantId)).toEqual({
      ok: true,
      value: { secrets: [secrets[3], current] },
    });
  });

  it('with overlap_hours 0, only the new secret signs, at once', async () => {
    const rolled = await roll(0);
    expect(rolled.previous_expires_at).toBeNull();
    expect(await signingSecrets(merchantId)).toEqual({
      ok: true,
      value: { secrets: [secrets[4]] },
    });
  });

  it('refuses an unknown merchant and a malformed request as data, not as a crash', async () => {
    expect(await signingSecrets('mer_01JD0000000000000000000099')).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'not_found' }),
    });
    expect(await signingSecrets('not-a-merchant')).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'validation_error' }),
    });
  });

  it('is documented in the OpenAPI document with its bounds', async () => {
    const document = await http.call('GET', '/docs/openapi.json');
    const operation =
      document.body.paths['/dashboard/v1/merchants/{merchantId}/webhook-secret/roll'].post;
    expect(operation.security).toEqual([{ session: [] }]);
    expect(document.body.components.schemas.RollWebhookSecretDto.properties.overlap_hours).toEqual(
      expect.objectContaining({
        minimum: 0,
        maximum: 168,
        description: expect.stringMatching(/24 by default/),
      }),
    );
  });

  it('keeps no secret in clear in any table, nor in the logs', async () => {
    expect(new Set(secrets).size).toBe(5);
    const { rows: tables } = await gw.db.pool.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name
         FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining([
        'public.merchants',
        'public.es_messages',
        'public.http_idempotency_keys',
      ]),
    );
    // What a replay sends back is stored, but sealed like the read model's copy.
    await gw.app.get(IdempotencyStore).outcomesStored();
    const { rows: stored } = await gw.db.pool.query<{ body: string }>(
      `SELECT response_body AS body FROM http_idempotency_keys WHERE operation LIKE '%/webhook-secret/roll'`,
    );
    expect(stored).toHaveLength(4);
    for (const { body } of stored) expect(JSON.parse(body).webhook_secret).toMatch(/^v1\./);
    const leaks: string[] = [];
    for (const { name } of tables) {
      const { rows } = await gw.db.pool.query<{ text: string }>(
        `SELECT t::text AS text FROM ${name} t`,
      );
      const dump = rows.map((row) => row.text).join('\n');
      for (const secret of secrets) {
        // The random part alone, so an encoding of the whole string would not slip through either.
        if (dump.includes(secret.slice('whsec_'.length))) leaks.push(`${name} has ${secret}`);
      }
    }
    const logs = gw.logs.lines.join('\n');
    for (const secret of secrets) if (logs.includes(secret)) leaks.push(`logs have ${secret}`);
    expect(leaks).toEqual([]);
  });
});
