import type { PaymentEvent, PaymentEventType } from './payment.events';
import { PAYMENT_EVENT_TYPES } from './payment.events';
import {
  AMOUNT,
  at,
  CUSTOMER_PHONE,
  EXPIRES_AT,
  MERCHANT_ID,
  methodChosen,
  newPaidPayment,
  newPayment,
  newProcessingPayment,
  OTHER_REFUND_ID,
  PAYMENT_ID,
  paymentCreated,
  paymentExpired,
  paymentFailed,
  paymentOf,
  paymentSucceeded,
  REFUND_ID,
  refundFailed,
  refundRequested,
  refundSucceeded,
  sandboxPath,
  sessionFound,
  stateOf,
  T0,
  WAVE_LIVE_URL,
} from './payment.fixtures';
import {
  amountRefunded,
  evolve,
  initialState,
  isOpen,
  refundedOrPending,
  type Payment,
  type RefundState,
} from './payment.state';

/** Evolve one event onto the state these events leave, expecting a payment. */
function evolved(history: PaymentEvent[], event: PaymentEvent): Payment {
  return paymentOf([...history, event]);
}

const created = (): Payment => paymentOf(newPayment());
const processing = (): Payment => paymentOf(newProcessingPayment());
const paid = (): Payment => paymentOf(newPaidPayment());

const pendingRefund = (overrides: Partial<RefundState> = {}): RefundState => ({
  refundId: REFUND_ID,
  amount: AMOUNT,
  status: 'pending',
  failureReason: null,
  createdAt: at(3).toISOString(),
  settledAt: null,
  ...overrides,
});

/** One test per event type, each listed here so a new event type without a test shows. */
const TESTED: PaymentEventType[] = [];
const forEvent = (type: PaymentEventType, body: () => void) => {
  TESTED.push(type);
  describe(type, body);
};

