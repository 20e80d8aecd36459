import { Module } from '@nestjs/common';
import { HttpEdgeModule } from '@xaalis/http';
import { WebhookDispatchModule } from '@xaalis/webhook-dispatch';
import { WebhooksHandler } from './webhooks.handler';

/** Webhook dispatch: signed at-least-once delivery to merchants' servers (issue 4). */
@Module({
  imports: [HttpEdgeModule.forRoot(), WebhookDispatchModule],
  controllers: [WebhooksHandler],
})
export class WebhooksModule {}
