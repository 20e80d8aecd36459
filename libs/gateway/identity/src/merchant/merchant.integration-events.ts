import { integrationEventId } from '@xaalis/bus';
import type { IntegrationEvent } from '@xaalis/contracts';
import type { RecordedEvent } from '@xaalis/event-store';
import { assertNever, livemode } from '@xaalis/kernel';
import { asMerchantEvent } from './merchant-event-guard';
import { MERCHANT_STREAM_PREFIX } from '@xaalis/identity-domain';

export const IDENTITY_STREAM_PREFIXES = [MERCHANT_STREAM_PREFIX];

/**
 * What other contexts learn from the merchant streams (for the event forwarder): only
 * `account.updated`, which the webhooks app follows to keep each mode's default endpoint.
 * Keys, members and secrets stay inside identity.
 */
export function identityIntegrationEvents(recorded: RecordedEvent): IntegrationEvent[] {
  const event = asMerchantEvent(recorded);
  if (!event) return [];
  switch (event.type) {
    case 'AccountUpdated': {
      const { merchantId, mode, webhookUrl, updatedAt } = event.data;
      return [
        {
          id: integrationEventId(recorded),
          type: 'account.updated',
          merchant_id: merchantId,
          livemode: livemode(mode),
          created_at: updatedAt,
          source: { stream: recorded.streamName, revision: Number(recorded.revision) },
          data: {
            object: {
              object: 'account',
              id: merchantId,
              livemode: livemode(mode),
              webhook_url: webhookUrl,
            },
          },
        },
      ];
    }
    case 'MerchantCreated':
    case 'MemberAdded':
    case 'WaveIdentitySet':
    case 'ApiKeyIssued':
    case 'ApiKeyRolled':
    case 'ApiKeySecretReissued':
    case 'ApiKeyRevoked':
    case 'WebhookSecretRolled':
      return [];
    default:
      return assertNever(event);
  }
}
