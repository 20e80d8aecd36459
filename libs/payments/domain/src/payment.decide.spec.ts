import { MAX_PAYMENT_AMOUNT } from '@xaalis/kernel';
import { givenWhenThen, type Outcome as DecisionOutcome } from '@xaalis/kernel/testing';
import type { PaymentCommand } from './payment.commands';
import {
  assertCanChooseMethod,
  decide,
  PAYMENT_LIFETIME_MS,
  paymentDecider,
} from './payment.decide';
import type { CustomerProvider, PaymentEvent, PaymentProvider } from './payment.events';
import {
  at,
  AMOUNT,
  chooseMethod,
  confirmPayment,
  createPayment,
  CUSTOMER_PHONE,
  EXPIRES_AT,
  expirePayment,
  failPayment,
  FEE_AT_AMOUNT,
  FEES,
  HISTORY_BY_STATUS,
  methodChosen,
  newExpiredPayment,
  newFailedPayment,
  newPaidPayment,
  newPayment,
  newProcessingPayment,
  OTHER_REFUND_ID,
  paymentCreated,
  paymentExpired,
  paymentFailed,
  paymentOf,
  paymentSucceeded,
  providerStart,
  recordSession,
  REFUND_ID,
  refundFailed,
  refundRequested,
  refundSucceeded,
  requestRefund,
  sandboxPath,
  sessionFound,
  settleRefund,
  stateOf,
  T0,
  WAVE_LIVE_URL,
} from './payment.fixtures';
import { amountRefunded, type PaymentStatus } from './payment.state';
import { availableProviders } from './providers';

const { given } = givenWhenThen(paymentDecider);
type Outcome = DecisionOutcome<PaymentEvent>;

/** A successful decision folded into the history, for the next step. */
const after = (history: PaymentEvent[], command: PaymentCommand): PaymentEvent[] => [
  ...history,
  ...decide(command, stateOf(history)),
];

