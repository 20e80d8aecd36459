/**
 * Prisma CLI configuration (Prisma 7 moved the datasource URL here). The schema is the folder, so
 * each context keeps its models in its own `prisma/schema/<context>.prisma`. Migrations are SQL
 * folders in Prisma's layout; `npm run migrate` applies them here (the migrate engine cannot be
 * downloaded on every machine), and `prisma migrate deploy` can apply the same folders elsewhere.
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  // Unset in embedded mode: `prisma generate` needs no database, and the embedded server's URL is
  // only known once it runs (`npm run migrate` handles that case). Read from the environment, not
  // through the service's config: this file is loaded by the Prisma CLI at install time, where the
  // workspace's path aliases do not resolve and no other setting matters.
  datasource: { url: process.env.DATABASE_URL || undefined },
});
