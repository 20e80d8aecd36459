/** The exchange context's projection runner (a `ProjectionRunner`). */
export const EXCHANGE_PROJECTION_RUNNER = 'XAALIS_EXCHANGE_PROJECTION_RUNNER';

/** The exchange's job scheduler (a `JobScheduler`), for tests that drive it. */
export const EXCHANGE_JOB_SCHEDULER = 'XAALIS_EXCHANGE_JOB_SCHEDULER';
