import { BaseRpcContext } from '@nestjs/microservices';

/** What an in-process handler can learn about its message (`@Ctx()`). */
export class InProcessContext extends BaseRpcContext<[pattern: string, group: string]> {
  getPattern(): string {
    return this.args[0];
  }

  /** The app that is handling the message. */
  getGroup(): string {
    return this.args[1];
  }
}
