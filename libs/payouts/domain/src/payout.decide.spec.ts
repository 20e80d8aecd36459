import { givenWhenThen, type Outcome as DecisionOutcome } from '@xaalis/kernel/testing';
import { payoutAccepted, PAYOUT_ID } from './agent-wallet.fixtures';
import type { PayoutStatus } from '@xaalis/kernel';
import type { PayoutCommand } from './payout.commands';
import { decide, payoutDecider } from './payout.decide';
import type { PayoutEvent } from './payout.events';
import {
  at,
  createDirectPayout,
  createPayout,
  directPayoutCreated,
  EXCHANGE_REFERENCE,
  failPayout,
  HISTORY_BY_STATUS,
  newFailedPayout,
  newProcessingPayout,
  newSucceededPayout,
  payoutCreated,
  payoutFailed,
  payoutOf,
  payoutProcessing,
  payoutReversed,
  payoutSucceeded,
  recordReference,
  referenceRecorded,
  reversePayout,
  startPayout,
  stateOf,
  succeedPayout,
  WAVE_REFERENCE,
} from './payout.fixtures';
import { debit } from './payout.state';

const { given } = givenWhenThen(payoutDecider);
type Outcome = DecisionOutcome<PayoutEvent>;

const after = (history: PayoutEvent[], command: PayoutCommand): PayoutEvent[] => [
  ...history,
  ...decide(command, stateOf(history)),
];

