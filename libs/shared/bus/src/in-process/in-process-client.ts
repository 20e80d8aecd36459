import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { InProcessBroker } from './in-process-broker';

/** An app's `ClientProxy` on the in-process bus. */
export class InProcessClient extends ClientProxy {
  /**
   * Replies come from this same build in this same process, so `request()` need not check them
   * against the contract again (the owner validated the request; its reply class is the same
   * code). Over Kafka another release may answer, and replies are checked.
   */
  readonly trustedReplies = true;

  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async connect(): Promise<void> {}

  close(): void {}

  unwrap<T>(): T {
    return this.broker as unknown as T;
  }

  /** `send` without the Observable: what `request()` uses (see `BusRequester.ask`). */
  async ask(pattern: string, data: unknown): Promise<unknown> {
    const reply = await this.broker.request(pattern, data);
    if ('error' in reply) throw reply.error;
    return reply.response;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    let unsubscribed = false;
    this.ask(this.normalizePattern(packet.pattern), packet.data).then(
      (response) => unsubscribed || callback({ response, isDisposed: true }),
      (err: unknown) => unsubscribed || callback({ err }),
    );
    return () => {
      unsubscribed = true;
    };
  }

  /** Completes once every subscribed app has handled the event (see `InProcessBroker`). */
  protected async dispatchEvent<T>(packet: ReadPacket): Promise<T> {
    await this.broker.publish(this.normalizePattern(packet.pattern), JSON.stringify(packet.data));
    return undefined as T;
  }
}
