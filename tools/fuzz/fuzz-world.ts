import fc from 'fast-check';
import {
  idempotencyKey,
  newMerchant,
  newUser,
  unknownSecretKey,
  type NewUser,
} from '../e2e/support/fixtures';
import { HttpClient, SESSION_COOKIE, type HttpResult } from '../e2e/support/http';
import { CREDENTIAL_KINDS, type CredentialKind, type CredentialValues } from './credentials';
import type { FuzzRoute } from './openapi-routes';
import { validOf } from './schema-arbitraries';
import type { Pools } from './value-pools';

/**
 * What the fuzz cases run against: one merchant with objects in many states (payments pending,
 * succeeded, failed, expired; a refund; a webhook endpoint; events and deliveries), a second
 * merchant whose objects the first must never reach, and a current secret for every kind of caller.
 */
export interface FuzzWorld extends CredentialValues {
  pools: Pools;
  /** The kinds this world has a secret for (agent keys only once the API has them). */
  available: CredentialKind[];
  /** The host of every URL the harness puts in a request: it never resolves. */
  urlHost: string;
  /** Mints again any credential a case wore out (signed out, revoked); returns their kinds. */
  renew(): Promise<CredentialKind[]>;
  /** What the world could not set up, for the summary. */
  notes: string[];
}

/** Mints a new secret of a kind; only the kinds meant to work have one (not revoked or ended). */
type Minter = () => Promise<string>;

