import type { Projection } from '@xaalis/database';

/**
 * Every read model `npm run replay` can rebuild. The integrator lists each context's projections
 * here (the same instances the apps register with their ProjectionRunner).
 */
export function allProjections(): Projection[] {
  return [];
}
