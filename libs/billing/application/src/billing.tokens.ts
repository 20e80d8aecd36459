/** The billing context's projection runner (a `ProjectionRunner`): lists catch it up. */
export const BILLING_PROJECTION_RUNNER = 'XAALIS_BILLING_PROJECTION_RUNNER';

/** The billing clock's job scheduler (a `JobScheduler`), for tests that drive the clock. */
export const BILLING_JOB_SCHEDULER = 'XAALIS_BILLING_JOB_SCHEDULER';
