import { throwError } from 'rxjs';
import { WEBHOOKS_ENDPOINT_SET_DEFAULT } from '@xaalis/contracts';
import { describeWithPostgres } from '@xaalis/testing';
import { type Gateway, startGateway, zeroBalanceBus } from '../testing/gateway-harness';
import { HttpClient, signUpMerchant } from '../testing/http-client';

/**
 * `PATCH /v1/account` tells the webhooks app the new default endpoint before it answers (issue
 * 16 item 6), with the time `account.updated` carries; with no answer it is a 503 that a repeat
 * mends. The webhooks app here is the harness's bus; tools/e2e/webhooks-registration.e2e.spec.ts
 * runs the real one in both modes.
 */
describeWithPostgres(
  'gateway: PATCH /v1/account sets the default endpoint before answering',
  () => {
    let gw: Gateway;
    let http: HttpClient;
    let merchantId: string;
    let secretKey: string;

    beforeAll(async () => {
      gw = await startGateway();
      http = new HttpClient(gw.url);
      const merchant = await signUpMerchant(http, 'owner@account.sn', 'Boutique Account');
      merchantId = merchant.merchantId;
      secretKey = await merchant.secretKey('test');
    });

    afterAll(async () => {
      jest.restoreAllMocks();
      await gw?.close();
    });

    const patch = (webhook_url: string) =>
      http.call('PATCH', '/v1/account', { bearer: secretKey, body: { webhook_url } });
    const asked = () =>
      zeroBalanceBus.requests.filter((sent) => sent.pattern === WEBHOOKS_ENDPOINT_SET_DEFAULT);
    /** `updatedAt` of each AccountUpdated on the merchant's stream, oldest first. */
    const recordedChanges = async () =>
      (
        await gw.db.pool.query<{ data: { webhookUrl: string; updatedAt: string } }>(
          `SELECT message_data AS data FROM es_messages
          WHERE stream_name = $1 AND message_type = 'AccountUpdated' ORDER BY stream_position`,
          [`merchant-${merchantId}`],
        )
      ).rows.map(({ data }) => ({ url: data.webhookUrl, at: data.updatedAt }));

    it('asks the webhooks app for the URL at the time account.updated carries, then answers', async () => {
      zeroBalanceBus.requests.length = 0;
      const answered = await patch('https://hooks.test/a');

      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ id: merchantId, webhook_url: 'https://hooks.test/a' });
      const [change] = await recordedChanges();
      expect(change).toEqual({ url: 'https://hooks.test/a', at: gw.clock.now().toISOString() });
      expect(asked()).toEqual([
        {
          pattern: WEBHOOKS_ENDPOINT_SET_DEFAULT,
          data: { merchant_id: merchantId, mode: 'test', url: change!.url, at: change!.at },
        },
      ]);
    });

    it('asks nothing for a URL it refuses', async () => {
      zeroBalanceBus.requests.length = 0;
      expect((await patch('http://hooks.test/a')).status).toBe(400);
      expect((await patch('https://127.0.0.1/a')).status).toBe(400);
      expect(asked()).toEqual([]);
    });

    it('answers 503 unavailable when the webhooks app does not answer; the same PATCH again asks again', async () => {
      zeroBalanceBus.requests.length = 0;
      jest
        .spyOn(zeroBalanceBus, 'send')
        .mockImplementationOnce((pattern: string, data: unknown) => {
          zeroBalanceBus.requests.push({ pattern, data });
          return throwError(() => new Error('no webhooks app listening'));
        });
      gw.clock.advance(1_000);

      const refused = await patch('https://hooks.test/b');
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({
        error: { code: 'unavailable', message: expect.any(String) },
      });
      // Recorded all the same: account.updated brings it to the webhooks app later.
      const account = await http.call('GET', '/v1/account', { bearer: secretKey });
      expect(account.body.webhook_url).toBe('https://hooks.test/b');

      gw.clock.advance(1_000);
      const repeated = await patch('https://hooks.test/b');
      expect(repeated.status).toBe(200);
      const changes = await recordedChanges();
      expect(changes.slice(-2).map(({ url }) => url)).toEqual([
        'https://hooks.test/b',
        'https://hooks.test/b',
      ]);
      expect(asked().map(({ data }) => data)).toEqual(
        changes
          .slice(-2)
          .map(({ url, at }) => ({ merchant_id: merchantId, mode: 'test', url, at })),
      );
    });
  },
);
