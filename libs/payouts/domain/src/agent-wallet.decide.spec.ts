import { MAX_PAYMENT_AMOUNT, successorId } from '@xaalis/kernel';
import { givenWhenThen } from '@xaalis/kernel/testing';
import type { AgentWalletCommand } from './agent-wallet.commands';
import { agentWalletDecider, decide, openPayoutId, payoutForAction } from './agent-wallet.decide';
import type { AgentWalletEvent } from './agent-wallet.events';
import {
  abandonPayout,
  ACTION_ID,
  ALLOWED_PHONES,
  AMOUNT,
  at,
  createAgentWallet,
  DAY0,
  FEE,
  issueAgentKey,
  keyIssued,
  keyRevoked,
  MAX_DAILY,
  MAX_PAYOUT,
  newBusyWallet,
  newDisabledWallet,
  newWallet,
  NEXT_DAY,
  OTHER_ACTION_ID,
  OTHER_ALLOWED_PHONE,
  OTHER_KEY_ID,
  OTHER_PAYOUT_ID,
  OTHER_SECRET_HASH,
  PAYOUT_ID,
  payoutAbandoned,
  payoutAccepted,
  payoutReleased,
  policyChanged,
  RECIPIENT_PHONE,
  releasePayout,
  requestKeyOf,
  requestPayout,
  revokeAgentKey,
  stateOf,
  STRANGER_PHONE,
  T0,
  updatePolicy,
  walletCreated,
  walletOf,
  WALLET_ID,
  KEY_ID,
} from './agent-wallet.fixtures';
import { spentOn } from './agent-wallet.state';

const { given } = givenWhenThen(agentWalletDecider);

/** A successful decision folded into the history, for the next step. */
const after = (history: AgentWalletEvent[], command: AgentWalletCommand): AgentWalletEvent[] => [
  ...history,
  ...decide(command, stateOf(history)),
];

/** The refusal's `details.rule`, checking it is a 402 policy violation. */
const ruleOf = (history: AgentWalletEvent[], command: AgentWalletCommand): unknown =>
  given(history).when(command).thenRefuses('policy_violation').details;

