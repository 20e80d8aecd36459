import { IntegrationEvent, validateMessage } from '@xaalis/contracts';
import type { RecordedEvent } from '@xaalis/event-store';
import {
  apiKeyIssued,
  MERCHANT_ID,
  merchantCreated,
  SECRET_AT_CREATION,
  T0,
  webhookSecretRolled,
} from '@xaalis/identity-domain/testing';
import type { MerchantEvent } from '@xaalis/identity-domain';
import { identityIntegrationEvents } from './merchant.integration-events';

const recorded = (event: MerchantEvent, revision = 3n): RecordedEvent => ({
  id: '6f1c2b9e-3a4d-4c5e-8f70-1a2b3c4d5e6f',
  streamName: `merchant-${MERCHANT_ID}`,
  type: event.type,
  data: event.data,
  metadata: {},
  revision,
  position: '00000000000000000042',
  createdAt: T0,
});

describe('identity integration events', () => {
  const accountUpdated: MerchantEvent = {
    type: 'AccountUpdated',
    data: {
      merchantId: MERCHANT_ID,
      mode: 'live',
      webhookUrl: 'https://shop.sn/hooks',
      updatedAt: T0.toISOString(),
    },
  };

  it('publish account.updated, valid against the contract, with a stable id', () => {
    const [event] = identityIntegrationEvents(recorded(accountUpdated));
    expect(validateMessage(IntegrationEvent, event)).toBeTruthy();
    expect(event).toMatchObject({
      type: 'account.updated',
      merchant_id: MERCHANT_ID,
      livemode: true,
      source: { stream: `merchant-${MERCHANT_ID}`, revision: 3 },
      data: {
        object: {
          object: 'account',
          id: MERCHANT_ID,
          livemode: true,
          webhook_url: 'https://shop.sn/hooks',
        },
      },
    });
    expect(identityIntegrationEvents(recorded(accountUpdated))[0].id).toBe(event.id);
  });

  it('keep merchants, keys and secrets inside identity', () => {
    expect(identityIntegrationEvents(recorded(merchantCreated()))).toEqual([]);
    expect(identityIntegrationEvents(recorded(apiKeyIssued()))).toEqual([]);
    const rolled = webhookSecretRolled('v1.a.b.c', {
      webhookSecretEncrypted: SECRET_AT_CREATION,
      expiresAt: T0,
    });
    expect(identityIntegrationEvents(recorded(rolled))).toEqual([]);
    expect(identityIntegrationEvents({ ...recorded(accountUpdated), type: 'Unknown' })).toEqual([]);
  });
});
