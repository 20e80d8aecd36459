// The one entry of @xaalis/contracts. Layout: README.md beside this folder.

// What every context's contracts are built of.
export * from './shared/apps';
export * from './shared/formats';
export * from './shared/integration-event-types';
export * from './shared/list-reply';
export * from './shared/merchant-scope';
export * from './shared/validate-message';

// Per context: its request and reply classes, and the objects of the events it publishes.
export * from './identity/account.object';
export * from './payments/payments.messages';
export * from './payments/payments.replies';
export * from './payments/refunds.messages';
export * from './billing/subscriptions.messages';
export * from './billing/subscriptions.replies';
export * from './billing/billing.requests';
export * from './payouts/payouts.messages';
export * from './payouts/agent-keys.messages';
export * from './payouts/agent-wallets.messages';
export * from './payouts/agent-wallets.replies';
export * from './payouts/agent-wallets.requests';
export * from './exchange/exchange.messages';
export * from './exchange/exchange.replies';
export * from './exchange/exchange.requests';
export * from './webhooks/webhooks.messages';
export * from './webhooks/webhook-event-schemas';

// What names every context: the request patterns and the integration events.
export * from './requests';
export * from './request';
export * from './reply-envelope';
export * from './integration-event';
