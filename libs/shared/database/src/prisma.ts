import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

/**
 * The generated client (prisma/schema/*.prisma → `npm run prisma:generate`), re-exported so the
 * rest of the code base imports it from `@xaalis/database` and never from the generated folder.
 */
export { Prisma, PrismaClient };

/** What `prisma.$transaction(async (tx) => …)` hands to its callback. */
export type PrismaTx = Prisma.TransactionClient;

/**
 * A Prisma 7 client over node-postgres (`@prisma/adapter-pg`, no query engine binary). Given a
 * pool, Prisma shares it with the raw-SQL code and leaves closing it to the owner; given a URL,
 * the adapter opens its own pool, which `$disconnect()` closes.
 */
export function createPrismaClient(urlOrPool: string | Pool): PrismaClient {
  const adapter =
    typeof urlOrPool === 'string'
      ? new PrismaPg({ connectionString: urlOrPool })
      : new PrismaPg(urlOrPool);
  // 'minimal': Prisma otherwise captures a stack trace on every call to dress up its errors
  // (~0.1 ms of CPU each); our errors never show Prisma's text to a client anyway.
  return new PrismaClient({ adapter, errorFormat: 'minimal' });
}
