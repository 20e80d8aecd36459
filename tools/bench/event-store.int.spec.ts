import { types } from 'pg';
import {
  createThrowawayDatabase,
  describeWithPostgres,
  type ThrowawayDatabase,
} from '@xaalis/pg-testing';
import { emmettAppend, emmettStore } from './event-store';

describeWithPostgres("the bench's peer, emmett's event store", () => {
  let db: ThrowawayDatabase;
  beforeAll(async () => {
    db = await createThrowawayDatabase({ prefix: 'bench_peer' });
  });
  afterAll(() => db.drop());

  it("appends without changing how the process's other pools read int8 and jsonb", async () => {
    const store = await emmettStore(db.url);
    try {
      await expect(emmettAppend(store, 100, 0).op?.()).resolves.toMatchObject({
        nextExpectedStreamVersion: 100n,
      });

      expect(types.getTypeParser(types.builtins.INT8, 'text')('9007199254740993')).toBe(
        '9007199254740993',
      );
      const { rows } = await db.pool.query<{ big: unknown; doc: unknown }>(
        `SELECT 12::int8 AS big, '{"n": 9007199254740993}'::jsonb AS doc`,
      );
      expect(rows[0]).toEqual({ big: '12', doc: { n: 9007199254740992 } });
    } finally {
      await store.close();
    }
  });
});
