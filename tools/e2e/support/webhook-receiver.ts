import type { HttpsReceiver, ReceiverReply } from '@xaalis/webhook-sender';
import { sleep } from './processes';

/**
 * A script of replies played in order (the last repeats) that notes when each request arrived,
 * so a test can compare arrivals with the schedule the service reports.
 */
export function timedScript(replies: readonly ReceiverReply[]): {
  behaviour: (request: unknown, index: number) => ReceiverReply;
  arrivals: number[];
} {
  const arrivals: number[] = [];
  return {
    arrivals,
    behaviour: (_request, index) => {
      arrivals[index] = Date.now();
      return replies[Math.min(index, replies.length - 1)]!;
    },
  };
}

/** Waits until the receiver holds `count` requests; fails with how many it got. */
export async function untilRequests(
  receiver: HttpsReceiver,
  count: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.requests.length < count) {
    if (Date.now() > deadline) {
      throw new Error(
        `the receiver got ${receiver.requests.length} of ${count} requests within ${timeoutMs} ms`,
      );
    }
    await sleep(20);
  }
}
