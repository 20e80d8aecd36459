import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { DirectRequestHandler } from './direct-request-handlers';
import type { BusReply, InProcessBroker } from './in-process-broker';
import { InProcessContext } from './in-process-context';

export const IN_PROCESS_TRANSPORT = Symbol('xaalis-in-process');

/**
 * One app's side of the in-process bus: registers the app's `@MessagePattern` handlers as the
 * owner of their patterns and its `@EventPattern` handlers as the app's group on their topics.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override transportId = IN_PROCESS_TRANSPORT;
  /** Event handler failures come back to us, so the broker can retry and report them. */
  override readonly propagatesEventHandlerErrors = true;
  private readonly registrations: Array<() => void> = [];
  private direct: ReadonlyMap<string, DirectRequestHandler> = new Map();

  constructor(
    private readonly broker: InProcessBroker,
    readonly group: string,
  ) {
    super();
  }

  /**
   * Request handlers to call as plain methods (see `directRequestHandlers`); the patterns not in
   * the map keep Nest's pipeline. Takes effect at `listen`.
   */
  callDirectly(handlers: ReadonlyMap<string, DirectRequestHandler>): void {
    this.direct = handlers;
  }

  listen(callback: (error?: unknown) => void): void {
    try {
      for (const [pattern, handler] of this.getHandlers()) {
        const direct = this.direct.get(pattern);
        this.registrations.push(
          handler.isEventHandler
            ? this.broker.subscribe(pattern, this.group, (json) =>
                this.handleEventJson(pattern, handler, json),
              )
            : this.broker.answer(pattern, this.group, (payload) =>
                this.answerRequest(
                  direct ?? ((data) => handler(data, new InProcessContext([pattern, this.group]))),
                  payload,
                ),
              ),
        );
      }
    } catch (error) {
      this.close();
      return callback(error);
    }
    callback();
  }

  close(): void {
    for (const unregister of this.registrations.splice(0)) unregister();
  }

  on(): never {
    throw new Error('The in-process transport has no events to listen to.');
  }

  unwrap<T>(): T {
    return this.broker as unknown as T;
  }

  private async answerRequest(
    handle: (payload: unknown) => unknown,
    payload: unknown,
  ): Promise<BusReply> {
    try {
      const result: unknown = await handle(payload);
      // Our handlers answer a promise of the envelope; an Observable is the rarer case.
      const value = isObservable(result)
        ? await lastValueFrom(result, { defaultValue: null })
        : result;
      return { response: value ?? null };
    } catch (error) {
      // Through Nest's pipeline, its RPC filter already turned exceptions into `{status,
      // message}`; a bare Error (a direct handler's, or one that would carry its stack to the
      // caller) gets the same shape.
      if (error instanceof Error) {
        this.logger.error(error);
        return { error: { status: 'error', message: 'Internal server error' } };
      }
      return { error };
    }
  }

  private async handleEventJson(
    pattern: string,
    handler: MessageHandler,
    json: string,
  ): Promise<void> {
    const context = new InProcessContext([pattern, this.group]);
    try {
      const result = await handler(JSON.parse(json), context);
      await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
    } catch (error) {
      this.logger.error(
        `${this.group} failed to handle an event on "${pattern}"`,
        error instanceof Error ? error.stack : error,
      );
      throw error;
    }
  }
}