describe('payout decider', () => {
  describe('spec 3.4, row by row', () => {
    it("created via the agent endpoint, accepted → pending, from the wallet's acceptance", () => {
      given([]).when(createPayout()).then([payoutCreated()]);
      expect(payoutOf([payoutCreated()])).toMatchObject({
        status: 'pending',
        failureReason: null,
        providerIdempotencyKey: PAYOUT_ID,
        clientReference: 'invoice-2026-11-0042',
      });
    });

    it('created by another context for its own account → pending, without a wallet', () => {
      given([]).when(createDirectPayout()).then([directPayoutCreated()]);
      expect(payoutOf([directPayoutCreated()])).toMatchObject({
        status: 'pending',
        agentWalletId: null,
        agentKeyId: null,
        policyVersion: null,
        providerIdempotencyKey: PAYOUT_ID,
        clientReference: EXCHANGE_REFERENCE,
      });
    });

    it('money reaches the recipient wallet → succeeded', () => {
      given(newProcessingPayout()).when(succeedPayout()).then([payoutSucceeded()]);
    });

    it('provider refuses → failed, with the failure reason', () => {
      given(newProcessingPayout())
        .when(failPayout('recipient_refused'))
        .then([payoutFailed('recipient_refused')]);
      expect(payoutOf(newFailedPayout())).toMatchObject({
        status: 'failed',
        failureReason: 'recipient_refused',
      });
    });

    it('Wave reverses a succeeded payout → failed, reason "reversed", the money to give back', () => {
      given(newSucceededPayout()).when(reversePayout()).then([payoutReversed()]);
      const payout = payoutOf(after(newSucceededPayout(), reversePayout()));
      expect(payout).toMatchObject({ status: 'failed', failureReason: 'reversed', reversed: true });
      expect(debit(payout)).toBe(10_100);
    });
  });

  describe('every command from every status', () => {
    const NOW = at(20);
    type From = 'no payout' | PayoutStatus;
    const HISTORY: Record<From, () => PayoutEvent[]> = {
      'no payout': () => [],
      ...HISTORY_BY_STATUS,
    };

    const MOVES: { when: string; command: PayoutCommand; then: Record<From, Outcome> }[] = [
      {
        when: 'CreatePayout (a retry, or the recovery job, once created)',
        command: createPayout({ now: NOW }),
        then: {
          'no payout': [payoutCreated()],
          pending: [],
          processing: [],
          succeeded: [],
          failed: [],
        },
      },
      {
        when: "CreateDirectPayout (its id already a wallet's payout)",
        command: createDirectPayout({ now: NOW }),
        then: {
          'no payout': [directPayoutCreated({ createdAt: NOW.toISOString() })],
          pending: 'idempotency_conflict',
          processing: 'idempotency_conflict',
          succeeded: 'idempotency_conflict',
          failed: 'idempotency_conflict',
        },
      },
      {
        when: 'StartPayout (only its first claim may call the provider)',
        command: startPayout(NOW),
        then: {
          'no payout': 'not_found',
          pending: [payoutProcessing(NOW)],
          processing: [],
          succeeded: 'invalid_state',
          failed: 'invalid_state',
        },
      },
      {
        when: 'RecordProviderReference',
        command: recordReference(WAVE_REFERENCE, NOW),
        then: {
          'no payout': 'not_found',
          pending: 'invalid_state',
          processing: [referenceRecorded(WAVE_REFERENCE, NOW)],
          succeeded: [referenceRecorded(WAVE_REFERENCE, NOW)],
          failed: [referenceRecorded(WAVE_REFERENCE, NOW)],
        },
      },
      {
        when: 'SucceedPayout (provider or test helper: the same effects)',
        command: succeedPayout(NOW),
        then: {
          'no payout': 'not_found',
          pending: [payoutSucceeded(NOW)],
          processing: [payoutSucceeded(NOW)],
          succeeded: [],
          failed: 'invalid_state',
        },
      },
      {
        when: 'FailPayout (provider or test helper: the same effects)',
        command: failPayout('recipient_refused', NOW),
        then: {
          'no payout': 'not_found',
          pending: [payoutFailed('recipient_refused', NOW)],
          processing: [payoutFailed('recipient_refused', NOW)],
          succeeded: 'invalid_state',
          failed: [],
        },
      },
      {
        when: "ReversePayout (Wave's reversed)",
        command: reversePayout(NOW),
        then: {
          'no payout': 'not_found',
          pending: 'invalid_state',
          processing: [payoutReversed(NOW)],
          succeeded: [payoutReversed(NOW)],
          failed: [],
        },
      },
    ];

    it('covers every command type', () => {
      const ALL: Record<PayoutCommand['type'], true> = {
        CreatePayout: true,
        CreateDirectPayout: true,
        StartPayout: true,
        RecordProviderReference: true,
        SucceedPayout: true,
        FailPayout: true,
        ReversePayout: true,
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

    it('a refusal says the status', () => {
      const error = given(newSucceededPayout()).when(failPayout()).thenRefuses('invalid_state');
      expect(error.details).toEqual({ status: 'succeeded' });
    });
  });

  describe('CreatePayout', () => {
    it('copies the acceptance: wallet, key, policy version, provider, fee, recipient', () => {
      const accepted = payoutAccepted({
        provider: 'orange_money',
        fee: 150,
        policyVersion: 4,
        agentKeyId: 'agk_01JD0000000000000000000009',
      }).data;
      given([])
        .when(createPayout({ accepted, mode: 'live' }))
        .then([
          payoutCreated({
            provider: 'orange_money',
            fee: 150,
            policyVersion: 4,
            agentKeyId: 'agk_01JD0000000000000000000009',
            mode: 'live',
          }),
        ]);
    });

    it('its provider idempotency key is the payout id, fixed now, never at call time', () => {
      const [created] = decide(createPayout(), stateOf([]));
      expect(created).toMatchObject({ data: { providerIdempotencyKey: PAYOUT_ID } });
    });
  });

  describe('CreateDirectPayout (a payout without a wallet: the exchange pays out)', () => {
    /** The same history as a wallet's payout in each status, created without a wallet. */
    const direct = (status: PayoutStatus): PayoutEvent[] => [
      directPayoutCreated(),
      ...HISTORY_BY_STATUS[status]().slice(1),
    ];
    const STATUSES: PayoutStatus[] = ['pending', 'processing', 'succeeded', 'failed'];

    it('takes its fee from the schedule, by provider; XOF; created at now', () => {
      given([])
        .when(createDirectPayout({ provider: 'orange_money', amount: 20_000, now: at(7) }))
        .then([
          directPayoutCreated({
            provider: 'orange_money',
            amount: 20_000,
            fee: 300,
            createdAt: at(7).toISOString(),
          }),
        ]);
    });

    it.each<[number, number]>([
      [49, 0],
      [50, 1],
      [149, 1],
      [150, 2],
    ])('%d XOF at 100 bps: fee %d, rounded half up', (amount, fee) => {
      given([])
        .when(createDirectPayout({ amount }))
        .then([directPayoutCreated({ amount, fee })]);
    });

    it('its provider idempotency key is the payout id, fixed now, never at call time', () => {
      const [created] = decide(createDirectPayout(), stateOf([]));
      expect(created).toMatchObject({ data: { providerIdempotencyKey: PAYOUT_ID } });
    });

    it.each(STATUSES)(
      'the same request again decides nothing once %s, whatever the time and the schedule',
      (status) => {
        given(direct(status))
          .when(createDirectPayout({ now: at(90), fees: { wave: 500, orange_money: 500 } }))
          .then([]);
      },
    );

    it.each<[string, Parameters<typeof createDirectPayout>[0]]>([
      ['another amount', { amount: 10_001 }],
      ['another recipient', { recipient: { phone: '+221781112233', name: 'Fatou Sarr' } }],
      ["another recipient's name", { recipient: { phone: '+221771234567', name: null } }],
      ['another provider', { provider: 'orange_money' }],
      ['another client reference', { clientReference: 'exc_01JD0000000000000000000001' }],
      ['another merchant', { merchantId: 'mer_01JD0000000000000000000001' }],
      ['the other mode', { mode: 'live' }],
    ])('the id again with %s is refused: idempotency_conflict', (_, overrides) => {
      const error = given(direct('pending'))
        .when(createDirectPayout(overrides))
        .thenRefuses('idempotency_conflict');
      expect(error.details).toEqual({ payout_id: PAYOUT_ID });
    });

    it.each<[string, Parameters<typeof createDirectPayout>[0], string]>([
      ['no amount', { amount: 0 }, 'amount'],
      ['a fraction', { amount: 10.5 }, 'amount'],
      ['more than a payout may be', { amount: 100_000_001 }, 'amount'],
      [
        'a phone that is not Senegalese mobile',
        { recipient: { phone: '+33612345678', name: null } },
        'recipient.phone',
      ],
      ['an empty name', { recipient: { phone: '+221771234567', name: '' } }, 'recipient.name'],
      ['an empty client reference', { clientReference: '' }, 'client_reference'],
      [
        'a client reference of 101 characters',
        { clientReference: 'x'.repeat(101) },
        'client_reference',
      ],
      ['the mock provider', { provider: 'mock' as never }, 'provider'],
    ])('%s is refused: validation_error on %s', (_, overrides, field) => {
      const error = given([]).when(createDirectPayout(overrides)).thenRefuses('validation_error');
      expect(error.details).toEqual([{ field, issue: expect.any(String) }]);
    });

    it('goes on as any payout: sent once, then succeeded or failed', () => {
      given(direct('pending')).when(startPayout()).then([payoutProcessing()]);
      given(direct('processing')).when(succeedPayout()).then([payoutSucceeded()]);
      given(direct('processing'))
        .when(failPayout('recipient_refused'))
        .then([payoutFailed('recipient_refused')]);
      expect(payoutOf(direct('failed'))).toMatchObject({
        status: 'failed',
        failureReason: 'recipient_refused',
        agentWalletId: null,
      });
    });
  });

  describe('RecordProviderReference', () => {
    it('the same reference again decides nothing; another is refused', () => {
      const known = [...newProcessingPayout(), referenceRecorded()];
      given(known).when(recordReference()).then([]);
      given(known).when(recordReference('pt-other')).thenRefuses('invalid_state');
      given(newProcessingPayout()).when(recordReference(' ')).thenRefuses('validation_error');
    });
  });

  describe('FailPayout', () => {
    it('an empty reason is refused', () => {
      given(newProcessingPayout()).when(failPayout('')).thenRefuses('validation_error');
    });

    it('a failed payout stays failed with its first reason', () => {
      given(newFailedPayout())
        .when(failPayout('other', at(9)))
        .then([]);
      expect(payoutOf(after(newFailedPayout(), failPayout('other'))).failureReason).toBe(
        'recipient_refused',
      );
    });

    it('a reversed payout is failed: a late refusal or reversal decides nothing', () => {
      const reversed = after(newSucceededPayout(), reversePayout());
      given(reversed).when(failPayout()).then([]);
      given(reversed)
        .when(reversePayout(at(90)))
        .then([]);
      given(reversed).when(succeedPayout()).thenRefuses('invalid_state');
    });
  });

  it('updated_at follows the last change', () => {
    const history = [...newProcessingPayout(), referenceRecorded(), payoutSucceeded(at(7))];
    expect(payoutOf(history).updatedAt).toBe(at(7).toISOString());
    expect(payoutOf(history).createdAt).toBe(at(2).toISOString());
  });
});
