import type { Agent } from 'node:https';
import { useWebhookAgentForTests } from '@xaalis/webhook-dispatch';
import {
  createTestCertificates,
  createWebhookAgent,
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceiverReply,
} from '@xaalis/webhook-sender';
import { startInProcessService, type InProcessService } from './in-process-service';
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

/** The service in process, delivering over HTTPS to receivers on loopback that it trusts. */
export interface HttpsWebhookService {
  service: InProcessService;
  /** A new receiver, closed with the service. */
  receiver(): Promise<HttpsReceiver>;
  close(): Promise<void>;
}

/**
 * Starts the service with deliveries allowed to `localhost` and a throwaway CA trusted through
 * the dispatcher's agent (Node reads NODE_EXTRA_CA_CERTS only at start). `env` adds settings.
 */
export async function startHttpsWebhookService(
  env: Record<string, string> = {},
): Promise<HttpsWebhookService> {
  const certs = createTestCertificates();
  const receivers: HttpsReceiver[] = [];
  let agent: Agent | undefined;
  let service: InProcessService | undefined;
  const close = async () => {
    await service?.close();
    agent?.destroy();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    certs.remove();
  };
  try {
    service = await startInProcessService({ WEBHOOK_ALLOWED_HOSTS: 'localhost', ...env });
    agent = createWebhookAgent({ ca: certs.ca });
    useWebhookAgentForTests(service.service.infra.config, agent);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    service,
    async receiver() {
      const started = await startHttpsReceiver({ cert: certs.cert, key: certs.key });
      receivers.push(started);
      return started;
    },
    close,
  };
}
