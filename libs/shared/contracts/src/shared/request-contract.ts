import type { AppName } from './apps';
import type { MessageClass } from './validate-message';

/** One request-reply pattern of `REQUESTS`: who answers, who asks, and the two message classes. */
export interface RequestContract<Request extends object, Reply extends object> {
  /** The one app whose `@MessagePattern` answers; no other app may register the pattern. */
  owner: AppName;
  /** The apps that ask: on Kafka each listens for the replies of exactly these patterns. */
  callers: readonly AppName[];
  request: MessageClass<Request>;
  reply: MessageClass<Reply>;
}
