import { PaymentListReply } from '../payments/payments.replies';
import { validateMessage } from './validate-message';
import { WebhookEventListReply } from '../webhooks/webhooks.messages';

describe('ListReply', () => {
  it('validates each item as its own class', () => {
    expect(() =>
      validateMessage(PaymentListReply, { data: [{ id: 'not a payment' }], has_more: false }),
    ).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(() => validateMessage(WebhookEventListReply, { data: [], has_more: 'no' })).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });

  it('accepts an empty page', () => {
    expect(validateMessage(PaymentListReply, { data: [], has_more: false })).toEqual(
      Object.assign(new PaymentListReply(), { data: [], has_more: false }),
    );
  });
});