describe('agent wallet decider', () => {
  describe('CreateAgentWallet (spec 4.3, 8)', () => {
    it('creates an active wallet at policy version 1', () => {
      given([]).when(createAgentWallet()).then([walletCreated()]);
      expect(walletOf([walletCreated()])).toMatchObject({
        status: 'active',
        policyVersion: 1,
        updatedAt: T0.toISOString(),
      });
    });

    it('without a daily cap', () => {
      given([])
        .when(createAgentWallet({ maxDailyAmount: null }))
        .then([walletCreated({ maxDailyAmount: null })]);
    });

    it('a retry of the create that made the wallet decides nothing', () => {
      given([walletCreated()])
        .when(createAgentWallet({ name: 'Other' }))
        .then([]);
    });

    it.each<[string, Parameters<typeof createAgentWallet>[0]]>([
      ['name of 2 characters', { name: 'AB' }],
      ['name of 120 characters', { name: 'x'.repeat(120) }],
      ['name of 120 emoji (characters, not UTF-16 units)', { name: '💸'.repeat(120) }],
      ['orange_money', { provider: 'orange_money' }],
      ['caps of 1', { maxPayoutAmount: 1, maxDailyAmount: 1 }],
      ['caps of 100,000,000', { maxPayoutAmount: MAX_PAYMENT_AMOUNT, maxDailyAmount: 100_000_000 }],
      ['a daily cap below the payout cap', { maxPayoutAmount: 5_000, maxDailyAmount: 1_000 }],
      ['one phone', { allowedRecipientPhones: [RECIPIENT_PHONE] }],
      [
        'twenty phones',
        { allowedRecipientPhones: Array.from({ length: 20 }, (_, i) => `+2217700000${10 + i}`) },
      ],
    ])('accepts %s', (_, overrides) => {
      expect(decide(createAgentWallet(overrides), stateOf([]))).toHaveLength(1);
    });

    it.each<[string, Parameters<typeof createAgentWallet>[0], string]>([
      ['a name of 1 character', { name: 'A' }, 'name'],
      ['a name of 121 characters', { name: 'x'.repeat(121) }, 'name'],
      ['the mock provider', { provider: 'mock' as never }, 'provider'],
      ['max_payout_amount 0', { maxPayoutAmount: 0 }, 'max_payout_amount'],
      ['max_payout_amount 100,000,001', { maxPayoutAmount: 100_000_001 }, 'max_payout_amount'],
      ['max_payout_amount 1.5', { maxPayoutAmount: 1.5 }, 'max_payout_amount'],
      ['max_daily_amount 0', { maxDailyAmount: 0 }, 'max_daily_amount'],
      ['max_daily_amount 100,000,001', { maxDailyAmount: 100_000_001 }, 'max_daily_amount'],
      ['no phone', { allowedRecipientPhones: [] }, 'allowed_recipient_phones'],
      [
        '21 phones',
        { allowedRecipientPhones: Array.from({ length: 21 }, (_, i) => `+2217700000${10 + i}`) },
        'allowed_recipient_phones',
      ],
      [
        'a phone off the pattern',
        { allowedRecipientPhones: ['+221671234567'] },
        'allowed_recipient_phones[0]',
      ],
      [
        'a repeated phone',
        { allowedRecipientPhones: [RECIPIENT_PHONE, RECIPIENT_PHONE] },
        'allowed_recipient_phones[1]',
      ],
    ])('refuses %s, naming the field', (_, overrides, field) => {
      const error = given([]).when(createAgentWallet(overrides)).thenRefuses('validation_error');
      expect(error.details).toEqual([{ field, issue: expect.any(String) }]);
    });
  });

  describe('UpdateAgentWalletPolicy (CONTRACT 5)', () => {
    it.each<[string, Parameters<typeof updatePolicy>[0]]>([
      ['name', { name: 'Renamed bot' }],
      ['max_payout_amount', { maxPayoutAmount: 20_000 }],
      ['max_daily_amount', { maxDailyAmount: 1_000 }],
      ['max_daily_amount removed', { maxDailyAmount: null }],
      ['allowed_recipient_phones', { allowedRecipientPhones: [OTHER_ALLOWED_PHONE] }],
      ['status disabled', { status: 'disabled' }],
    ])('changes %s as one event, policy version one higher', (_, changes) => {
      given(newWallet())
        .when(updatePolicy(changes))
        .then([policyChanged(changes, 2)]);
      expect(walletOf(after(newWallet(), updatePolicy(changes)))).toMatchObject({
        ...changes,
        policyVersion: 2,
        updatedAt: at(1).toISOString(),
      });
    });

    it('records only the fields that change; nothing changed decides nothing', () => {
      given(newWallet())
        .when(updatePolicy({ name: 'Supplier payouts bot', maxPayoutAmount: 1_000 }))
        .then([policyChanged({ maxPayoutAmount: 1_000 }, 2)]);
      given(newWallet())
        .when(updatePolicy({ allowedRecipientPhones: [...ALLOWED_PHONES], status: 'active' }))
        .then([]);
      given(newWallet()).when(updatePolicy({})).then([]);
    });

    it('active again after disabled, version 3', () => {
      given(newDisabledWallet())
        .when(updatePolicy({ status: 'active' }, at(9)))
        .then([policyChanged({ status: 'active' }, 3, at(9))]);
    });

    it('holds to the bounds of creation', () => {
      const error = given(newWallet())
        .when(updatePolicy({ maxPayoutAmount: 0, allowedRecipientPhones: [] }))
        .thenRefuses('validation_error');
      expect((error.details as { field: string }[]).map((issue) => issue.field)).toEqual([
        'max_payout_amount',
        'allowed_recipient_phones',
      ]);
      given(newWallet())
        .when(updatePolicy({ status: 'paused' as never }))
        .thenRefuses('validation_error');
    });

    it('no wallet: not_found', () => {
      given([])
        .when(updatePolicy({ name: 'Renamed' }))
        .thenRefuses('not_found');
    });
  });

  describe('IssueAgentKey and RevokeAgentKey', () => {
    it('issues a key: its id and the hash of its secret, nothing more', () => {
      given([walletCreated()])
        .when(issueAgentKey({ keyId: OTHER_KEY_ID, secretHash: OTHER_SECRET_HASH, now: at(1) }))
        .then([keyIssued(OTHER_KEY_ID, OTHER_SECRET_HASH, at(1))]);
    });

    it('a repeat is a no-op; the same id with another secret is a retry whose first run died: reissued', () => {
      given(newWallet()).when(issueAgentKey()).then([]);
      given(newWallet())
        .when(issueAgentKey({ secretHash: OTHER_SECRET_HASH, now: at(4) }))
        .then([
          {
            type: 'AgentKeySecretReissued',
            data: {
              walletId: WALLET_ID,
              keyId: KEY_ID,
              secretHash: OTHER_SECRET_HASH,
              reissuedAt: at(4).toISOString(),
            },
          },
        ]);
      const reissued = after(newWallet(), issueAgentKey({ secretHash: OTHER_SECRET_HASH }));
      expect(walletOf(reissued).keys.get(KEY_ID)?.secretHash).toBe(OTHER_SECRET_HASH);
    });

    it('a revoked key is not reissued', () => {
      given([...newWallet(), keyRevoked()])
        .when(issueAgentKey({ secretHash: OTHER_SECRET_HASH }))
        .thenRefuses('invalid_state');
    });

    it('a disabled wallet still gets keys (it refuses payouts, not keys)', () => {
      given(newDisabledWallet())
        .when(issueAgentKey({ keyId: OTHER_KEY_ID }))
        .then([keyIssued(OTHER_KEY_ID, undefined, T0)]);
    });

    it('revokes once; a repeat is a no-op; an unknown key is not_found', () => {
      given(newWallet()).when(revokeAgentKey()).then([keyRevoked()]);
      given([...newWallet(), keyRevoked()])
        .when(revokeAgentKey({ now: at(5) }))
        .then([]);
      given(newWallet())
        .when(revokeAgentKey({ keyId: OTHER_KEY_ID }))
        .thenRefuses('not_found');
      given([]).when(revokeAgentKey()).thenRefuses('not_found');
    });
  });

  describe('RequestPayout: accepted', () => {
    it('accepts within the policy: fee, day, key and policy version recorded', () => {
      given(newWallet()).when(requestPayout()).then([payoutAccepted()]);
    });

    it('takes the provider and its fee rate from the wallet', () => {
      const history = [walletCreated({ provider: 'orange_money' }), keyIssued()];
      given(history)
        .when(requestPayout())
        .then([payoutAccepted({ provider: 'orange_money', fee: 150 })]);
    });

    it('records the policy version it was judged under', () => {
      const history = [...newWallet(), policyChanged({ name: 'Renamed' }, 2)];
      given(history)
        .when(requestPayout())
        .then([payoutAccepted({ policyVersion: 2 })]);
    });

    it('counts it against the day: spent_today grows by its amount (not its fee)', () => {
      const wallet = walletOf(after(newWallet(), requestPayout()));
      expect(spentOn(wallet, DAY0)).toBe(AMOUNT);
    });

    it('"XOF" and an omitted currency are the same request', () => {
      given(newWallet())
        .when(requestPayout({ currency: 'XOF' }))
        .then([payoutAccepted()]);
    });
  });

  describe('RequestPayout: every policy rule (CONTRACT 2 policy_violation)', () => {
    it('wallet_disabled: a disabled wallet refuses every payout', () => {
      expect(ruleOf(newDisabledWallet(), requestPayout())).toEqual({ rule: 'wallet_disabled' });
    });

    it('wallet_disabled comes first, before any other rule', () => {
      const command = requestPayout({
        amount: MAX_PAYOUT + 1,
        recipient: { phone: STRANGER_PHONE, name: null },
        available: 0,
      });
      expect(ruleOf(newDisabledWallet(), command)).toEqual({ rule: 'wallet_disabled' });
    });

    it('active again: accepted again', () => {
      const history = [...newDisabledWallet(), policyChanged({ status: 'active' }, 3)];
      given(history)
        .when(requestPayout())
        .then([payoutAccepted({ policyVersion: 3 })]);
    });

    it('recipient_not_allowed: a phone off the allowlist', () => {
      const command = requestPayout({ recipient: { phone: STRANGER_PHONE, name: null } });
      expect(ruleOf(newWallet(), command)).toEqual({ rule: 'recipient_not_allowed' });
    });

    it('recipient_not_allowed once the allowlist no longer holds the phone', () => {
      const history = [
        ...newWallet(),
        policyChanged({ allowedRecipientPhones: [OTHER_ALLOWED_PHONE] }),
      ];
      expect(ruleOf(history, requestPayout())).toEqual({ rule: 'recipient_not_allowed' });
    });

    it('max_payout_amount: one franc above the cap is refused, the cap itself accepted', () => {
      expect(ruleOf(newWallet(), requestPayout({ amount: MAX_PAYOUT + 1 }))).toEqual({
        rule: 'max_payout_amount',
        max_payout_amount: MAX_PAYOUT,
      });
      expect(decide(requestPayout({ amount: MAX_PAYOUT }), stateOf(newWallet()))).toHaveLength(1);
    });

    it('max_daily_amount: the day total of 80,000 + 20,001 passes 100,000', () => {
      expect(ruleOf(newBusyWallet(), requestPayout({ actionId: 'third', amount: 20_001 }))).toEqual(
        {
          rule: 'max_daily_amount',
          max_daily_amount: MAX_DAILY,
          spent_today: 80_000,
        },
      );
    });

    it('max_daily_amount: 80,000 + 20,000 reaches the cap exactly, accepted', () => {
      const command = requestPayout({ payoutId: 'po_3', actionId: 'third', amount: 20_000 });
      expect(decide(command, stateOf(newBusyWallet()))).toEqual([
        payoutAccepted({
          payoutId: 'po_3',
          actionId: 'third',
          amount: 20_000,
          fee: 200,
          requestKey: requestKeyOf(20_000),
        }),
      ]);
    });

    it('max_daily_amount: a single payout above a daily cap lower than the payout cap', () => {
      const history = [...newWallet(), policyChanged({ maxDailyAmount: 5_000 })];
      expect(ruleOf(history, requestPayout())).toMatchObject({ rule: 'max_daily_amount' });
    });

    it('a failed payout no longer counts against the day', () => {
      const history = [...newBusyWallet(), payoutReleased()];
      expect(spentOn(walletOf(history), DAY0)).toBe(30_000);
      expect(
        decide(requestPayout({ actionId: 'third', amount: 50_000 }), stateOf(history)),
      ).toHaveLength(1);
    });

    it('a new Dakar day starts from zero (midnight UTC)', () => {
      const command = (now: Date) => requestPayout({ actionId: 'third', amount: 50_000, now });
      expect(ruleOf(newBusyWallet(), command(new Date('2026-11-22T23:59:59.999Z')))).toMatchObject({
        rule: 'max_daily_amount',
      });
      given(newBusyWallet())
        .when(command(new Date('2026-11-23T00:00:00.000Z')))
        .then([
          payoutAccepted({
            actionId: 'third',
            amount: 50_000,
            fee: 500,
            requestKey: requestKeyOf(50_000),
            day: '2026-11-23',
            acceptedAt: '2026-11-23T00:00:00.000Z',
          }),
        ]);
    });

    it('a clock lagging behind midnight counts on the newer day (fail-closed)', () => {
      const history = [
        ...newWallet(),
        payoutAccepted({ amount: 95_000, day: '2026-11-23', acceptedAt: NEXT_DAY.toISOString() }),
      ];
      const lagging = requestPayout({ actionId: 'late', amount: 6_000, now: at(60) });
      expect(ruleOf(history, lagging)).toMatchObject({
        rule: 'max_daily_amount',
        spent_today: 95_000,
      });
    });

    it('no daily cap: no daily rule', () => {
      const history = [...newBusyWallet(), policyChanged({ maxDailyAmount: null })];
      expect(
        decide(requestPayout({ actionId: 'third', amount: 50_000 }), stateOf(history)),
      ).toHaveLength(1);
    });

    it('a lowered cap refuses what is over it; payouts already accepted stand', () => {
      const history = [...newBusyWallet(), policyChanged({ maxDailyAmount: 50_000 })];
      expect(ruleOf(history, requestPayout({ actionId: 'third', amount: 1 }))).toMatchObject({
        rule: 'max_daily_amount',
      });
      expect(spentOn(walletOf(history), DAY0)).toBe(80_000);
    });

    it('rules in order: allowlist before the caps, payout cap before the daily cap', () => {
      const stranger = { phone: STRANGER_PHONE, name: null };
      expect(
        ruleOf(
          newBusyWallet(),
          requestPayout({ actionId: 'x', amount: MAX_PAYOUT + 1, recipient: stranger }),
        ),
      ).toMatchObject({ rule: 'recipient_not_allowed' });
      expect(
        ruleOf(newBusyWallet(), requestPayout({ actionId: 'x', amount: MAX_PAYOUT + 1 })),
      ).toMatchObject({ rule: 'max_payout_amount' });
    });
  });

  describe('RequestPayout: funds (CONTRACT 2 insufficient_funds)', () => {
    it('amount + fee above available: 402 insufficient_funds, saying amount and fee', () => {
      const error = given(newWallet())
        .when(requestPayout({ available: AMOUNT + FEE - 1 }))
        .thenRefuses('insufficient_funds');
      expect(error.details).toEqual({ amount: AMOUNT, fee: FEE });
    });

    it('amount + fee equal to available: accepted (available may reach zero)', () => {
      given(newWallet())
        .when(requestPayout({ available: AMOUNT + FEE }))
        .then([payoutAccepted()]);
    });

    it('the policy is judged before the funds', () => {
      expect(
        ruleOf(newWallet(), requestPayout({ amount: MAX_PAYOUT + 1, available: 0 })),
      ).toMatchObject({ rule: 'max_payout_amount' });
    });

    it('available null: the ledger already holds the money, so only the policy is judged', () => {
      given(newWallet())
        .when(requestPayout({ available: null }))
        .then([payoutAccepted()]);
    });
  });

  describe('RequestPayout: action_id (CONTRACT 3)', () => {
    const accepted = (): AgentWalletEvent[] => [...newWallet(), payoutAccepted()];

    it('the same body under the same action_id decides nothing: the original payout stands', () => {
      given(accepted())
        .when(requestPayout({ payoutId: OTHER_PAYOUT_ID, now: at(30) }))
        .then([]);
      expect(payoutForAction(stateOf(accepted()), ACTION_ID)).toBe(PAYOUT_ID);
      expect(payoutForAction(stateOf(accepted()), OTHER_ACTION_ID)).toBeNull();
      expect(payoutForAction(stateOf([]), ACTION_ID)).toBeNull();
    });

    it('whatever the policy or the funds say by now', () => {
      const history = [...accepted(), policyChanged({ status: 'disabled' }), keyRevoked()];
      given(history)
        .when(requestPayout({ payoutId: OTHER_PAYOUT_ID, available: 0, now: NEXT_DAY }))
        .then([]);
    });

    it.each<[string, Parameters<typeof requestPayout>[0]]>([
      ['another amount', { amount: AMOUNT + 1 }],
      ['another recipient', { recipient: { phone: OTHER_ALLOWED_PHONE, name: 'Fatou Sarr' } }],
      ['another recipient name', { recipient: { phone: RECIPIENT_PHONE, name: null } }],
    ])('%s under the same action_id: 409 idempotency_conflict', (_, overrides) => {
      given(accepted())
        .when(requestPayout({ payoutId: OTHER_PAYOUT_ID, ...overrides }))
        .thenRefuses('idempotency_conflict');
    });

    it('action ids are the caller\'s text: "__proto__" and "constructor" are ids like any', () => {
      for (const actionId of ['__proto__', 'constructor']) {
        const history = after(newWallet(), requestPayout({ actionId }));
        expect(payoutForAction(stateOf(history), actionId)).toBe(PAYOUT_ID);
        given(history)
          .when(requestPayout({ actionId, amount: 1 }))
          .thenRefuses('idempotency_conflict');
      }
    });
  });

  describe('RequestPayout: refusals before the policy', () => {
    it('no wallet: not_found', () => {
      given([]).when(requestPayout()).thenRefuses('not_found');
    });

    it('a revoked or unknown key: authentication_required, decided on the wallet stream', () => {
      given([...newWallet(), keyRevoked()])
        .when(requestPayout())
        .thenRefuses('authentication_required');
      given(newWallet())
        .when(requestPayout({ agentKeyId: OTHER_KEY_ID }))
        .thenRefuses('authentication_required');
    });

    it.each<[string, Parameters<typeof requestPayout>[0], string]>([
      ['amount 0', { amount: 0 }, 'amount'],
      ['amount 1.5', { amount: 1.5 }, 'amount'],
      ['a currency other than XOF', { currency: 'EUR' }, 'currency'],
      [
        'a phone off the pattern',
        { recipient: { phone: '771234567', name: null } },
        'recipient.phone',
      ],
      [
        'an empty recipient name',
        { recipient: { phone: RECIPIENT_PHONE, name: '' } },
        'recipient.name',
      ],
      ['an empty action_id', { actionId: '' }, 'action_id'],
      ['an action_id of 101 characters', { actionId: 'a'.repeat(101) }, 'action_id'],
    ])('%s: validation_error naming the field', (_, overrides, field) => {
      const error = given(newWallet())
        .when(requestPayout(overrides))
        .thenRefuses('validation_error');
      expect(error.details).toEqual([{ field, issue: expect.any(String) }]);
    });
  });

  describe('ReleasePayout', () => {
    it("frees the failed payout's share of its day", () => {
      given(newBusyWallet()).when(releasePayout()).then([payoutReleased()]);
    });

    it('a repeat, or a payout the wallet never accepted, decides nothing', () => {
      given([...newBusyWallet(), payoutReleased()])
        .when(releasePayout())
        .then([]);
      given(newWallet()).when(releasePayout()).then([]);
    });

    it("a payout of an earlier day is released, and leaves today's total alone", () => {
      const nextDay = after(
        newBusyWallet(),
        requestPayout({ payoutId: 'po_3', actionId: 'n', now: NEXT_DAY }),
      );
      given(nextDay)
        .when(releasePayout({ now: NEXT_DAY }))
        .then([payoutReleased(PAYOUT_ID, NEXT_DAY)]);
      const released = after(nextDay, releasePayout({ now: NEXT_DAY }));
      expect(spentOn(walletOf(released), '2026-11-23')).toBe(AMOUNT);
    });

    it('a release event seen twice (a replayed stream) counts once', () => {
      const twice = [...newBusyWallet(), payoutReleased(), payoutReleased()];
      expect(spentOn(walletOf(twice), DAY0)).toBe(30_000);
    });

    it('no wallet: not_found', () => {
      given([]).when(releasePayout()).thenRefuses('not_found');
    });
  });

  describe('AbandonPayout (funds held, the request died before the wallet accepted)', () => {
    it('closes the payout id: a late request for it is refused and changes nothing', () => {
      given(newWallet()).when(abandonPayout()).then([payoutAbandoned()]);
      given([...newWallet(), payoutAbandoned()])
        .when(requestPayout())
        .thenRefuses('invalid_state');
    });

    it('another payout id, or the same action under a new id, is accepted as before', () => {
      const events = decide(
        requestPayout({ payoutId: OTHER_PAYOUT_ID }),
        stateOf([...newWallet(), payoutAbandoned()]),
      );
      expect(events.map((event) => event.type)).toEqual(['PayoutAccepted']);
    });

    it('a payout the wallet accepted, or one abandoned already, is not abandoned', () => {
      given(newBusyWallet()).when(abandonPayout()).then([]);
      given([...newWallet(), payoutAbandoned()])
        .when(abandonPayout())
        .then([]);
    });

    it('a retry of the request is made under the next id of its line, the same for every retry', () => {
      const next = successorId(PAYOUT_ID);
      expect(openPayoutId(stateOf(newWallet()), PAYOUT_ID)).toBe(PAYOUT_ID);
      expect(openPayoutId(stateOf([...newWallet(), payoutAbandoned()]), PAYOUT_ID)).toBe(next);
      // Interrupted again under that id: the one after it.
      const twice = stateOf([...newWallet(), payoutAbandoned(), payoutAbandoned(next)]);
      expect(openPayoutId(twice, PAYOUT_ID)).toBe(successorId(next));
      given([...newWallet(), payoutAbandoned()])
        .when(requestPayout({ payoutId: next }))
        .then([payoutAccepted({ payoutId: next })]);
    });

    it('a retry the policy refuses is told the rule, not that it was interrupted', () => {
      const disabled = [...newDisabledWallet(), payoutAbandoned()];
      expect(ruleOf(disabled, requestPayout())).toMatchObject({ rule: 'wallet_disabled' });
    });

    it('no wallet: not_found', () => {
      given([]).when(abandonPayout()).thenRefuses('not_found');
    });
  });

  it('every command type has a case in these tests', () => {
    const ALL: Record<AgentWalletCommand['type'], AgentWalletCommand> = {
      CreateAgentWallet: createAgentWallet(),
      UpdateAgentWalletPolicy: updatePolicy({}),
      IssueAgentKey: issueAgentKey(),
      RevokeAgentKey: revokeAgentKey(),
      RequestPayout: requestPayout(),
      ReleasePayout: releasePayout(),
      AbandonPayout: abandonPayout(),
    };
    for (const command of Object.values(ALL)) {
      expect(() => decide(command, stateOf(newWallet()))).not.toThrow();
    }
  });
});
