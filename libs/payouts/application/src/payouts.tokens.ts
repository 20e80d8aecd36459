/** The payouts context's projection runner (a `ProjectionRunner`): lists catch it up. */
export const PAYOUTS_PROJECTION_RUNNER = 'XAALIS_PAYOUTS_PROJECTION_RUNNER';

/** The payouts context's job scheduler (a `JobScheduler`), for tests that drive the clock. */
export const PAYOUT_JOB_SCHEDULER = 'XAALIS_PAYOUT_JOB_SCHEDULER';

/** The live payout adapters by provider (`Record<PayoutProviderName, LivePayoutProvider>`). */
export const LIVE_PAYOUT_PROVIDERS = 'XAALIS_LIVE_PAYOUT_PROVIDERS';
