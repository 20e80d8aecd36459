import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Agent } from 'node:https';
import { CONFIG } from '@xaalis/config';
import { createWebhookAgent } from '@xaalis/webhook-sender';

/**
 * Agents that tests put in place of the default one, by the app's config object. Node reads
 * NODE_EXTRA_CA_CERTS only at process start, so an in-process test cannot make a throwaway CA
 * trusted any other way; deployments never call this (the sender's own trust test covers
 * NODE_EXTRA_CA_CERTS).
 */
const testAgents = new WeakMap<object, Agent>();

export function useWebhookAgentForTests(config: object, agent: Agent): void {
  testAgents.set(config, agent);
}

/** The dispatcher's one connection pool (keep-alive per origin, capped). */
@Injectable()
export class WebhookTransport implements OnApplicationShutdown {
  private readonly own = createWebhookAgent();

  constructor(@Inject(CONFIG) private readonly config: object) {}

  agent(): Agent {
    return testAgents.get(this.config) ?? this.own;
  }

  onApplicationShutdown(): void {
    this.own.destroy();
  }
}