describe('payment evolve', () => {
  it('starts absent', () => {
    expect(initialState()).toEqual({ status: 'absent' });
  });

  forEvent('PaymentCreated', () => {
    it('creates the payment, waiting for a method, the whole amount as net', () => {
      expect(evolve(initialState(), paymentCreated())).toEqual({
        paymentId: PAYMENT_ID,
        merchantId: MERCHANT_ID,
        mode: 'test',
        merchantName: 'Boutique Ndiaye',
        amount: AMOUNT,
        currency: 'XOF',
        fee: 0,
        net: AMOUNT,
        status: 'requires_payment_method',
        provider: null,
        providerReference: null,
        redirectUrl: null,
        description: 'Thieboudienne x2',
        clientReference: 'order-42',
        customer: { phone: CUSTOMER_PHONE, name: 'Awa Diop' },
        successUrl: 'https://shop.sn/merci',
        cancelUrl: 'https://shop.sn/panier',
        metadata: { order: '42' },
        aggregatedMerchantId: null,
        availableProviders: ['wave', 'orange_money'],
        failureReason: null,
        providerTransactionId: null,
        expiresAt: EXPIRES_AT.toISOString(),
        succeededAt: null,
        createdAt: T0.toISOString(),
        refunds: [],
      } satisfies Payment);
    });
  });

  forEvent('PaymentMethodChosen', () => {
    it('moves to processing with the provider, its session, page and fee', () => {
      expect(evolved(newPayment(), methodChosen({ provider: 'orange_money' }))).toEqual({
        ...created(),
        status: 'processing',
        provider: 'orange_money',
        providerReference: 'orange_money-session-1',
        redirectUrl: sandboxPath('orange_money'),
        fee: 150,
        net: 9_850,
      });
    });

    it('takes the phone given at the pay step, else keeps the one given at creation', () => {
      expect(
        evolved(newPayment(), methodChosen({ customerPhone: '+221781112233' })).customer,
      ).toEqual({ phone: '+221781112233', name: 'Awa Diop' });
      expect(evolved(newPayment(), methodChosen({ customerPhone: null })).customer).toEqual({
        phone: CUSTOMER_PHONE,
        name: 'Awa Diop',
      });
    });
  });

  forEvent('PaymentSessionFound', () => {
    it('records the session and its page', () => {
      expect(evolved(newProcessingPayment(), sessionFound())).toEqual({
        ...processing(),
        providerReference: 'wave-session-2',
        redirectUrl: WAVE_LIVE_URL,
      });
    });

    it('keeps the page it had when the session comes without one', () => {
      expect(evolved(newProcessingPayment(), sessionFound({ redirectUrl: null }))).toEqual({
        ...processing(),
        providerReference: 'wave-session-2',
        redirectUrl: sandboxPath('wave'),
      });
    });
  });

  forEvent('PaymentSucceeded', () => {
    it('succeeds with the provider, its transaction, fee, net and time', () => {
      expect(
        evolved(
          newProcessingPayment(),
          paymentSucceeded({ provider: 'wave', fee: 120, net: 9_880 }),
        ),
      ).toEqual({
        ...processing(),
        status: 'succeeded',
        provider: 'wave',
        providerTransactionId: 'txn-1',
        fee: 120,
        net: 9_880,
        succeededAt: at(2).toISOString(),
      });
    });

    it('sets the provider when none was chosen (a test helper on the sandbox)', () => {
      const payment = evolved(newPayment(), paymentSucceeded({ provider: 'mock' }));
      expect(payment).toMatchObject({
        status: 'succeeded',
        provider: 'mock',
        fee: 200,
        net: 9_800,
      });
    });

    it('after our expiry: succeeded, no failure reason', () => {
      const payment = evolved([...newProcessingPayment(), paymentExpired()], paymentSucceeded());
      expect(payment).toMatchObject({ status: 'succeeded', failureReason: null });
    });
  });

  forEvent('PaymentFailed', () => {
    it('fails with the reason', () => {
      expect(evolved(newProcessingPayment(), paymentFailed('declined'))).toEqual({
        ...processing(),
        status: 'failed',
        failureReason: 'declined',
      });
    });
  });

  forEvent('PaymentExpired', () => {
    it('expires, changing nothing else', () => {
      expect(evolved(newProcessingPayment(), paymentExpired())).toEqual({
        ...processing(),
        status: 'expired',
      });
    });
  });

  forEvent('RefundRequested', () => {
    it('adds a pending refund; the payment stays succeeded', () => {
      expect(evolved(newPaidPayment(), refundRequested({ amount: 4_000 }))).toEqual({
        ...paid(),
        refunds: [pendingRefund({ amount: 4_000 })],
      });
    });

    it('keeps refunds in the order they were asked', () => {
      const payment = paymentOf([
        ...newPaidPayment(),
        refundRequested({ amount: 4_000 }),
        refundRequested({ refundId: OTHER_REFUND_ID, amount: 1_000 }),
      ]);
      expect(payment.refunds.map((refund) => [refund.refundId, refund.amount])).toEqual([
        [REFUND_ID, 4_000],
        [OTHER_REFUND_ID, 1_000],
      ]);
    });
  });

  forEvent('RefundSucceeded', () => {
    it('settles that refund; the payment stays succeeded while refunds fall short of its amount', () => {
      const history = [
        ...newPaidPayment(),
        refundRequested({ amount: 4_000 }),
        refundRequested({ refundId: OTHER_REFUND_ID, amount: 1_000 }),
      ];
      expect(evolved(history, refundSucceeded(REFUND_ID, at(4)))).toEqual({
        ...paid(),
        status: 'succeeded',
        refunds: [
          pendingRefund({ amount: 4_000, status: 'succeeded', settledAt: at(4).toISOString() }),
          pendingRefund({ refundId: OTHER_REFUND_ID, amount: 1_000 }),
        ],
      });
    });

    it('makes the payment refunded when the refunds that reached the customer add up to its amount', () => {
      const amount = paid().amount;
      const history = [
        ...newPaidPayment(),
        refundRequested({ amount: amount - 1_000 }),
        refundRequested({ refundId: OTHER_REFUND_ID, amount: 1_000 }),
        refundSucceeded(OTHER_REFUND_ID, at(4)),
      ];
      expect(evolved(history, refundSucceeded(REFUND_ID, at(5)))).toMatchObject({
        status: 'refunded',
      });
    });
  });

  forEvent('RefundFailed', () => {
    it('settles that refund as failed with the reason; the payment stays succeeded', () => {
      expect(
        evolved([...newPaidPayment(), refundRequested()], refundFailed(REFUND_ID, 'refused')),
      ).toEqual({
        ...paid(),
        refunds: [
          pendingRefund({
            status: 'failed',
            failureReason: 'refused',
            settledAt: at(4).toISOString(),
          }),
        ],
      });
    });
  });

  it('has a test for every event type', () => {
    expect([...TESTED].sort()).toEqual([...PAYMENT_EVENT_TYPES].sort());
  });

  it.each([
    methodChosen(),
    sessionFound(),
    paymentSucceeded(),
    paymentFailed(),
    paymentExpired(),
    refundRequested(),
    refundSucceeded(),
    refundFailed(),
  ])('ignores $type before the payment exists', (event) => {
    expect(stateOf([event])).toEqual({ status: 'absent' });
  });

  describe('what refunds claim', () => {
    const history = [
      ...newPaidPayment(),
      refundRequested({ amount: 1_000 }),
      refundRequested({ refundId: 're_2', amount: 2_000 }),
      refundRequested({ refundId: 're_3', amount: 3_000 }),
      refundSucceeded(REFUND_ID),
      refundFailed('re_3'),
    ];

    it('refundedOrPending counts succeeded and pending, not failed', () => {
      expect(refundedOrPending(paymentOf(history))).toBe(3_000);
    });

    it('amountRefunded counts only what reached the customer', () => {
      expect(amountRefunded(paymentOf(history))).toBe(1_000);
      expect(amountRefunded(paid())).toBe(0);
    });
  });

  it('only requires_payment_method and processing are open', () => {
    expect(isOpen(created())).toBe(true);
    expect(isOpen(processing())).toBe(true);
    expect(isOpen(paid())).toBe(false);
    expect(isOpen(paymentOf([...newPayment(), paymentFailed()]))).toBe(false);
    expect(isOpen(paymentOf([...newPayment(), paymentExpired()]))).toBe(false);
  });
});
