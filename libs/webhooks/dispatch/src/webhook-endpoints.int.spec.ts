import type { Pool } from 'pg';
import { newId } from '@xaalis/kernel';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import {
  deliveriesOfEvent,
  newPaymentEvent,
  NOW,
  recordInTransaction,
} from './testing/webhook-fixtures';
import { WebhookEndpoints } from './webhook-endpoints';
import { upsertDefaultEndpoint } from './webhook-intake';

describeWithPostgres('WebhookEndpoints', () => {
  let database: TestDatabase;
  let pool: Pool;
  let endpoints: WebhookEndpoints;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
    endpoints = new WebhookEndpoints(pool);
  });

  afterAll(async () => {
    await database?.drop();
  });

  const merchant = () => newId('merchant');

  describe('create', () => {
    it('makes an endpoint once per id: a retry of its creation gets the one the first run made', async () => {
      const merchantId = merchant();
      const id = newId('webhookEndpoint');
      const input = {
        id,
        merchantId,
        mode: 'test' as const,
        url: 'https://hooks.example/a',
        eventTypes: ['*'],
        now: NOW,
      };
      const made = await endpoints.create(input);
      const again = await endpoints.create({ ...input, now: new Date(NOW.getTime() + 1000) });
      expect(again).toEqual(made);
      expect(made).toMatchObject({ id, merchant_id: merchantId, url: 'https://hooks.example/a' });
      const { rows } = await pool.query(
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE id = $1',
        [id],
      );
      expect(rows[0].n).toBe(1);
    });

    it('gives nothing for an id another merchant or mode holds', async () => {
      const id = newId('webhookEndpoint');
      const input = {
        id,
        mode: 'test' as const,
        url: 'https://hooks.example/b',
        eventTypes: ['*'],
        now: NOW,
      };
      await endpoints.create({ ...input, merchantId: merchant() });
      expect(await endpoints.create({ ...input, merchantId: merchant() })).toBeUndefined();
    });
  });

  describe('setDefault (and upsertDefaultEndpoint, which account.updated asks for)', () => {
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1_000);
    const defaults = async (merchantId: string) =>
      (
        await pool.query(
          `SELECT id, url, active, event_types, managed_by, created_at, updated_at
             FROM webhook_endpoints WHERE merchant_id = $1 AND is_default`,
          [merchantId],
        )
      ).rows;

    it('makes the account URL the mode default for every event type, and answers it', async () => {
      const merchantId = merchant();
      const set = await endpoints.setDefault({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/a',
        at: at(1),
      });

      expect(set).toEqual({
        id: expect.stringMatching(/^we_/),
        merchant_id: merchantId,
        mode: 'test',
        url: 'https://hooks.example/a',
        event_types: ['*'],
        active: true,
        is_default: true,
        managed_by: 'account',
        created_at: at(1),
      });
      const event = newPaymentEvent(merchantId);
      expect(await recordInTransaction(pool, event)).toBe(1);
      expect((await deliveriesOfEvent(pool, event.id)).map((d) => d.endpoint_id)).toEqual([set.id]);
      expect(await recordInTransaction(pool, newPaymentEvent(merchantId, true))).toBe(0);
    });

    it('takes a newer change, ignores an older one and repeats the same one harmlessly', async () => {
      const merchantId = merchant();
      const first = await endpoints.setDefault({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/a',
        at: at(1),
      });
      const newer = await endpoints.setDefault({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/b',
        at: at(3),
      });
      expect(newer).toMatchObject({ id: first.id, url: 'https://hooks.example/b' });

      // The slower of two racing PATCHes, and a late account.updated of the first.
      const older = await endpoints.setDefault({
        merchantId,
        mode: 'test',
        url: 'https://hooks.example/c',
        at: at(2),
      });
      expect(older).toEqual(newer);
      const tx = await pool.connect();
      try {
        await upsertDefaultEndpoint(tx, {
          merchantId,
          mode: 'test',
          url: 'https://hooks.example/a',
          at: at(1),
        });
        // account.updated of the change the request already set.
        await upsertDefaultEndpoint(tx, {
          merchantId,
          mode: 'test',
          url: 'https://hooks.example/b',
          at: at(3),
        });
      } finally {
        tx.release();
      }

      expect(await defaults(merchantId)).toEqual([
        {
          id: first.id,
          url: 'https://hooks.example/b',
          active: true,
          event_types: ['*'],
          managed_by: 'account',
          created_at: at(1),
          updated_at: at(3),
        },
      ]);
    });

    it('turns a default endpoint deactivated in the dashboard back on with a newer change', async () => {
      const merchantId = merchant();
      const set = await endpoints.setDefault({
        merchantId,
        mode: 'live',
        url: 'https://hooks.example/a',
        at: at(1),
      });
      await endpoints.update({
        merchantId,
        mode: 'live',
        id: set.id,
        active: false,
        now: at(2),
      });
      expect(await recordInTransaction(pool, newPaymentEvent(merchantId, true))).toBe(0);

      const again = await endpoints.setDefault({
        merchantId,
        mode: 'live',
        url: 'https://hooks.example/a',
        at: at(3),
      });
      expect(again).toMatchObject({ id: set.id, active: true });
      expect(await recordInTransaction(pool, newPaymentEvent(merchantId, true))).toBe(1);
    });
  });
});
