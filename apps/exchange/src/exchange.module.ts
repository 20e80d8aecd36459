import { Module } from '@nestjs/common';
import { ExchangeApplicationModule } from '@xaalis/exchange-application';
import { HttpEdgeModule } from '@xaalis/http';
import { ExchangeHandler, ExchangeProgressHandler } from './exchange.handler';

/** The public test-mode exchange: quote, one-time code, pay with one provider, receive with the other. */
@Module({
  imports: [HttpEdgeModule.forRoot(), ExchangeApplicationModule],
  controllers: [ExchangeHandler, ExchangeProgressHandler],
})
export class ExchangeModule {}
