import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type { Clock } from '@xaalis/kernel';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from '@xaalis/webhook-signature';
import { sendWebhook } from '@xaalis/webhook-sender';
import { DeliveryQueue } from './delivery-queue';
import { afterAttempt, DELIVERY_TIMEOUT_MS } from './delivery-schedule';
import type { LeasedDelivery } from './webhook-rows';
import { WebhookSecretsCache } from './webhook-secrets.cache';
import { WebhookTransport } from './webhook-transport';

/** One attempt of one leased delivery: sign, POST, record the outcome and the next attempt. */
@Injectable()
export class WebhookAttempt {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly secrets: WebhookSecretsCache,
    private readonly transport: WebhookTransport,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  /** Resolves once the outcome is written; `sent` is called as soon as the exchange is over. */
  async run(delivery: LeasedDelivery, sent?: () => void): Promise<void> {
    const result = await this.send(delivery).finally(() => sent?.());
    const attempts = delivery.attempts + 1;
    const now = this.clock.now();
    const next = afterAttempt({
      attempts,
      outcome: result.outcome,
      now,
      retryBaseMs: this.config.webhookRetryBaseMs,
    });
    await this.queue.recordAttempt({
      id: delivery.id,
      lease: delivery.lease,
      status: next.status,
      nextAttemptAt: next.nextAttemptAt,
      statusCode: result.statusCode,
      error: result.error,
      now,
    });
    if (result.outcome === 'failed') {
      this.logger.debug(`${delivery.id} attempt ${attempts}: ${result.error ?? 'failed'}`);
    }
  }

  private async send(delivery: LeasedDelivery) {
    let secrets: string[];
    try {
      secrets = await this.secrets.secretsOf(delivery.merchant_id);
    } catch {
      // Counted as an attempt: the gateway being away must not hold the row forever.
      return { outcome: 'failed' as const, statusCode: null, error: 'not sent: signing failed' };
    }
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    return sendWebhook({
      url: delivery.url,
      rawBody: delivery.body,
      headers: {
        [SIGNATURE_HEADER]: signatureHeader({ secrets, timestamp, rawBody: delivery.body }),
        [EVENT_ID_HEADER]: delivery.event_id,
      },
      allowedHosts: this.config.webhookAllowedHosts,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      agent: this.transport.agent(),
    });
  }
}
