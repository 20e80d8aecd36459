import { billingProjections } from '@xaalis/billing-application';
import { exchangeProjections } from '@xaalis/exchange-application';
import type { Projection } from '@xaalis/database';
import { identityProjections } from '@xaalis/identity';
import { paymentsProjections } from '@xaalis/payments-application';
import { payoutsProjections } from '@xaalis/payouts-application';

/**
 * Every read model `npm run replay` can rebuild: each context's projections, the same instances
 * its app registers with its ProjectionRunner.
 */
export function allProjections(): Projection[] {
  return [
    ...identityProjections(),
    ...paymentsProjections(),
    ...payoutsProjections(),
    ...billingProjections(),
    ...exchangeProjections(),
  ];
}
