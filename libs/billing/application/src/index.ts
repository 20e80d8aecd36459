export * from './billing-application.module';
export * from './billing-jobs.kinds';
export * from './billing.projection';
export * from './billing.tokens';
export * from './invoice-payments';
export * from './invoices.service';
export * from './subscriptions.service';
