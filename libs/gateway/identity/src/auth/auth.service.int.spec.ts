import { AsyncLocalStorage } from 'node:async_hooks';
import { randomToken } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { AuthService } from './auth.service';
import { createAuth } from './better-auth';

/** better-auth's AsyncLocalStorage instances, and whether each is switched on. */
function betterAuthStores(): Array<{ name: string; enabled: boolean }> {
  const global = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[
    Symbol.for('better-auth:global')
  ];
  return Object.entries(global?.context ?? {})
    .filter(([, store]) => store instanceof AsyncLocalStorage)
    .map(([name, store]) => ({ name, enabled: (store as { enabled?: boolean }).enabled === true }));
}

describeWithPostgres('AuthService', () => {
  let db: TestDatabase;
  let auth: AuthService;
  const caller = { ip: '127.0.0.1' };

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = new AuthService(
      createAuth({
        pool: db.pool,
        secret: randomToken(48),
        publicBaseUrl: 'http://localhost:3000',
      }),
    );
  });

  afterAll(async () => {
    await db?.drop();
  });

  it("leaves better-auth's context stores switched off between calls, and they work in the next", async () => {
    const email = `owner-${randomToken(6).toLowerCase()}@shop.sn`;
    const signedUp = await auth.signUp(
      { email, password: 'long enough password', name: 'Awa' },
      caller,
    );

    const stores = betterAuthStores();
    expect(stores.length).toBeGreaterThan(0);
    expect(stores.filter((store) => store.enabled)).toEqual([]);

    // Several calls at once: one finishing must not switch the stores off under the others.
    const cookie = signedUp.setCookies[0]!.split(';')[0]!;
    const sessions = await Promise.all(
      Array.from({ length: 8 }, () => auth.session({ ...caller, cookie })),
    );
    expect(sessions.map((session) => session?.user.email)).toEqual(Array(8).fill(email));
    const signedIn = await auth.signIn({ email, password: 'long enough password' }, caller);
    expect(signedIn.user.id).toBe(signedUp.user.id);
    expect(betterAuthStores().filter((store) => store.enabled)).toEqual([]);
  });
});
