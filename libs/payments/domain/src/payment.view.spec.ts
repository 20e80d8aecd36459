import { decide } from './payment.decide';
import type { PaymentEvent } from './payment.events';
import {
  at,
  AMOUNT,
  chooseMethod,
  createPayment,
  CUSTOMER_PHONE,
  EXPIRES_AT,
  HISTORY_BY_STATUS,
  methodChosen,
  newPaidPayment,
  newPayment,
  newProcessingPayment,
  PAYMENT_ID,
  paymentCreated,
  paymentOf,
  paymentSucceeded,
  providerStart,
  refundRequested,
  refundSucceeded,
  sessionFound,
  stateOf,
  WAVE_LIVE_URL,
} from './payment.fixtures';
import type { PaymentStatus } from './payment.state';
import {
  checkoutUrl,
  nextAction,
  returnUrl,
  toCustomerView,
  toPaymentObject,
  type CustomerPaymentView,
  type PaymentLinks,
  type PaymentObject,
} from './payment.view';

const BASE = 'https://xaalis.example';
const CS = `${PAYMENT_ID}_secret_Zm9vYmFyLWJhei1xdXV4LTAxMjM0NTY3`;
const LINKS: PaymentLinks = { baseUrl: BASE, clientSecret: CS };
const CHECKOUT = `${BASE}/checkout/${PAYMENT_ID}?cs=${CS}`;
const SANDBOX_WAVE = `${BASE}/sandbox/wave/${PAYMENT_ID}?cs=${CS}`;

const SPEC_2_1_FIELDS = [
  'id',
  'object',
  'livemode',
  'amount',
  'currency',
  'fee',
  'net',
  'status',
  'provider',
  'client_reference',
  'description',
  'customer',
  'checkout_url',
  'next_action',
  'metadata',
  'failure_reason',
  'provider_transaction_id',
  'expires_at',
  'succeeded_at',
  'created_at',
];

const SPEC_2_2_FIELDS = [
  'id',
  'livemode',
  'amount',
  'currency',
  'status',
  'description',
  'merchant',
  'provider',
  'available_providers',
  'next_action',
  'expires_at',
  'return_url',
];

const objectOf = (events: PaymentEvent[], links = LINKS) =>
  toPaymentObject(paymentOf(events), links);
const customerViewOf = (events: PaymentEvent[], links = LINKS) =>
  toCustomerView(paymentOf(events), links);

/** The payment object of a new test-mode payment; each state below says what differs. */
const NEW_PAYMENT_OBJECT: PaymentObject = {
  id: PAYMENT_ID,
  object: 'payment',
  livemode: false,
  amount: AMOUNT,
  currency: 'XOF',
  fee: 0,
  net: AMOUNT,
  amount_refunded: 0,
  status: 'requires_payment_method',
  provider: null,
  client_reference: 'order-42',
  description: 'Thieboudienne x2',
  customer: { phone: CUSTOMER_PHONE, name: 'Awa Diop' },
  checkout_url: CHECKOUT,
  next_action: { type: 'redirect', url: CHECKOUT },
  metadata: { order: '42' },
  failure_reason: null,
  provider_transaction_id: null,
  expires_at: '2026-11-22T10:30:00.000Z',
  succeeded_at: null,
  created_at: '2026-11-22T10:00:00.000Z',
};

const WITH_WAVE = { provider: 'wave', fee: 100, net: 9_900 } as const;

const PAYMENT_OBJECT_BY_STATUS: Record<PaymentStatus, PaymentObject> = {
  requires_payment_method: NEW_PAYMENT_OBJECT,
  processing: {
    ...NEW_PAYMENT_OBJECT,
    ...WITH_WAVE,
    status: 'processing',
    next_action: { type: 'redirect', url: SANDBOX_WAVE },
  },
  succeeded: {
    ...NEW_PAYMENT_OBJECT,
    ...WITH_WAVE,
    status: 'succeeded',
    provider_transaction_id: 'txn-1',
    succeeded_at: at(2).toISOString(),
  },
  failed: { ...NEW_PAYMENT_OBJECT, ...WITH_WAVE, status: 'failed', failure_reason: 'declined' },
  expired: { ...NEW_PAYMENT_OBJECT, ...WITH_WAVE, status: 'expired' },
  refunded: {
    ...NEW_PAYMENT_OBJECT,
    ...WITH_WAVE,
    status: 'refunded',
    amount_refunded: AMOUNT,
    provider_transaction_id: 'txn-1',
    succeeded_at: at(2).toISOString(),
  },
};

