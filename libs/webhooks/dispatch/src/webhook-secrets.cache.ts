import { Inject, Injectable } from '@nestjs/common';
import { BUS_CLIENT, CLOCK } from '@xaalis/config';
import { GATEWAY_WEBHOOK_SECRET_GET, request, type BusRequester } from '@xaalis/contracts';
import type { Clock } from '@xaalis/kernel';

/**
 * Long enough to spare the gateway one request per delivery, short enough to follow a roll: the
 * new secret signs within 10 s of it (on the app clock). During an overlap the old secret still
 * verifies meanwhile; with an overlap of 0 a delivery sent in those seconds carries only the old
 * `v1`, and its first retry (10 s later by default) is past the bound and signed anew.
 */
export const SECRET_CACHE_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * The merchant's webhook secrets, asked of the gateway (identity keeps them encrypted; this app
 * may not read identity). Kept in memory only, never logged.
 */
@Injectable()
export class WebhookSecretsCache {
  private readonly entries = new Map<string, { secrets: string[]; until: number }>();

  constructor(
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async secretsOf(merchantId: string): Promise<string[]> {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(merchantId);
    if (cached && cached.until > now) return cached.secrets;
    const { secrets } = await request(this.bus, GATEWAY_WEBHOOK_SECRET_GET, {
      merchant_id: merchantId,
    });
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(merchantId, { secrets, until: now + SECRET_CACHE_MS });
    return secrets;
  }
}
