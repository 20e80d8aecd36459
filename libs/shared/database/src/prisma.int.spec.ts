import { createTestDatabase, describeWithPostgres } from './testing/test-postgres';
import type { ThrowawayDatabase as TestDatabase } from '@xaalis/pg-testing';
import { createPrismaClient } from './prisma';

describeWithPostgres('Prisma client over @prisma/adapter-pg', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  it('round-trips a row through a shared pool, in and out of a transaction', async () => {
    const prisma = createPrismaClient(db.pool);
    try {
      await prisma.projectionCheckpoint.create({ data: { name: 'round-trip', position: '0001' } });
      await prisma.$transaction(async (tx) => {
        await tx.projectionCheckpoint.update({
          where: { name: 'round-trip' },
          data: { position: '0002' },
        });
      });
      const row = await prisma.projectionCheckpoint.findUnique({ where: { name: 'round-trip' } });

      expect(row).toEqual({ name: 'round-trip', position: '0002', updatedAt: expect.any(Date) });
      // Raw SQL on the same pool sees what Prisma wrote.
      const { rows } = await db.pool.query(
        `SELECT position FROM projection_checkpoints WHERE name = 'round-trip'`,
      );
      expect(rows).toEqual([{ position: '0002' }]);
    } finally {
      await prisma.$disconnect();
    }
    // The pool is the caller's: disconnecting Prisma leaves it usable.
    await expect(db.pool.query('SELECT 1 AS one')).resolves.toEqual(
      expect.objectContaining({ rows: [{ one: 1 }] }),
    );
  });

  it('rolls an interactive transaction back when its callback throws', async () => {
    const prisma = createPrismaClient(db.url);
    try {
      await expect(
        prisma.$transaction(async (tx) => {
          await tx.projectionCheckpoint.create({ data: { name: 'rolled-back' } });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');

      expect(await prisma.projectionCheckpoint.count({ where: { name: 'rolled-back' } })).toBe(0);
    } finally {
      await prisma.$disconnect();
    }
  });
});