const STATUSES = Object.keys(PAYMENT_OBJECT_BY_STATUS) as PaymentStatus[];

describe('toPaymentObject (spec 2.1)', () => {
  it.each(STATUSES)('shows a %s payment field by field', (status) => {
    expect(objectOf(HISTORY_BY_STATUS[status]())).toEqual(PAYMENT_OBJECT_BY_STATUS[status]);
  });

  it.each(STATUSES)('has every spec 2.1 field when %s, plus amount_refunded', (status) => {
    expect(Object.keys(objectOf(HISTORY_BY_STATUS[status]())).sort()).toEqual(
      [...SPEC_2_1_FIELDS, 'amount_refunded'].sort(),
    );
  });

  it('is livemode for a live payment', () => {
    expect(objectOf([paymentCreated({ mode: 'live' })]).livemode).toBe(true);
  });

  it('shows nulls as nulls where the merchant gave nothing', () => {
    const object = objectOf([
      paymentCreated({
        description: null,
        clientReference: null,
        customer: { phone: null, name: null },
        metadata: {},
      }),
    ]);
    expect(object).toMatchObject({
      description: null,
      client_reference: null,
      customer: { phone: null, name: null },
      metadata: {},
    });
  });

  it('amount_refunded counts what reached the customer, not what is pending', () => {
    const history = [
      ...newPaidPayment(),
      refundRequested({ amount: 3_000 }),
      refundRequested({ refundId: 're_2', amount: 2_000 }),
    ];
    expect(objectOf(history).amount_refunded).toBe(0);
    expect(objectOf([...history, refundSucceeded()]).amount_refunded).toBe(3_000);
  });

  it('keeps the fee and net decided at success', () => {
    const object = objectOf([
      ...newProcessingPayment(),
      paymentSucceeded({ fee: 130, net: 9_870 }),
    ]);
    expect(object).toMatchObject({ fee: 130, net: 9_870 });
    expect(object.fee + object.net).toBe(object.amount);
  });
});

describe('next_action and checkout_url', () => {
  it('checkout_url is the hosted checkout with the client secret', () => {
    expect(checkoutUrl(paymentOf(newPayment()), LINKS)).toBe(CHECKOUT);
  });

  it('before a method is chosen: the hosted checkout, to pick one', () => {
    expect(nextAction(paymentOf(newPayment()), LINKS)).toEqual({ type: 'redirect', url: CHECKOUT });
  });

  it('processing with a sandbox path: that page on our base URL, with ?cs=', () => {
    expect(nextAction(paymentOf(newProcessingPayment()), LINKS)).toEqual({
      type: 'redirect',
      url: SANDBOX_WAVE,
    });
  });

  it("processing with a provider's own page: that page as it is", () => {
    const history = [
      paymentCreated({ mode: 'live' }),
      methodChosen({ redirectUrl: WAVE_LIVE_URL }),
    ];
    expect(nextAction(paymentOf(history), LINKS)).toEqual({
      type: 'redirect',
      url: WAVE_LIVE_URL,
    });
  });

  it('processing after a start of unknown outcome: the hosted checkout until the page is found', () => {
    const unknown = [
      paymentCreated(),
      methodChosen({ providerReference: null, redirectUrl: null }),
    ];
    expect(nextAction(paymentOf(unknown), LINKS).url).toBe(CHECKOUT);
    expect(nextAction(paymentOf([...unknown, sessionFound()]), LINKS).url).toBe(WAVE_LIVE_URL);
  });

  it.each(['succeeded', 'failed', 'expired', 'refunded'] as const)(
    'once %s: the hosted checkout (to see how it ended), not the provider page',
    (status) => {
      expect(nextAction(paymentOf(HISTORY_BY_STATUS[status]()), LINKS).url).toBe(CHECKOUT);
    },
  );

  it('encodes the client secret in the query', () => {
    const links = { baseUrl: BASE, clientSecret: 'a+b/c=d&e' };
    expect(checkoutUrl(paymentOf(newPayment()), links)).toBe(
      `${BASE}/checkout/${PAYMENT_ID}?cs=a%2Bb%2Fc%3Dd%26e`,
    );
    expect(nextAction(paymentOf(newProcessingPayment()), links).url).toBe(
      `${BASE}/sandbox/wave/${PAYMENT_ID}?cs=a%2Bb%2Fc%3Dd%26e`,
    );
  });

  it('writes no secret into the stream: the recorded page is a bare path', () => {
    const [created, chosen] = decide(createPayment({ start: providerStart() }), stateOf([]));
    expect(JSON.stringify([created, chosen])).not.toContain('secret');
    expect(chosen).toMatchObject({ data: { redirectUrl: `/sandbox/wave/${PAYMENT_ID}` } });
  });
});

