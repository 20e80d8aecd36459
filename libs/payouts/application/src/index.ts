export * from './agent-key.store';
export * from './agent-payouts.service';
export * from './agent-wallets.service';
export * from './payout-jobs.kinds';
export * from './payouts-application.module';
export * from './payouts.projection';
export * from './payouts.service';
export * from './payouts.tokens';
export { SANDBOX_REFUSED_PHONE } from './jobs/send-payout.job';
