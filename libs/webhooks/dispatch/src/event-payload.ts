import type { IntegrationEvent } from '@xaalis/contracts';

/** Spec 2.10 / 6: what a merchant receives, in this key order. */
export interface WebhookPayload {
  id: string;
  type: string;
  livemode: boolean;
  created_at: string;
  data: { object: object };
}

/** The bus envelope minus what is ours (`merchant_id`, `source`). */
export function toWebhookPayload(event: IntegrationEvent): WebhookPayload {
  return {
    id: event.id,
    type: event.type,
    livemode: event.livemode,
    created_at: event.created_at,
    data: { object: event.data.object },
  };
}

/** The body bytes, made once and stored as text, so every attempt sends the same ones. */
export function payloadBody(payload: WebhookPayload): string {
  return JSON.stringify({
    id: payload.id,
    type: payload.type,
    livemode: payload.livemode,
    created_at: payload.created_at,
    data: { object: payload.data.object },
  });
}
