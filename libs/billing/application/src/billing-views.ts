import { Inject, Injectable } from '@nestjs/common';
import {
  invoiceView,
  subscriptionView,
  type BillingLinks,
  type Invoice,
  type InvoiceObject,
  type Subscription,
  type SubscriptionObject,
} from '@xaalis/billing-domain';
import { CONFIG, EVENT_STORE, type XaalisConfig } from '@xaalis/config';
import type { EventStore } from '@xaalis/event-store';
import { BillingCommands } from './billing.commands';
import { billingIntegrationEvents } from './billing-integration-events';

/**
 * Subscriptions and invoices as the API shows them: the views need where the hosted invoice
 * pages are served (the public base URL), read from the config when asked, as it may be set once
 * the service knows its port.
 */
@Injectable()
export class BillingViews {
  readonly integrationEvents: ReturnType<typeof billingIntegrationEvents>;

  constructor(
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(EVENT_STORE) store: EventStore,
    commands: BillingCommands,
  ) {
    this.integrationEvents = (recorded) =>
      billingIntegrationEvents(store, this.links(), commands.subscriptions)(recorded);
  }

  private links(): BillingLinks {
    return { hostedInvoiceBaseUrl: this.config.publicBaseUrl };
  }

  subscription(subscription: Subscription): SubscriptionObject {
    return subscriptionView(subscription, this.links());
  }

  invoice(subscription: Subscription, invoice: Invoice): InvoiceObject {
    return invoiceView(subscription, invoice, this.links());
  }
}
