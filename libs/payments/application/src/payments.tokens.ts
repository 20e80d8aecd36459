/** The payments module's ProjectionRunner (read-your-writes after each command). */
export const PAYMENTS_PROJECTION_RUNNER = 'XAALIS_PAYMENTS_PROJECTION_RUNNER';

/** The live providers by name (`Record<LiveProviderName, LivePaymentProvider>`). */
export const LIVE_PROVIDERS = 'XAALIS_LIVE_PROVIDERS';
