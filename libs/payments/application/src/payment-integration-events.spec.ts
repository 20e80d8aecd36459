import { PaymentReply, validateMessage } from '@xaalis/contracts';
import { toPaymentObject, type PaymentStatus } from '@xaalis/payments-domain';
import { HISTORY_BY_STATUS, paymentOf } from '@xaalis/payments-domain/testing';

const LINKS = { baseUrl: 'https://pay.example.sn', clientSecret: 'pay_secret' };

/**
 * The object the forwarder publishes is the one class consumers validate it against: a payment
 * in any status passes PaymentReply unchanged, so no consumer refuses what payments sends.
 */
describe('the payment events object', () => {
  it.each(Object.keys(HISTORY_BY_STATUS) as PaymentStatus[])(
    'is a valid PaymentReply when the payment is %s',
    (status) => {
      const object = toPaymentObject(paymentOf(HISTORY_BY_STATUS[status]()), LINKS);

      expect(validateMessage(PaymentReply, object)).toEqual(object);
    },
  );
});
