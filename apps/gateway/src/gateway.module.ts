import { Module } from '@nestjs/common';
import { HttpEdgeModule } from '@xaalis/http';
import { IdentityModule } from '@xaalis/identity';
import { AccountController } from './account/account.controller';
import { AgentController } from './agent-wallets/agent.controller';
import { AgentKeysController } from './agent-wallets/agent-keys.controller';
import { AgentWalletsController } from './agent-wallets/agent-wallets.controller';
import { DashboardAgentWalletsController } from './agent-wallets/dashboard-agent-wallets.controller';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { AuthController } from './auth/auth.controller';
import { BalanceController } from './balance/balance.controller';
import { DashboardSubscriptionsController } from './billing/dashboard-subscriptions.controller';
import { InvoicePagesController } from './billing/invoice-pages.controller';
import { InvoicesController } from './billing/invoices.controller';
import { SubscriptionsController } from './billing/subscriptions.controller';
import { CheckoutPagesController } from './checkout/checkout-pages.controller';
import { ProviderNotificationsController } from './checkout/provider-notifications.controller';
import { PublicPaymentsController } from './checkout/public-payments.controller';
import { PublicExchangesController } from './exchange/public-exchanges.controller';
import { IdentityForwarder } from './identity-forwarder';
import { MeController } from './me/me.controller';
import { MerchantsController } from './merchants/merchants.controller';
import { MerchantContext } from './payments/merchant-context';
import { PaymentsController } from './payments/payments.controller';
import { RefundsController } from './payments/refunds.controller';
import { PayoutsController } from './payouts/payouts.controller';
import { ProviderIdentitiesController } from './provider-identities/provider-identities.controller';
import { EventsController } from './webhooks/events.controller';
import { WebhookDeliveriesController } from './webhooks/webhook-deliveries.controller';
import { WebhookEndpointsController } from './webhooks/webhook-endpoints.controller';
import { WebhookSecretController } from './webhooks/webhook-secret.controller';
import { WebhookSecretHandler } from './webhooks/webhook-secret.handler';

/**
 * The gateway's HTTP surface. CONFIG, CLOCK, PG_POOL, PRISMA, EVENT_STORE and BUS_CLIENT come from
 * the global core module of the composition root (embedded or per-app main).
 */
@Module({
  imports: [HttpEdgeModule.forRoot(), IdentityModule],
  controllers: [
    AuthController,
    MeController,
    MerchantsController,
    ApiKeysController,
    ProviderIdentitiesController,
    AccountController,
    BalanceController,
    PaymentsController,
    RefundsController,
    AgentWalletsController,
    DashboardAgentWalletsController,
    AgentKeysController,
    AgentController,
    PayoutsController,
    SubscriptionsController,
    DashboardSubscriptionsController,
    InvoicesController,
    PublicPaymentsController,
    PublicExchangesController,
    CheckoutPagesController,
    InvoicePagesController,
    ProviderNotificationsController,
    WebhookEndpointsController,
    WebhookDeliveriesController,
    EventsController,
    WebhookSecretController,
    WebhookSecretHandler,
  ],
  providers: [IdentityForwarder, MerchantContext],
})
export class GatewayModule {}
