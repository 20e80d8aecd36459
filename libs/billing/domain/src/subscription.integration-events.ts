import { assertNever } from '@xaalis/kernel';
import type { SubscriptionEvent } from './subscription.events';

/**
 * The webhook event types (spec 6) billing publishes. Spelled here because a domain library may
 * not import the contracts; each is one of the contracts' `IntegrationEventType`s.
 */
export type BillingIntegrationEventType =
  | 'invoice.created'
  | 'invoice.paid'
  | 'invoice.overdue'
  | 'subscription.past_due'
  | 'subscription.canceled'
  | 'subscription.completed';

/** The billing facts merchants hear about; the others (reminders, attempts, the clock) stay inside. */
export function integrationEventTypeOf(
  event: SubscriptionEvent,
): BillingIntegrationEventType | null {
  switch (event.type) {
    case 'InvoiceCreated':
      return 'invoice.created';
    case 'InvoicePaid':
      return 'invoice.paid';
    case 'InvoiceOverdue':
      return 'invoice.overdue';
    case 'SubscriptionPastDue':
      return 'subscription.past_due';
    case 'SubscriptionCanceled':
      return 'subscription.canceled';
    case 'SubscriptionCompleted':
      return 'subscription.completed';
    case 'SubscriptionCreated':
    case 'InvoiceReminderSent':
    case 'InvoiceUncollectible':
    case 'SubscriptionCancelScheduled':
    case 'InvoiceVoided':
    case 'InvoicePaymentStarted':
    case 'InvoicePaymentFailed':
    case 'InvoiceExtraPaymentReceived':
    case 'SubscriptionReturnedToActive':
    case 'TestClockAdvanced':
      return null;
    default:
      return assertNever(event);
  }
}
