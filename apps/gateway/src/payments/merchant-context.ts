import { Injectable } from '@nestjs/common';
import { IdentityQueries } from '@xaalis/identity';
import type { Mode } from '@xaalis/kernel';

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
  constructor(private readonly identity: IdentityQueries) {}

  async of(merchantId: string, mode: Mode): Promise<PaymentMerchant> {
    const [account, aggregatedMerchantId] = await Promise.all([
      this.identity.account(merchantId, mode),
      mode === 'live' ? this.identity.waveAggregatedMerchantId(merchantId) : Promise.resolve(null),
    ]);
    return { name: account.name, aggregatedMerchantId };
  }
}
