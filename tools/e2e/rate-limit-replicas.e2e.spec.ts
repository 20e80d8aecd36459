import { describeWithKafka, describeWithPostgres } from '@xaalis/testing';
import { useGatewayReplicas } from './support/gateway-replicas';
import type { HttpClient } from './support/http';
import { sleep } from './support/processes';

/**
 * Issue 18, item 14: two gateway replicas on one database keep one limit per credential. With a
 * burst of 5 at 1 per second (a window of 5 requests per 5 s), requests alternated between A and B
 * are refused from the 6th, on whichever replica, with Retry-After.
 */
describeWithPostgres('rate limits across gateway replicas', () => {
  describeWithKafka('two gateway processes, one Postgres', () => {
    const replicas = useGatewayReplicas('rate-limit-replicas', {
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '5',
    });

    /** Alternates A, B, A, ... (B first when `from` is odd) with the key. */
    const alternate = async (key: string, count: number, from = 0) => {
      const { a, b } = replicas();
      const gateways: HttpClient[] = [a, b];
      const responses = [];
      for (let i = from; i < from + count; i++) {
        responses.push(await gateways[i % 2]!.get('/v1/account', { bearer: key }));
      }
      return responses;
    };

    it("holds one key's limit across both replicas, with Retry-After", async () => {
      const { a, b, merchant } = replicas();
      const allowed = await alternate(merchant.testKey, 5);
      expect(allowed.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

      // The 6th lands on B, the 7th on A: both refuse, whichever spent the window.
      for (const refused of await alternate(merchant.testKey, 2, 5)) {
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('rate_limited');
        const retryAfter = Number(refused.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(5);
        expect(refused.body.error.details).toEqual({ retry_after: retryAfter });
      }

      // Another credential has its own limit.
      expect((await b.get('/v1/account', { bearer: merchant.liveKey })).status).toBe(200);

      // Once the window has ended, the key is served again on either replica.
      const last = await a.get('/v1/account', { bearer: merchant.testKey });
      await sleep(Number(last.headers.get('retry-after')) * 1_000);
      const again = await alternate(merchant.testKey, 2, 1);
      expect(again.map((response) => response.status)).toEqual([200, 200]);
    });
  });
});
