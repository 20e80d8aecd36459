import { DomainError } from '@xaalis/kernel';
import {
  type TestDatabase,
  createTestDatabase,
  describeWithPostgres,
} from '../test-support/test-postgres';
import { requireOwnCursor } from './list-response';

/** CONTRACT 4's `starting_after` against a read-model table of one merchant's rows per mode. */
describeWithPostgres('requireOwnCursor', () => {
  let database: TestDatabase;
  const owner = { merchantId: 'mer_a', mode: 'test' as const };

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query(
      `CREATE TABLE things (id text PRIMARY KEY, merchant_id text NOT NULL, mode text NOT NULL)`,
    );
    await database.pool.query(
      `INSERT INTO things VALUES ('th_1', 'mer_a', 'test'), ('th_2', 'mer_b', 'test'),
                                 ('th_3', 'mer_a', 'live')`,
    );
  });

  afterAll(async () => {
    await database?.drop();
  });

  const refusalOf = (startingAfter: string) =>
    requireOwnCursor(database.pool, 'things', owner, startingAfter).then(
      () => undefined,
      (error: unknown) => error,
    );

  it("accepts one of the caller's rows, and no cursor at all", async () => {
    await expect(requireOwnCursor(database.pool, 'things', owner, 'th_1')).resolves.toBeUndefined();
    await expect(
      requireOwnCursor(database.pool, 'things', owner, undefined),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['an unknown id', 'th_9'],
    ["another merchant's row", 'th_2'],
    ["the other mode's row", 'th_3'],
  ])('answers 404 not_found for %s, naming starting_after', async (_case, startingAfter) => {
    const error = await refusalOf(startingAfter);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'not_found',
      message: `No such object: ${startingAfter} (starting_after).`,
      details: { param: 'starting_after' },
    });
  });

  it('takes only a table name as the code spells it', async () => {
    await expect(
      requireOwnCursor(database.pool, 'things; DROP TABLE things', owner, 'th_1'),
    ).rejects.toThrow(TypeError);
    await expect(
      requireOwnCursor(database.pool, 'things; DROP TABLE things', owner, undefined),
    ).rejects.toThrow(TypeError);
    const { rows } = await database.pool.query(`SELECT count(*)::int AS n FROM things`);
    expect(rows[0].n).toBe(3);
  });
});
