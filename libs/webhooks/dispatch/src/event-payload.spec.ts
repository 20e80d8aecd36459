import type { IntegrationEvent } from '@xaalis/contracts';
import { bareEventObject } from '@xaalis/contracts/testing';
import { payloadBody, toWebhookPayload } from './event-payload';

const event: IntegrationEvent = {
  id: 'evt_01JF0000000000000000000000',
  type: 'payment.succeeded',
  merchant_id: 'mer_01JF0000000000000000000000',
  livemode: false,
  created_at: '2026-11-22T10:00:00.000Z',
  source: { stream: 'payment-pay_01JF0000000000000000000000', revision: 2 },
  data: {
    object: bareEventObject({
      id: 'pay_01JF0000000000000000000000',
      object: 'payment',
      amount: 5000,
    }),
  },
};

describe('webhook payload (spec 2.10)', () => {
  it('is the envelope without merchant_id and source', () => {
    expect(toWebhookPayload(event)).toEqual({
      id: event.id,
      type: 'payment.succeeded',
      livemode: false,
      created_at: '2026-11-22T10:00:00.000Z',
      data: { object: event.data.object },
    });
  });

  it('serialises in a fixed key order, keeping the object as the producer made it', () => {
    expect(payloadBody(toWebhookPayload(event))).toBe(
      '{"id":"evt_01JF0000000000000000000000","type":"payment.succeeded","livemode":false,' +
        '"created_at":"2026-11-22T10:00:00.000Z","data":{"object":' +
        '{"id":"pay_01JF0000000000000000000000","object":"payment","amount":5000}}}',
    );
  });
});
