import { Injectable } from '@nestjs/common';
import { IdentityQueries } from '@xaalis/identity';
import { BoundedMap, type Mode } from '@xaalis/kernel';

export interface PaymentMerchant {
  name: string;
  /** Wave's aggregated merchant id (live mode), null when not set. */
  aggregatedMerchantId: string | null;
}

/**
 * What payments needs to know of the merchant at creation: the name shown to the customer and
 * the Wave identity of CONTRACT 5. Both belong to identity, so the gateway reads them here and
 * sends them with the command.
 */
@Injectable()
export class MerchantContext {
  /** A merchant's name never changes once created, so it is kept; the Wave identity is not. */
  private readonly names = new BoundedMap<string, string>(10_000);

  constructor(private readonly identity: IdentityQueries) {}

  async of(merchantId: string, mode: Mode): Promise<PaymentMerchant> {
    const [name, aggregatedMerchantId] = await Promise.all([
      this.name(merchantId, mode),
      mode === 'live' ? this.identity.waveAggregatedMerchantId(merchantId) : Promise.resolve(null),
    ]);
    return { name, aggregatedMerchantId };
  }

  private async name(merchantId: string, mode: Mode): Promise<string> {
    const known = this.names.get(merchantId);
    if (known !== undefined) return known;
    const { name } = await this.identity.account(merchantId, mode);
    this.names.set(merchantId, name);
    return name;
  }
}
