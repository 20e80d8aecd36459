import {
  Controller,
  Injectable,
  Module,
  Scope,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type INestMicroservice,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { directRequestHandlers } from './direct-request-handlers';
import { InProcessBroker } from './in-process-broker';
import { InProcessServer } from './in-process-server';

/** Who ran: the handlers and whatever Nest put around them. */
const calls: string[] = [];

/** Whether Nest's RPC pipeline is on the call's stack. */
const throughNest = () => (new Error().stack ?? '').includes('@nestjs/microservices');

@Injectable()
class CountingGuard implements CanActivate {
  canActivate(): boolean {
    calls.push('guard');
    return true;
  }
}

@Injectable()
class CountingInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    calls.push('interceptor');
    return next.handle();
  }
}

class UpperPipe implements PipeTransform {
  transform(value: unknown): unknown {
    calls.push('pipe');
    return typeof value === 'string' ? value.toUpperCase() : value;
  }
}

@Controller()
class PlainHandlers {
  private readonly prefix = 'plain';

  @MessagePattern('plain')
  plain(@Payload() payload: unknown) {
    calls.push(throughNest() ? 'plain through Nest' : 'plain');
    return Promise.resolve({ from: this.prefix, payload });
  }

  @MessagePattern('no-params')
  noParams() {
    return 'none';
  }

  @MessagePattern('fails')
  fails(@Payload() _payload: unknown): never {
    throw new Error('a bug, with a stack nobody outside should see');
  }

  @UseGuards(CountingGuard)
  @MessagePattern('guarded')
  guarded(@Payload() payload: unknown) {
    calls.push(throughNest() ? 'guarded through Nest' : 'guarded');
    return payload;
  }

  @MessagePattern('piped')
  piped(@Payload(new UpperPipe()) payload: unknown) {
    return payload;
  }

  @MessagePattern('property')
  property(@Payload('name') name: unknown) {
    return name;
  }

  @MessagePattern('with-context')
  withContext(@Payload() payload: unknown, @Ctx() context: unknown) {
    return { payload, context: context !== undefined };
  }

  @EventPattern('an-event')
  event(@Payload() _payload: unknown): void {}
}

@UseInterceptors(CountingInterceptor)
@Controller()
class InterceptedHandlers {
  @MessagePattern('intercepted')
  intercepted(@Payload() payload: unknown) {
    calls.push('intercepted');
    return payload;
  }
}

@Controller({ scope: Scope.REQUEST })
class RequestScopedHandlers {
  @MessagePattern('request-scoped')
  scoped(@Payload() payload: unknown) {
    return payload;
  }
}

@Module({
  controllers: [PlainHandlers, InterceptedHandlers, RequestScopedHandlers],
  providers: [CountingGuard, CountingInterceptor],
})
class HandlersModule {}

describe('directRequestHandlers', () => {
  let broker: InProcessBroker;
  let app: INestMicroservice;

  beforeEach(async () => {
    calls.length = 0;
    broker = new InProcessBroker();
    const server = new InProcessServer(broker, 'payments');
    app = await NestFactory.createMicroservice(HandlersModule, { strategy: server, logger: false });
    server.callDirectly(directRequestHandlers(app));
    await app.listen();
  });

  afterEach(() => app.close());

  it('takes only the request handlers that nothing runs around', () => {
    expect([...directRequestHandlers(app).keys()].sort()).toEqual(['fails', 'no-params', 'plain']);
  });

  it('calls the method on its instance with the payload, and the reply reaches the asker', async () => {
    const reply = await broker.request('plain', { amount: 5 });

    expect(reply).toEqual({ response: { from: 'plain', payload: { amount: 5 } } });
    expect(calls).toEqual(['plain']);
  });

  it('answers a handler’s bug as Nest’s RPC error, without its message or stack', async () => {
    const reply = await broker.request('fails', {});

    expect(reply).toEqual({ error: { status: 'error', message: 'Internal server error' } });
  });

  it('leaves guards, interceptors and pipes to Nest, which still runs them', async () => {
    expect(await broker.request('guarded', 'g')).toEqual({ response: 'g' });
    expect(await broker.request('intercepted', 'i')).toEqual({ response: 'i' });
    expect(await broker.request('piped', 'p')).toEqual({ response: 'P' });

    expect(calls).toEqual(['guard', 'guarded through Nest', 'interceptor', 'intercepted', 'pipe']);
  });

  it('leaves a payload property, a context parameter and a request scope to Nest', async () => {
    expect(await broker.request('property', { name: 'Awa' })).toEqual({ response: 'Awa' });
    expect(await broker.request('with-context', 1)).toEqual({
      response: { payload: 1, context: true },
    });
    expect(await broker.request('request-scoped', 'r')).toEqual({ response: 'r' });
  });
});
