import { Inject, Injectable, Logger } from '@nestjs/common';
import { PRISMA } from '@xaalis/config';
import type { PrismaClient } from '@xaalis/database';
import { BoundedMap } from '@xaalis/kernel';

const MINUTE_MS = 60_000;

/**
 * `last_used_at`, written at most once a minute per key and process (the table's comment in the
 * migration says why it is not an event). A failed write is logged and forgotten: usage tracking
 * must never fail a payment.
 */
@Injectable()
export class ApiKeyUsageRecorder {
  private readonly logger = new Logger('ApiKeyUsage');
  private readonly lastWrittenMs = new BoundedMap<string, number>(100_000);

  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async record(keyId: string, now: Date): Promise<void> {
    const last = this.lastWrittenMs.get(keyId);
    if (last !== undefined && now.getTime() - last < MINUTE_MS) return;
    this.lastWrittenMs.set(keyId, now.getTime());
    try {
      await this.prisma.$executeRaw`
        INSERT INTO api_key_usage (key_id, last_used_at) VALUES (${keyId}, ${now})
        ON CONFLICT (key_id) DO UPDATE SET last_used_at = GREATEST(api_key_usage.last_used_at, EXCLUDED.last_used_at)`;
    } catch (error) {
      this.logger.warn(`Could not record the use of ${keyId}: ${(error as Error).message}`);
    }
  }
}
