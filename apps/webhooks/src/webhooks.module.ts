import { Module } from '@nestjs/common';
import { HttpEdgeModule } from '@xaalis/http';

/** Webhook dispatch: signed at-least-once delivery to merchants' servers (issue 4). */
@Module({
  imports: [HttpEdgeModule.forRoot()],
})
export class WebhooksModule {}
