import { describeWithKafka, describeWithPostgres } from '@xaalis/testing';
import { idempotencyKey } from './support/fixtures';
import { useGatewayReplicas } from './support/gateway-replicas';
import { sleep } from './support/processes';

/** Far below the key cache's 5 s TTL: only an eviction, not an expiry, can refuse the key this soon. */
const AT_ONCE_MS = 1_000;

/**
 * Issue 18, item 15: two gateway replicas on one database. A key checked on B is cached there;
 * revoked (or rolled without grace) through A's dashboard, it is refused on B at once, because
 * the change's NOTIFY evicts it from every replica's cache.
 */
describeWithPostgres('API key revocation across gateway replicas', () => {
  describeWithKafka('two gateway processes, one Postgres', () => {
    const replicas = useGatewayReplicas('key-revocation', {
      // B is polled every few milliseconds below.
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
      IP_RATE_LIMIT_PER_SECOND: '10000',
      IP_RATE_LIMIT_BURST: '10000',
    });

    const keysPath = () =>
      `/dashboard/v1/merchants/${replicas().merchant.merchantId}/test/api-keys`;

    /** A fresh key, checked on B so that B holds it in its cache. */
    const keyCachedOnB = async (): Promise<{ id: string; secret: string }> => {
      const { merchant, b } = replicas();
      const issued = await merchant.owner.post(keysPath(), { idempotencyKey: idempotencyKey() });
      expect(issued.status).toBe(201);
      const key = { id: issued.body.id as string, secret: issued.body.secret_key as string };
      for (let i = 0; i < 2; i++) {
        expect((await b.get('/v1/account', { bearer: key.secret })).status).toBe(200);
      }
      return key;
    };

    /** How long after `since` B first refuses the secret (polled; fails past the TTL). */
    const refusedOnBAfter = async (secret: string, since: number): Promise<number> => {
      while (Date.now() - since < 6_000) {
        const response = await replicas().b.get('/v1/account', { bearer: secret });
        if (response.status === 401) {
          expect(response.body.error.code).toBe('authentication_required');
          return Date.now() - since;
        }
        expect(response.status).toBe(200);
        await sleep(10);
      }
      throw new Error('B never refused the key');
    };

    it('a key revoked on A is refused on B at once', async () => {
      const key = await keyCachedOnB();
      const revoked = await replicas().merchant.owner.delete(`${keysPath()}/${key.id}`, {
        idempotencyKey: idempotencyKey(),
      });
      expect(revoked.status).toBe(200);
      expect(await refusedOnBAfter(key.secret, Date.now())).toBeLessThan(AT_ONCE_MS);
    });

    it('a key rolled on A without grace is refused on B at once, its successor accepted', async () => {
      const key = await keyCachedOnB();
      const rolled = await replicas().merchant.owner.post(`${keysPath()}/${key.id}/roll`, {
        idempotencyKey: idempotencyKey(),
        body: { grace_hours: 0 },
      });
      expect(rolled.status).toBe(201);
      expect(await refusedOnBAfter(key.secret, Date.now())).toBeLessThan(AT_ONCE_MS);
      const successor = await replicas().b.get('/v1/account', { bearer: rolled.body.secret_key });
      expect(successor.status).toBe(200);
    });
  });
});