export async function buildWorld(
  baseUrl: string,
  routes: FuzzRoute[],
  options: { sessionCookieName?: string; urlHost: string },
): Promise<FuzzWorld> {
  const http = new HttpClient(baseUrl);
  const seeding = new Seeding(http);
  const secrets = new Map<CredentialKind, string>();
  const minters = new Map<CredentialKind, Minter>();
  const notes: string[] = [];
  const pools: Record<string, string[]> = {
    merchant: [],
    user: [],
    email: [],
    payment: [],
    cs: [],
    refund: [],
    apikey: [],
    webhookendpoint: [],
    event: [],
    webhookdelivery: [],
  };
  const add = (pool: string, value: unknown) => {
    if (typeof value === 'string' && value !== '') (pools[pool] ??= []).push(value);
  };

  const owner = newUser();
  const ownerBrowser = await seeding.signUp(owner, pools);
  const merchantId = await seeding.step('create a merchant', async () => {
    const created = must(
      await ownerBrowser.post('/dashboard/v1/merchants', { body: newMerchant() }),
      201,
    );
    return created.body.id as string;
  });
  // Three times: the harness's own merchant is drawn more often than the stranger's.
  for (let times = 0; times < 3; times += 1) add('merchant', merchantId);
  const dashboard = (mode: string) => `/dashboard/v1/merchants/${merchantId}/${mode}`;

  const issue = (mode: 'test' | 'live', scopes?: string[]) =>
    seeding.step(`issue a ${scopes ? 'restricted' : 'secret'} ${mode} key`, async () => {
      const issued = must(
        await ownerBrowser.post(
          `${dashboard(mode)}/${scopes ? 'restricted-api-keys' : 'api-keys'}`,
          {
            idempotencyKey: idempotencyKey(),
            ...(scopes ? { body: { scopes } } : {}),
          },
        ),
        201,
      );
      return issued.body as { id: string; secret_key: string };
    });
  const keyMinter =
    (mode: 'test' | 'live', scopes?: string[]): Minter =>
    async () =>
      (await issue(mode, scopes)).secret_key;
  minters.set('secret_test', keyMinter('test'));
  minters.set('secret_live', keyMinter('live'));
  minters.set(
    'restricted_test',
    keyMinter('test', ['payments:read', 'refunds:write', 'events:read']),
  );
  minters.set('restricted_live', keyMinter('live', ['account:read', 'balance:read']));
  for (const kind of [
    'secret_test',
    'secret_live',
    'restricted_test',
    'restricted_live',
  ] as const) {
    secrets.set(kind, await minters.get(kind)!());
  }
  // Keys a case may roll or revoke: their ids go in the pool, their secrets are never used.
  for (const mode of ['test', 'test', 'live'] as const) add('apikey', (await issue(mode)).id);
  const revoked = await issue('test');
  await seeding.step('revoke a key', async () => {
    must(
      await ownerBrowser.delete(`${dashboard('test')}/api-keys/${revoked.id}`, {
        idempotencyKey: idempotencyKey(),
      }),
      200,
    );
  });
  secrets.set('revoked_key', revoked.secret_key);
  add('apikey', revoked.id);
  secrets.set('unknown_key', unknownSecretKey());

  const signIn =
    (user: NewUser): Minter =>
    async () => {
      const browser = http.browser();
      must(
        await browser.post('/dashboard/v1/auth/sign-in', {
          body: { email: user.email, password: user.password },
        }),
        200,
      );
      return browser.sessionToken!;
    };
  secrets.set('session_owner', ownerBrowser.sessionToken!);
  minters.set('session_owner', signIn(owner));

  const developer = newUser();
  const developerBrowser = await seeding.signUp(developer, pools);
  await seeding.step('add a developer', async () => {
    must(
      await ownerBrowser.post(`/dashboard/v1/merchants/${merchantId}/members`, {
        body: { email: developer.email, role: 'developer' },
      }),
      201,
    );
  });
  secrets.set('session_developer', developerBrowser.sessionToken!);
  minters.set('session_developer', signIn(developer));

  const stranger = newUser();
  const strangerBrowser = await seeding.signUp(stranger, pools);
  const strangerMerchant = await seeding.step("a stranger's merchant and key", async () => {
    const created = must(
      await strangerBrowser.post('/dashboard/v1/merchants', { body: newMerchant() }),
      201,
    );
    return created.body.id as string;
  });
  add('merchant', strangerMerchant);
  const strangerKey: Minter = async () =>
    must(
      await strangerBrowser.post(`/dashboard/v1/merchants/${strangerMerchant}/test/api-keys`, {
        idempotencyKey: idempotencyKey(),
      }),
      201,
    ).body.secret_key as string;
  secrets.set('other_merchant_key', await strangerKey());
  minters.set('other_merchant_key', strangerKey);
  secrets.set('session_stranger', strangerBrowser.sessionToken!);
  minters.set('session_stranger', signIn(stranger));

  secrets.set(
    'session_ended',
    await seeding.step('a session that signed out', async () => {
      const token = await signIn(owner)();
      const browser = http.browser();
      must(
        await browser.post('/dashboard/v1/auth/sign-out', {
          headers: { cookie: `${SESSION_COOKIE}=${token}` },
        }),
        204,
      );
      return token;
    }),
  );

  const testKey = secrets.get('secret_test')!;
  // Before the payments, so their events are delivered to it.
  await seeding.step('a webhook endpoint', async () => {
    const created = must(
      await ownerBrowser.post(`${dashboard('test')}/webhook-endpoints`, {
        body: { url: `https://${options.urlHost}/fuzz`, event_types: ['*'] },
        idempotencyKey: idempotencyKey(),
      }),
      201,
    );
    add('webhookendpoint', created.body.id);
  });

  await seeding.step('payments in every state', async () => {
    const outcomes: Array<'succeed' | 'fail' | 'expire' | undefined> = [
      'succeed',
      'succeed',
      'succeed',
      'fail',
      'expire',
      undefined,
      undefined,
    ];
    for (const [index, outcome] of outcomes.entries()) {
      const body =
        index === 5
          ? { amount: 2_500, provider: 'wave', customer: { phone: '+221771234567', name: 'Awa' } }
          : {
              amount: 10_000 + index,
              description: `fuzz seed ${index}`,
              metadata: { order: `o${index}` },
            };
      const created = must(
        await http.post('/v1/payments', {
          bearer: testKey,
          body,
          idempotencyKey: idempotencyKey(),
        }),
        201,
      );
      add('payment', created.body.id);
      add('cs', clientSecretOf(created.body.checkout_url) || 'none');
      if (outcome) {
        must(
          await http.post(`/v1/test_helpers/payments/${created.body.id}/${outcome}`, {
            bearer: testKey,
          }),
          200,
        );
      }
    }
  });

  await seeding.step('a refund (once the credit is in the balance)', async () => {
    await until(
      async () => (await http.get('/v1/balance', { bearer: testKey })).body?.available > 0,
    );
    const refunded = must(
      await http.post('/v1/refunds', {
        bearer: testKey,
        body: { payment: pools.payment![0], amount: 1_000 },
        idempotencyKey: idempotencyKey(),
      }),
      201,
    );
    add('refund', refunded.body.id);
  });

  await seeding.step('a live payment (local provider fakes)', async () => {
    const created = await http.post('/v1/payments', {
      bearer: secrets.get('secret_live')!,
      body: { amount: 3_000, provider: 'orange_money' },
      idempotencyKey: idempotencyKey(),
    });
    if (created.status === 201) {
      add('payment', created.body.id);
      // Kept in step with the payments (a row of the target draws both).
      add('cs', clientSecretOf(created.body.checkout_url) || 'none');
    } else {
      notes.push(`no live payment seeded: ${created.status} ${created.text.slice(0, 200)}`);
      add('payment', 'pay_live_not_seeded');
      add('cs', 'none');
    }
  });

  await seeding.step('events and webhook deliveries', async () => {
    const delivered = await until(async () => {
      const deliveries = await http.get('/v1/webhook-deliveries?limit=100', { bearer: testKey });
      return deliveries.status === 200 && deliveries.body.data.length > 0;
    }, 5_000).then(
      () => true,
      () => false,
    );
    if (!delivered) notes.push('no webhook delivery within 5 s: the delivery pool is empty');
    for (const [pool, path] of [
      ['event', '/v1/events?limit=100'],
      ['webhookdelivery', '/v1/webhook-deliveries?limit=100'],
    ] as const) {
      const list = must(await http.get(path, { bearer: testKey }), 200);
      const ids = (list.body.data as Array<{ id: string }>).map((item) => item.id);
      pools[pool] = exactly(LISTED_POOL_SIZE, ids, `${pool}_none`);
    }
  });
  secrets.set('payment_client_secret', pools.cs![0]!);

  const agentKey = await tryAgentKey(http, routes, testKey, options.urlHost);
  if (agentKey.secret) {
    secrets.set('agent_key', agentKey.secret);
    add('agentwallet', agentKey.walletId);
  } else {
    notes.push(`agent keys: ${agentKey.why}`);
  }

  const sessionCookieName = options.sessionCookieName ?? SESSION_COOKIE;
  const available = CREDENTIAL_KINDS.filter((kind) => kind === 'none' || secrets.has(kind));
  return {
    pools,
    available,
    urlHost: options.urlHost,
    notes,
    sessionCookieName,
    valueOf: (kind) => secrets.get(kind),
    async renew() {
      // The transcript serves the seeding's error messages; past them it would only grow.
      http.transcript.splice(0);
      const renewed: CredentialKind[] = [];
      for (const [kind, mint] of minters) {
        if (await stillWorks(http, kind, secrets.get(kind)!, sessionCookieName)) continue;
        secrets.set(kind, await mint());
        renewed.push(kind);
      }
      return renewed;
    },
  };
}

