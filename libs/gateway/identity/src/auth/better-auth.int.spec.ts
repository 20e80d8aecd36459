import { randomToken } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { createAuth } from './better-auth';

describeWithPostgres('better-auth on our schema', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  const signUp = (publicBaseUrl: string, email: string) =>
    createAuth({ pool: db.pool, secret: randomToken(48), publicBaseUrl }).api.signUpEmail({
      body: { email, password: 'long enough password', name: 'Awa' },
      headers: new Headers(),
      returnHeaders: true,
    });

  it('accepts the tables our migration made (it validates them on first use) and makes usr_ ids', async () => {
    const { response } = await signUp('http://localhost:3000', 'a@shop.sn');
    expect(response.user.id).toMatch(/^usr_[0-9A-Z]{26}$/);
    const { rows } = await db.pool.query('SELECT id, email FROM auth_users');
    expect(rows).toEqual([{ id: response.user.id, email: 'a@shop.sn' }]);
    const { rows: accounts } = await db.pool.query(
      'SELECT provider_id, password FROM auth_accounts',
    );
    expect(accounts).toEqual([
      { provider_id: 'credential', password: expect.not.stringContaining('long enough password') },
    ]);
  });

  it('names the cookie better-auth.session_token, HttpOnly and SameSite=Lax, Secure only over https', async () => {
    const overHttp = (await signUp('http://localhost:3000', 'b@shop.sn')).headers.getSetCookie()[0];
    const overHttps = (
      await signUp('https://pay.xaalis.sn', 'c@shop.sn')
    ).headers.getSetCookie()[0];
    for (const cookie of [overHttp, overHttps]) {
      expect(cookie).toMatch(/^better-auth\.session_token=/);
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
    }
    expect(overHttp).not.toMatch(/; Secure/i);
    expect(overHttps).toMatch(/; Secure/i);
  });

  it('refuses passwords outside 10..128 characters itself too', async () => {
    const auth = createAuth({
      pool: db.pool,
      secret: randomToken(48),
      publicBaseUrl: 'http://localhost:3000',
    });
    for (const password of ['123456789', 'x'.repeat(129)]) {
      await expect(
        auth.api.signUpEmail({
          body: { email: `${password.length}@shop.sn`, password, name: 'X' },
          headers: new Headers(),
        }),
      ).rejects.toMatchObject({ statusCode: 400 });
    }
  });
});
