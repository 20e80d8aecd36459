import {
  ALL_PAYMENT_JOB_KINDS,
  parseRefundJobReference,
  paymentJobs,
  refundJobReference,
} from './payment-jobs.kinds';

describe('payment job kinds and references', () => {
  it('names every kind under payment.', () => {
    expect(ALL_PAYMENT_JOB_KINDS).toEqual([
      'payment.expire',
      'payment.reconcile',
      'payment.refund',
    ]);
  });

  it('a refund job names its payment and its refund, and reads back', () => {
    const change = paymentJobs.refund('pay_1', 're_2', null);
    expect(change).toEqual({ kind: 'payment.refund', reference: 'pay_1:re_2', dueAt: null });
    expect(parseRefundJobReference(refundJobReference('pay_1', 're_2'))).toEqual({
      paymentId: 'pay_1',
      refundId: 're_2',
    });
  });

  it('refuses a reference that is not <pay_id>:<re_id>', () => {
    for (const reference of ['pay_1', 'pay_1:', ':re_2', 'pay_1:re_2:x']) {
      expect(parseRefundJobReference(reference)).toBeUndefined();
    }
  });
});
