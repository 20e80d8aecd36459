export * from './payments-application.module';
export * from './payments.service';
export * from './refunds.service';
export * from './payment-jobs.worker';
export * from './payment.queries';
export * from './payments.projection';
export * from './payments.tokens';
export * from './payment-integration-events';
