import type { Projection } from '@xaalis/database';
import { merchantProjection } from './merchant.projection';

/** For the replay registry and the identity module's own runner. */
export function identityProjections(): Projection[] {
  return [merchantProjection];
}

/** The identity module's ProjectionRunner (read-your-writes after each command). */
export const IDENTITY_PROJECTION_RUNNER = 'XAALIS_IDENTITY_PROJECTION_RUNNER';
