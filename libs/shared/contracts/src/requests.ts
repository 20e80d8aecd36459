import type { AppName } from './apps';
import type { MessageClass } from './validate-message';
import { BalanceReply, BalanceRequest } from './payouts.messages';

export const PAYOUTS_BALANCE_GET = 'payouts.balance.get';

interface RequestContract<Request extends object, Reply extends object> {
  /** The one app whose `@MessagePattern` answers; no other app may register the pattern. */
  owner: AppName;
  request: MessageClass<Request>;
  reply: MessageClass<Reply>;
}

/**
 * Every request-reply pattern, with its owner and its request and reply classes. A pattern is
 * `<owner>.<noun>.<verb>`; on Kafka it is the request topic and `<pattern>.reply` the reply topic.
 */
export const REQUESTS = {
  [PAYOUTS_BALANCE_GET]: {
    owner: 'payouts',
    request: BalanceRequest,
    reply: BalanceReply,
  } satisfies RequestContract<BalanceRequest, BalanceReply>,
} as const;

export type RequestPattern = keyof typeof REQUESTS;
export type RequestOf<Pattern extends RequestPattern> = InstanceType<
  (typeof REQUESTS)[Pattern]['request']
>;
export type ReplyOf<Pattern extends RequestPattern> = InstanceType<
  (typeof REQUESTS)[Pattern]['reply']
>;

export const REQUEST_PATTERNS = Object.keys(REQUESTS) as RequestPattern[];