describe('toCustomerView (spec 2.2)', () => {
  const NEW_VIEW: CustomerPaymentView = {
    id: PAYMENT_ID,
    livemode: false,
    amount: AMOUNT,
    currency: 'XOF',
    status: 'requires_payment_method',
    description: 'Thieboudienne x2',
    merchant: { name: 'Boutique Ndiaye' },
    provider: null,
    available_providers: ['wave', 'orange_money'],
    next_action: { type: 'redirect', url: CHECKOUT },
    expires_at: EXPIRES_AT.toISOString(),
    return_url: null,
  };

  const VIEW_BY_STATUS: Record<PaymentStatus, CustomerPaymentView> = {
    requires_payment_method: NEW_VIEW,
    processing: {
      ...NEW_VIEW,
      status: 'processing',
      provider: 'wave',
      next_action: { type: 'redirect', url: SANDBOX_WAVE },
    },
    succeeded: {
      ...NEW_VIEW,
      status: 'succeeded',
      provider: 'wave',
      return_url: 'https://shop.sn/merci',
    },
    failed: {
      ...NEW_VIEW,
      status: 'failed',
      provider: 'wave',
      return_url: 'https://shop.sn/panier',
    },
    expired: {
      ...NEW_VIEW,
      status: 'expired',
      provider: 'wave',
      return_url: 'https://shop.sn/panier',
    },
    refunded: {
      ...NEW_VIEW,
      status: 'refunded',
      provider: 'wave',
      return_url: 'https://shop.sn/merci',
    },
  };

  it.each(STATUSES)('shows a %s payment to the customer field by field', (status) => {
    expect(customerViewOf(HISTORY_BY_STATUS[status]())).toEqual(VIEW_BY_STATUS[status]);
  });

  it('has exactly the spec 2.2 fields, nothing of the merchant side', () => {
    expect(Object.keys(customerViewOf(newPaidPayment())).sort()).toEqual(
      [...SPEC_2_2_FIELDS].sort(),
    );
  });

  it.each<[PaymentStatus, string | null]>([
    ['requires_payment_method', null],
    ['processing', null],
    ['succeeded', 'https://shop.sn/merci'],
    ['refunded', 'https://shop.sn/merci'],
    ['failed', 'https://shop.sn/panier'],
    ['expired', 'https://shop.sn/panier'],
  ])('return_url when %s: %s', (status, expected) => {
    expect(returnUrl(paymentOf(HISTORY_BY_STATUS[status]()))).toBe(expected);
  });

  it('return_url is null when the merchant gave no URL', () => {
    const noUrls = { successUrl: null, cancelUrl: null };
    for (const status of ['succeeded', 'failed', 'expired', 'refunded'] as const) {
      const [, ...rest] = HISTORY_BY_STATUS[status]();
      expect(returnUrl(paymentOf([paymentCreated(noUrls), ...rest]))).toBeNull();
    }
  });

  it('offers what the payment offers: live without the wave identity, orange_money only', () => {
    const view = customerViewOf([
      paymentCreated({ mode: 'live', availableProviders: ['orange_money'] }),
    ]);
    expect(view).toMatchObject({ livemode: true, available_providers: ['orange_money'] });
  });

  it('the pay step gives the customer a provider and a next action', () => {
    const history = newPayment();
    const command = chooseMethod({ start: providerStart({ provider: 'orange_money' }) });
    const view = customerViewOf([...history, ...decide(command, stateOf(history))]);
    expect(view).toMatchObject({
      status: 'processing',
      provider: 'orange_money',
      next_action: {
        type: 'redirect',
        url: `${BASE}/sandbox/orange_money/${PAYMENT_ID}?cs=${CS}`,
      },
      return_url: null,
    });
  });
});