describe('payment decider', () => {
  describe('spec 3.1, row by row', () => {
    it.each<[PaymentProvider, PaymentEvent[]]>([
      ['wave', newProcessingPayment()],
      ['orange_money', [paymentCreated(), methodChosen({ provider: 'orange_money' })]],
      // A test helper succeeding a payment nobody has picked a method for: the sandbox `mock`.
      ['mock', newPayment()],
    ])('provider confirms → succeeded, fee and net at the %s rate', (provider, history) => {
      given(history)
        .when(confirmPayment({ trigger: provider === 'mock' ? 'test_helper' : 'provider' }))
        .then([paymentSucceeded({ provider, ...FEE_AT_AMOUNT[provider] })]);
    });

    it('provider declines → failed, with the reason', () => {
      given(newProcessingPayment())
        .when(failPayment({ reason: 'declined' }))
        .then([paymentFailed('declined', at(2))]);
    });

    it('customer cancels → failed, from the method picker too', () => {
      given(newPayment())
        .when(failPayment({ reason: 'canceled', now: at(5) }))
        .then([paymentFailed('canceled', at(5))]);
    });

    it('30 minutes pass with no payment → expired, by the scheduler at expires_at', () => {
      expect(PAYMENT_LIFETIME_MS).toBe(30 * 60_000);
      given(newPayment())
        .when(expirePayment())
        .then([paymentExpired(EXPIRES_AT)]);
    });

    it('refund reaches the customer → refunded', () => {
      const history = [...newPaidPayment(), refundRequested()];
      given(history)
        .when(settleRefund())
        .then([refundSucceeded(REFUND_ID, at(4))]);
      expect(paymentOf(after(history, settleRefund())).status).toBe('refunded');
    });

    it('customer chooses a method via the pay step → a provider and a next action', () => {
      given(newPayment())
        .when(chooseMethod({ start: providerStart({ provider: 'orange_money' }) }))
        .then([methodChosen({ provider: 'orange_money' })]);
      const payment = paymentOf(
        after(newPayment(), chooseMethod({ start: providerStart({ provider: 'orange_money' }) })),
      );
      expect(payment).toMatchObject({
        status: 'processing',
        provider: 'orange_money',
        redirectUrl: sandboxPath('orange_money'),
      });
    });
  });

  describe('every command from every status', () => {
    const NOW = at(20);
    type From = 'no payment' | PaymentStatus;
    const HISTORY: Record<From, () => PaymentEvent[]> = {
      'no payment': () => [],
      ...HISTORY_BY_STATUS,
    };
    const ENDED_REFUSED = {
      succeeded: 'invalid_state',
      failed: 'invalid_state',
      expired: 'invalid_state',
      refunded: 'invalid_state',
    } as const;

    const MOVES: { when: string; command: PaymentCommand; then: Record<From, Outcome> }[] = [
      {
        when: 'CreatePayment (a retry of the create that made the payment, if any)',
        command: createPayment(),
        then: {
          'no payment': [paymentCreated()],
          requires_payment_method: [],
          processing: [],
          succeeded: [],
          failed: [],
          expired: [],
          refunded: [],
        },
      },
      {
        when: 'ChooseMethod wave (the provider already started, if any)',
        command: chooseMethod({ now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [methodChosen({ chosenAt: NOW.toISOString() })],
          processing: [],
          ...ENDED_REFUSED,
        },
      },
      {
        when: 'ChooseMethod orange_money (another provider than the one started)',
        command: chooseMethod({ start: providerStart({ provider: 'orange_money' }), now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [
            methodChosen({ provider: 'orange_money', chosenAt: NOW.toISOString() }),
          ],
          processing: 'invalid_state',
          ...ENDED_REFUSED,
        },
      },
      {
        when: 'RecordSession',
        command: recordSession({ now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [],
          processing: [sessionFound({ foundAt: NOW.toISOString() })],
          succeeded: [],
          failed: [],
          expired: [],
          refunded: [],
        },
      },
      {
        when: 'ConfirmPayment by the provider',
        command: confirmPayment({ now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [
            paymentSucceeded({ provider: 'mock', succeededAt: NOW.toISOString() }),
          ],
          processing: [paymentSucceeded({ succeededAt: NOW.toISOString() })],
          succeeded: [],
          failed: 'invalid_state',
          expired: [paymentSucceeded({ succeededAt: NOW.toISOString() })],
          refunded: [],
        },
      },
      {
        when: 'ConfirmPayment by a test helper',
        command: confirmPayment({ trigger: 'test_helper', providerTransactionId: null, now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [
            paymentSucceeded({
              provider: 'mock',
              providerTransactionId: null,
              succeededAt: NOW.toISOString(),
            }),
          ],
          processing: [
            paymentSucceeded({ providerTransactionId: null, succeededAt: NOW.toISOString() }),
          ],
          succeeded: [],
          failed: 'invalid_state',
          expired: 'invalid_state',
          refunded: [],
        },
      },
      ...(['provider', 'test_helper'] as const).map((trigger) => ({
        when: `FailPayment by ${trigger === 'provider' ? 'the provider' : 'a test helper'}`,
        command: failPayment({ trigger, now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [paymentFailed('declined', NOW)],
          processing: [paymentFailed('declined', NOW)],
          succeeded: 'invalid_state',
          failed: [],
          expired: 'invalid_state',
          refunded: 'invalid_state',
        } satisfies Record<From, Outcome>,
      })),
      {
        when: 'ExpirePayment by the scheduler at expires_at',
        command: expirePayment({ now: EXPIRES_AT }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [paymentExpired(EXPIRES_AT)],
          processing: [paymentExpired(EXPIRES_AT)],
          succeeded: [],
          failed: [],
          expired: [],
          refunded: [],
        },
      },
      {
        when: 'ExpirePayment by the scheduler 1 ms before expires_at',
        command: expirePayment({ now: new Date(EXPIRES_AT.getTime() - 1) }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [],
          processing: [],
          succeeded: [],
          failed: [],
          expired: [],
          refunded: [],
        },
      },
      {
        when: 'ExpirePayment by a test helper',
        command: expirePayment({ trigger: 'test_helper', now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: [paymentExpired(NOW)],
          processing: [paymentExpired(NOW)],
          succeeded: 'invalid_state',
          failed: 'invalid_state',
          expired: [],
          refunded: 'invalid_state',
        },
      },
      {
        when: 'RequestRefund with a new refund id',
        command: requestRefund({ refundId: OTHER_REFUND_ID, now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: 'invalid_state',
          processing: 'invalid_state',
          succeeded: [
            refundRequested({ refundId: OTHER_REFUND_ID, requestedAt: NOW.toISOString() }),
          ],
          failed: 'invalid_state',
          expired: 'invalid_state',
          refunded: 'invalid_state',
        },
      },
      ...(['succeeded', 'failed'] as const).map((outcome) => ({
        when: `SettleRefund ${outcome} (only the refunded history holds the refund, settled)`,
        command: settleRefund({ outcome, now: NOW }),
        then: {
          'no payment': 'not_found',
          requires_payment_method: 'not_found',
          processing: 'not_found',
          succeeded: 'not_found',
          failed: 'not_found',
          expired: 'not_found',
          refunded: [],
        } satisfies Record<From, Outcome>,
      })),
    ];

    it('covers every command type', () => {
      const ALL: Record<PaymentCommand['type'], true> = {
        CreatePayment: true,
        ChooseMethod: true,
        RecordSession: true,
        ConfirmPayment: true,
        FailPayment: true,
        ExpirePayment: true,
        RequestRefund: true,
        SettleRefund: true,
      };
      expect(new Set(MOVES.map((move) => move.command.type))).toEqual(new Set(Object.keys(ALL)));
    });

    const shown = (outcome: Outcome): string =>
      typeof outcome === 'string'
        ? `refused: ${outcome}`
        : `[${outcome.map((event) => event.type).join(', ')}]`;

    describe.each(MOVES)('$when', ({ command, then }) => {
      const rows = (Object.entries(then) as [From, Outcome][]).map(([from, expected]) => ({
        from,
        expected,
        shows: shown(expected),
      }));
      it.each(rows)('from $from → $shows', ({ from, expected }) => {
        expect(given(HISTORY[from]()).when(command).outcome()).toEqual(expected);
      });
    });
  });

  describe('CreatePayment', () => {
    it('without a provider: one event, open for 30 minutes, the method still to pick', () => {
      given([])
        .when(createPayment())
        .then([paymentCreated({ expiresAt: '2026-11-22T10:30:00.000Z' })]);
    });

    it('with a provider: the created payment and its started method, fee from the schedule', () => {
      given([])
        .when(createPayment({ start: providerStart({ provider: 'orange_money' }) }))
        .then([
          paymentCreated(),
          methodChosen({
            provider: 'orange_money',
            fee: 150,
            net: 9_850,
            customerPhone: CUSTOMER_PHONE,
            chosenAt: T0.toISOString(),
          }),
        ]);
    });

    it('with a provider start of unknown outcome: processing without a reference or page', () => {
      const [, chosen] = decide(
        createPayment({ start: providerStart({ providerReference: null, redirectUrl: null }) }),
        stateOf([]),
      );
      expect(chosen).toEqual(
        methodChosen({
          providerReference: null,
          redirectUrl: null,
          customerPhone: CUSTOMER_PHONE,
          chosenAt: T0.toISOString(),
        }),
      );
    });

    it.each([1, 2, 49, AMOUNT, MAX_PAYMENT_AMOUNT])('accepts the amount %d', (amount) => {
      const [created] = decide(createPayment({ amount }), stateOf([]));
      expect(created).toEqual(paymentCreated({ amount }));
    });

    it.each([0, -1, MAX_PAYMENT_AMOUNT + 1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])(
      'refuses the amount %d, naming the field',
      (amount) => {
        const error = given([]).when(createPayment({ amount })).thenRefuses('validation_error');
        expect(error.details).toEqual([
          { field: 'amount', issue: 'must be an integer from 1 to 100000000' },
        ]);
      },
    );

    describe('live wave and the aggregated identity (CONTRACT 5)', () => {
      const live = { mode: 'live' as const, start: providerStart({ redirectUrl: WAVE_LIVE_URL }) };

      it('refuses live wave in aggregator mode without an aggregated identity', () => {
        given([])
          .when(createPayment({ ...live, aggregatorMode: true, aggregatedMerchantId: null }))
          .thenRefuses('aggregated_identity_required');
      });

      it('allows it with the identity, and records it', () => {
        const events = decide(
          createPayment({ ...live, aggregatorMode: true, aggregatedMerchantId: 'am-123' }),
          stateOf([]),
        );
        expect(events.map((event) => event.type)).toEqual([
          'PaymentCreated',
          'PaymentMethodChosen',
        ]);
        expect(events[0]).toEqual(paymentCreated({ mode: 'live', aggregatedMerchantId: 'am-123' }));
      });

      it('allows it when aggregator mode is off', () => {
        const events = decide(
          createPayment({ ...live, aggregatorMode: false, aggregatedMerchantId: null }),
          stateOf([]),
        );
        expect(events.map((event) => event.type)).toEqual([
          'PaymentCreated',
          'PaymentMethodChosen',
        ]);
      });

      it('allows wave in test mode without an identity', () => {
        given([])
          .when(createPayment({ start: providerStart(), aggregatorMode: true }))
          .then([
            paymentCreated(),
            methodChosen({ customerPhone: CUSTOMER_PHONE, chosenAt: T0.toISOString() }),
          ]);
      });

      it('creates a live payment without a provider, offering only orange_money', () => {
        given([])
          .when(createPayment({ mode: 'live', aggregatorMode: true }))
          .then([paymentCreated({ mode: 'live', availableProviders: ['orange_money'] })]);
      });

      it('allows live orange_money without the identity', () => {
        const events = decide(
          createPayment({
            mode: 'live',
            aggregatorMode: true,
            start: providerStart({ provider: 'orange_money' }),
          }),
          stateOf([]),
        );
        expect(events[1]).toMatchObject({ data: { provider: 'orange_money', fee: 150 } });
      });
    });
  });

  describe('available providers', () => {
    it.each<[string, Parameters<typeof availableProviders>, CustomerProvider[]]>([
      ['test, aggregator on, no identity', ['test', true, null], ['wave', 'orange_money']],
      ['test, aggregator off, no identity', ['test', false, null], ['wave', 'orange_money']],
      ['live, aggregator on, no identity', ['live', true, null], ['orange_money']],
      ['live, aggregator on, identity', ['live', true, 'am-1'], ['wave', 'orange_money']],
      ['live, aggregator off, no identity', ['live', false, null], ['wave', 'orange_money']],
      ['live, aggregator off, identity', ['live', false, 'am-1'], ['wave', 'orange_money']],
    ])('%s', (_, args, expected) => {
      expect(availableProviders(...args)).toEqual(expected);
    });
  });

  describe('ChooseMethod (the public pay step)', () => {
    it('starts the chosen provider, fee from the schedule, the phone given at the step', () => {
      given(newPayment())
        .when(
          chooseMethod({
            start: providerStart({ provider: 'orange_money' }),
            customerPhone: '+221781112233',
          }),
        )
        .then([methodChosen({ provider: 'orange_money', customerPhone: '+221781112233' })]);
    });

    it('takes the fee from the schedule it is given', () => {
      given(newPayment())
        .when(chooseMethod({ fees: { ...FEES, wave: 250 } }))
        .then([methodChosen({ fee: 250, net: 9_750 })]);
    });

    it('refuses a provider the payment does not offer', () => {
      const history = [paymentCreated({ mode: 'live', availableProviders: ['orange_money'] })];
      const error = given(history).when(chooseMethod()).thenRefuses('validation_error');
      expect(error.details).toEqual([{ field: 'provider', issue: 'must be one of orange_money' }]);
    });

    it('refuses once expires_at is reached, though the scheduler has not run yet', () => {
      const error = given(newPayment())
        .when(chooseMethod({ now: EXPIRES_AT }))
        .thenRefuses('invalid_state');
      expect(error.details).toEqual({ status: 'expired' });
      given(newPayment())
        .when(chooseMethod({ now: new Date(EXPIRES_AT.getTime() - 1) }))
        .then([methodChosen({ chosenAt: '2026-11-22T10:29:59.999Z' })]);
    });

    it('while processing: the same provider again is a no-op, another is refused', () => {
      given(newProcessingPayment()).when(chooseMethod()).then([]);
      const error = given(newProcessingPayment())
        .when(chooseMethod({ start: providerStart({ provider: 'orange_money' }) }))
        .thenRefuses('invalid_state');
      expect(error.details).toEqual({ status: 'processing' });
    });

    it('while processing past expires_at: refused even with the same provider', () => {
      given(newProcessingPayment())
        .when(chooseMethod({ now: at(31) }))
        .thenRefuses('invalid_state');
    });

    it.each(['succeeded', 'failed', 'expired', 'refunded'] as const)(
      'refuses when %s, saying so',
      (status) => {
        const error = given(HISTORY_BY_STATUS[status]())
          .when(chooseMethod())
          .thenRefuses('invalid_state');
        expect(error.details).toEqual({ status });
      },
    );

    it('assertCanChooseMethod tells a new start from one already made', () => {
      expect(assertCanChooseMethod(paymentOf(newPayment()), 'wave', at(1))).toBe('start');
      expect(assertCanChooseMethod(paymentOf(newProcessingPayment()), 'wave', at(1))).toBe(
        'already_started',
      );
    });
  });

  describe('RecordSession (reconciliation found the session)', () => {
    const unknownStart = [
      paymentCreated(),
      methodChosen({ providerReference: null, redirectUrl: null }),
    ];

    it('records the session of a start with an unknown outcome', () => {
      given(unknownStart).when(recordSession()).then([sessionFound()]);
    });

    it('is a no-op for the session already known, with or without its page', () => {
      const known = [
        paymentCreated(),
        methodChosen({ providerReference: 'wave-session-2', redirectUrl: WAVE_LIVE_URL }),
      ];
      given(known).when(recordSession()).then([]);
      given(known)
        .when(recordSession({ redirectUrl: null }))
        .then([]);
    });

    it('records a page learnt later for a known reference', () => {
      const known = [
        paymentCreated(),
        methodChosen({ providerReference: 'wave-session-2', redirectUrl: null }),
      ];
      given(known).when(recordSession()).then([sessionFound()]);
    });
  });

  describe('ConfirmPayment', () => {
    it('records a late provider confirmation after our expiry: the money moved', () => {
      given(newExpiredPayment())
        .when(confirmPayment({ now: at(35) }))
        .then([paymentSucceeded({ succeededAt: at(35).toISOString() })]);
      expect(paymentOf(after(newExpiredPayment(), confirmPayment())).status).toBe('succeeded');
    });

    it('does not let a test helper succeed an expired payment', () => {
      const error = given(newExpiredPayment())
        .when(confirmPayment({ trigger: 'test_helper' }))
        .thenRefuses('invalid_state');
      expect(error.details).toEqual({ status: 'expired' });
    });

    it('refuses to succeed a failed payment, whoever asks', () => {
      for (const trigger of ['provider', 'test_helper'] as const) {
        given(newFailedPayment()).when(confirmPayment({ trigger })).thenRefuses('invalid_state');
      }
    });

    it('is a no-op when repeated, whatever the fee schedule says by then', () => {
      given(newPaidPayment())
        .when(confirmPayment({ fees: { wave: 0, orange_money: 0, mock: 0 }, now: at(9) }))
        .then([]);
    });

    it('takes fee and net at confirmation from the schedule it is given', () => {
      given(newProcessingPayment())
        .when(confirmPayment({ fees: { ...FEES, wave: 175 } }))
        .then([paymentSucceeded({ fee: 175, net: 9_825 })]);
    });
  });

  describe('FailPayment and ExpirePayment', () => {
    it('fails an open payment once; a repeat is a no-op', () => {
      const failed = after(newProcessingPayment(), failPayment());
      expect(failed.at(-1)).toEqual(paymentFailed());
      given(failed)
        .when(failPayment({ reason: 'other', now: at(9) }))
        .then([]);
    });

    it('the scheduler expires only at or after expires_at', () => {
      given(newProcessingPayment())
        .when(expirePayment({ now: at(29) }))
        .then([]);
      given(newProcessingPayment())
        .when(expirePayment({ now: EXPIRES_AT }))
        .then([paymentExpired(EXPIRES_AT)]);
      given(newProcessingPayment())
        .when(expirePayment({ now: at(45) }))
        .then([paymentExpired(at(45))]);
    });

    it('the test helper expires at once', () => {
      given(newPayment())
        .when(expirePayment({ trigger: 'test_helper', now: at(1) }))
        .then([paymentExpired(at(1))]);
    });

    it('the scheduler passing over an ended payment changes nothing', () => {
      for (const status of ['succeeded', 'failed', 'expired', 'refunded'] as const) {
        given(HISTORY_BY_STATUS[status]())
          .when(expirePayment({ now: at(60) }))
          .then([]);
      }
    });
  });

  describe('refunds', () => {
    const paid = newPaidPayment;
    const pending = (amount: number, refundId = REFUND_ID) => refundRequested({ refundId, amount });

    it('refunds the full amount by default', () => {
      given(paid())
        .when(requestRefund())
        .then([refundRequested({ amount: AMOUNT })]);
    });

    it('refunds a part, then what is left by default', () => {
      given(paid())
        .when(requestRefund({ amount: 3_000 }))
        .then([pending(3_000)]);
      given([...paid(), pending(3_000)])
        .when(requestRefund({ refundId: OTHER_REFUND_ID }))
        .then([pending(7_000, OTHER_REFUND_ID)]);
    });

    it('accepts the bounds 1 and the whole amount', () => {
      given(paid())
        .when(requestRefund({ amount: 1 }))
        .then([pending(1)]);
      given(paid())
        .when(requestRefund({ amount: AMOUNT }))
        .then([pending(AMOUNT)]);
    });

    it.each([0, -1, 1.5, AMOUNT + 1, Number.NaN])('refuses the amount %d', (amount) => {
      const error = given(paid()).when(requestRefund({ amount })).thenRefuses('validation_error');
      expect(error.details).toEqual([
        {
          field: 'amount',
          issue: 'must be an integer from 1 to 10000 (the amount left to refund)',
        },
      ]);
    });

    it('never refunds more than what is left, counting pending refunds', () => {
      const history = [...paid(), pending(6_000)];
      const error = given(history)
        .when(requestRefund({ refundId: OTHER_REFUND_ID, amount: 4_001 }))
        .thenRefuses('validation_error');
      expect(error.details).toEqual([
        { field: 'amount', issue: 'must be an integer from 1 to 4000 (the amount left to refund)' },
      ]);
      given(history)
        .when(requestRefund({ refundId: OTHER_REFUND_ID, amount: 4_000 }))
        .then([pending(4_000, OTHER_REFUND_ID)]);
    });

    it('refuses any further refund once pending ones claim the whole amount', () => {
      given([...paid(), pending(AMOUNT)])
        .when(requestRefund({ refundId: OTHER_REFUND_ID }))
        .thenRefuses('invalid_state');
    });

    it('the same refund id twice is a no-op, whatever the amount or status', () => {
      given([...paid(), pending(3_000)])
        .when(requestRefund({ amount: 5_000 }))
        .then([]);
      given([...paid(), pending(AMOUNT), refundSucceeded()])
        .when(requestRefund())
        .then([]);
    });

    it('settled succeeded: the payment is refunded and shows it', () => {
      const history = [...paid(), pending(AMOUNT)];
      given(history).when(settleRefund()).then([refundSucceeded()]);
      const payment = paymentOf(after(history, settleRefund()));
      expect(payment.status).toBe('refunded');
      expect(payment.refunds).toEqual([
        expect.objectContaining({ refundId: REFUND_ID, status: 'succeeded' }),
      ]);
    });

    it('settled failed: the amount is free again for a new refund', () => {
      const history = [...paid(), pending(AMOUNT)];
      given(history)
        .when(settleRefund({ outcome: 'failed', reason: 'recipient_refused' }))
        .then([refundFailed(REFUND_ID, 'recipient_refused')]);
      const failed = [...history, refundFailed()];
      expect(paymentOf(failed).status).toBe('succeeded');
      given(failed)
        .when(requestRefund({ refundId: OTHER_REFUND_ID, now: at(5) }))
        .then([
          refundRequested({
            refundId: OTHER_REFUND_ID,
            amount: AMOUNT,
            requestedAt: at(5).toISOString(),
          }),
        ]);
    });

    it('a failed settlement without a reason says "failed"', () => {
      given([...paid(), pending(AMOUNT)])
        .when(settleRefund({ outcome: 'failed' }))
        .then([refundFailed(REFUND_ID, 'failed')]);
    });

    it('settling twice is a no-op, whichever outcome comes second', () => {
      for (const first of [refundSucceeded(), refundFailed()]) {
        for (const outcome of ['succeeded', 'failed'] as const) {
          given([...paid(), pending(AMOUNT), first])
            .when(settleRefund({ outcome, now: at(9) }))
            .then([]);
        }
      }
    });

    it('an unknown refund is not found', () => {
      given([...paid(), pending(AMOUNT)])
        .when(settleRefund({ refundId: OTHER_REFUND_ID }))
        .thenRefuses('not_found');
    });

    it('settles each pending refund on its own', () => {
      const history = [...paid(), pending(3_000), pending(7_000, OTHER_REFUND_ID)];
      given(history)
        .when(settleRefund({ refundId: OTHER_REFUND_ID, outcome: 'failed', reason: 'x' }))
        .then([refundFailed(OTHER_REFUND_ID, 'x')]);
    });

    it('a partial refund that reaches the customer leaves the payment succeeded, the rest refundable', () => {
      const settled = [...paid(), pending(3_000), refundSucceeded()];
      const payment = paymentOf(settled);
      expect(payment.status).toBe('succeeded');
      expect(amountRefunded(payment)).toBe(3_000);
      given(settled)
        .when(requestRefund({ refundId: OTHER_REFUND_ID }))
        .then([pending(AMOUNT - 3_000, OTHER_REFUND_ID)]);
    });

    it('the payment is refunded once its refunds reach the whole amount, then refuses more', () => {
      const whole = [
        ...paid(),
        pending(3_000),
        refundSucceeded(),
        pending(AMOUNT - 3_000, OTHER_REFUND_ID),
      ];
      expect(paymentOf(whole).status).toBe('succeeded');
      const settled = [...whole, refundSucceeded(OTHER_REFUND_ID)];
      expect(paymentOf(settled).status).toBe('refunded');
      expect(amountRefunded(paymentOf(settled))).toBe(AMOUNT);
      given(settled)
        .when(requestRefund({ refundId: 're_01JF0000000000000000000003' }))
        .thenRefuses('invalid_state');
    });

    it('a failed refund does not count towards the whole amount', () => {
      const history = [
        ...paid(),
        pending(3_000),
        refundFailed(),
        pending(AMOUNT, OTHER_REFUND_ID),
        refundSucceeded(OTHER_REFUND_ID),
      ];
      expect(paymentOf(history).status).toBe('refunded');
      expect(amountRefunded(paymentOf(history))).toBe(AMOUNT);
    });
  });
});
