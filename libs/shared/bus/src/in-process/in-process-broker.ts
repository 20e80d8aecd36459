import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** A reply as it reaches the asker: the owner's value, or what its handler failed with. */
export type BusReply = { response: unknown } | { error: unknown };

type RequestHandler = (payload: unknown) => Promise<BusReply>;
type EventHandler = (json: string) => Promise<void>;

/** What Nest's own transports answer when no server handles a request pattern. */
export const NO_MESSAGE_HANDLER =
  'There is no matching message handler defined in the remote service.';

export interface InProcessBrokerOptions {
  /** Deliveries of one event to one group before the publish fails. Default 3. */
  eventAttempts?: number;
  /** Wait before the first redelivery; doubles each time. Default 20 ms. */
  retryDelayMs?: number;
  /** Events published before `open()` wait for it (see the class comment). Default false. */
  closedUntilOpen?: boolean;
}

/**
 * The bus of the embedded mode: one per process, shared by the six apps. It keeps the
 * guarantees the apps get from Kafka:
 *
 * - a request goes to the one group that owns its pattern (a second owner is refused);
 * - an event reaches every group subscribed to its topic, once per group, as JSON text, so the
 *   groups handling one event concurrently share no object;
 * - a request and its reply cross as values, as a function call would: the owner's `reply()`
 *   validates the request into an instance of its own (the caller's object is never kept), and a
 *   reply is built for the one caller that asked, who only reads it. Text would cost a
 *   serialization and a parse each way for nothing: the caller and the owner are the same build.
 *
 * `publish` resolves only once every group has handled the event, and rejects if a group still
 * fails after its retries. With no durable log behind it, that is what lets the forwarder keep
 * its checkpoint until the event is really consumed (at least once, even across a crash).
 * Events go only to groups subscribed when they are published. A process that boots its apps one
 * after another creates its broker `closedUntilOpen` and opens it once every app has subscribed:
 * a forwarder catching up at boot (the backlog a crash left) would otherwise publish to groups not
 * listening yet, and its checkpoint would pass events they never got.
 */
export class InProcessBroker {
  private readonly owners = new Map<string, { group: string; handle: RequestHandler }>();
  private readonly subscriptions = new Map<string, Map<string, EventHandler>>();
  private readonly eventAttempts: number;
  private readonly retryDelayMs: number;
  private readonly opened: Promise<void>;
  /** Lets the events published so far go; later ones go at once. */
  readonly open: () => void;

  constructor(options: InProcessBrokerOptions = {}) {
    this.eventAttempts = options.eventAttempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 20;
    let open = () => {};
    this.opened = options.closedUntilOpen
      ? new Promise<void>((resolve) => (open = resolve))
      : Promise.resolve();
    this.open = open;
  }

  /**
   * Registers the group as the one answerer of `pattern`; returns what undoes it. Another group
   * is refused; the same group replaces its handler (the app restarted).
   */
  answer(pattern: string, group: string, handle: RequestHandler): () => void {
    const owner = this.owners.get(pattern);
    if (owner !== undefined && owner.group !== group) {
      throw new Error(
        `Request pattern "${pattern}" is already answered by ${owner.group}; ${group} may not answer it too.`,
      );
    }
    const entry = { group, handle };
    this.owners.set(pattern, entry);
    return () => {
      if (this.owners.get(pattern) === entry) this.owners.delete(pattern);
    };
  }

  /** Subscribes the group to `topic`; returns what undoes it. */
  subscribe(topic: string, group: string, handle: EventHandler): () => void {
    const groups = this.subscriptions.get(topic) ?? new Map<string, EventHandler>();
    groups.set(group, handle);
    this.subscriptions.set(topic, groups);
    return () => {
      if (groups.get(group) === handle) groups.delete(group);
    };
  }

  /** The owner starts at once: no turn of the event loop to wait, as a function call. */
  async request(pattern: string, payload: unknown): Promise<BusReply> {
    const owner = this.owners.get(pattern);
    if (owner === undefined) return { error: NO_MESSAGE_HANDLER };
    return owner.handle(payload);
  }

  async publish(topic: string, json: string): Promise<void> {
    await this.opened;
    const groups = [...(this.subscriptions.get(topic)?.entries() ?? [])];
    // Never inside the publisher's call stack: like a real broker, delivery happens later.
    await nextTurn();
    const results = await Promise.allSettled(
      groups.map(([, handle]) => this.deliver(handle, json)),
    );
    const failed = groups
      .filter((_, index) => results[index].status === 'rejected')
      .map(([group]) => group);
    if (failed.length > 0) {
      throw new Error(
        `Event on "${topic}" was not handled by ${failed.join(', ')} after ${this.eventAttempts} attempts.`,
      );
    }
  }

  private async deliver(handle: EventHandler, json: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await handle(json);
      } catch (error) {
        if (attempt >= this.eventAttempts) throw error;
        await sleep(this.retryDelayMs * 2 ** (attempt - 1));
      }
    }
  }
}