async function stillWorks(
  http: HttpClient,
  kind: CredentialKind,
  secret: string,
  cookieName: string,
): Promise<boolean> {
  const probe = kind.startsWith('session_')
    ? await http
        .browser()
        .get('/dashboard/v1/me', { headers: { cookie: `${cookieName}=${secret}` } })
    : await http.get('/v1/account', { bearer: secret });
  return probe.status !== 401;
}

/**
 * An agent key, when the document has agent wallets (CONTRACT 5): a wallet made from a valid body
 * the wallet schema describes (a few tries), then a key for it. Nothing here names a wallet field.
 */
async function tryAgentKey(
  http: HttpClient,
  routes: FuzzRoute[],
  key: string,
  urlHost: string,
): Promise<{ secret?: string; walletId?: string; why: string }> {
  const createWallet = routes.find(
    (route) => route.method === 'POST' && /^\/v1\/agent[-_]wallets$/.test(route.template),
  );
  const createKey = routes.find(
    (route) =>
      route.method === 'POST' && /^\/v1\/agent[-_]wallets\/\{[^}]+\}\/keys$/.test(route.template),
  );
  if (!createWallet || !createKey) return { why: 'not in the OpenAPI document yet' };
  const bodies = fc.sample(validOf(createWallet.body ?? {}, { realValuesFor: () => [], urlHost }), {
    numRuns: 20,
    seed: 1,
  });
  for (const body of bodies) {
    const wallet = await http.post(createWallet.template, {
      bearer: key,
      body,
      idempotencyKey: idempotencyKey(),
    });
    if (wallet.status !== 201) continue;
    const path = createKey.template.replace(/\{[^}]+\}/, wallet.body.id);
    const issued = await http.post(path, { bearer: key, idempotencyKey: idempotencyKey() });
    if (issued.status === 201)
      return { secret: issued.body.secret_key, walletId: wallet.body.id, why: '' };
    return { why: `key issuance answered ${issued.status} ${issued.text.slice(0, 200)}` };
  }
  return { why: 'no generated wallet body was accepted' };
}

class Seeding {
  constructor(private readonly http: HttpClient) {}

  async step<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const last = this.http.transcript.slice(-4).join('\n');
      throw new Error(
        `fuzz world, step "${name}": ${(error as Error).message}\nlast exchanges:\n${last}`,
      );
    }
  }

  signUp(user: NewUser, pools: Record<string, string[]>): Promise<HttpClient> {
    return this.step(`sign up ${user.email}`, async () => {
      const browser = this.http.browser();
      const signedUp = must(await browser.post('/dashboard/v1/auth/sign-up', { body: user }), 201);
      pools.user!.push(signedUp.body.user.id);
      pools.email!.push(user.email);
      return browser;
    });
  }
}

/**
 * How many events and deliveries the world keeps. Their number depends on timing, and pools of one
 * size whatever the timing keep a seed's draws the same from run to run (a replay finds the case).
 */
const LISTED_POOL_SIZE = 5;

/** `size` values: the first ones, repeated when there are fewer, or the placeholder when none. */
export function exactly(size: number, values: string[], placeholder: string): string[] {
  const source = values.length > 0 ? values : [placeholder];
  return Array.from({ length: size }, (_, index) => source[index % source.length]!);
}

function must(result: HttpResult, status: number): HttpResult {
  if (result.status !== status) {
    throw new Error(`expected ${status}, got ${result.status}: ${result.text.slice(0, 300)}`);
  }
  return result;
}

function clientSecretOf(checkoutUrl: unknown): string {
  return typeof checkoutUrl === 'string' ? (new URL(checkoutUrl).searchParams.get('cs') ?? '') : '';
}

async function until(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
