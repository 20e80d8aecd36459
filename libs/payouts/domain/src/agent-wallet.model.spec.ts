import { DomainError, fold } from '@xaalis/kernel';
import fc from 'fast-check';
import type { AgentWalletCommand } from './agent-wallet.commands';
import { decide as decideWallet, payoutForAction } from './agent-wallet.decide';
import type { AgentWalletEvent, WalletPolicy } from './agent-wallet.events';
import {
  ALLOWED_PHONES,
  createAgentWallet,
  issueAgentKey,
  KEY_ID,
  releasePayout,
  requestPayout,
  STRANGER_PHONE,
  T0,
  updatePolicy,
} from './agent-wallet.fixtures';
import {
  evolve as evolveWallet,
  exists,
  initialState,
  spentOn,
  type AgentWalletState,
} from './agent-wallet.state';
import { dakarDay } from './dakar-day';
import type { PayoutCommand } from './payout.commands';
import { decide as decidePayout } from './payout.decide';
import type { PayoutEvent } from './payout.events';
import {
  createPayout,
  failPayout,
  reversePayout,
  startPayout,
  succeedPayout,
} from './payout.fixtures';
import {
  evolve as evolvePayout,
  initialState as initialPayout,
  type PayoutState,
} from './payout.state';

/**
 * Model-based property test (issue 19, item 7): random runs of payout requests (new and retried
 * action ids), sends, successes, failures, reversals, credits, the clock moving across Dakar days
 * and policy changes, played against the deciders (as the application plays them, with a ledger
 * of `available`) and against a plain model of the policy and the balance written from the
 * contract alone. Every answer must agree, `available` never goes below zero, and the wallet
 * never counts a day past the cap it had when it accepted.
 */

const DAY_MS = 86_400_000;
/** Enough for a few payouts, not for all: both the caps and the balance get to refuse. */
const OPENING_BALANCE = 60_000;
const WAVE_BPS = 100;
const PHONES = [...ALLOWED_PHONES, STRANGER_PHONE];

type ModelStatus = 'pending' | 'processing' | 'succeeded' | 'failed';
interface ModelPayout {
  id: string;
  amount: number;
  fee: number;
  day: number;
  status: ModelStatus;
}
interface Model {
  nowMs: number;
  available: number;
  credited: number;
  policy: {
    active: boolean;
    maxPayout: number;
    maxDaily: number | null;
    allowed: string[];
  };
  payouts: ModelPayout[];
  actions: Map<string, { id: string; amount: number; phone: string }>;
}

interface Real {
  wallet: AgentWalletState;
  walletEvents: number;
  payouts: Map<string, PayoutState>;
  available: number;
  now: Date;
  nextId: number;
}

/** The contract's arithmetic, written apart from `payoutFee`: half up on a small safe product. */
const modelFee = (amount: number): number => Math.floor((amount * WAVE_BPS + 5_000) / 10_000);
const modelDay = (ms: number): number => Math.floor(ms / DAY_MS);
const modelSpentToday = (model: Model): number =>
  model.payouts
    .filter((payout) => payout.day === modelDay(model.nowMs) && payout.status !== 'failed')
    .reduce((sum, payout) => sum + payout.amount, 0);

/** A decision's answer, as a word both sides can give. */
function outcomeOf(run: () => unknown[]): string {
  try {
    return run().length === 0 ? 'nothing' : 'events';
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const rule = (error.details as { rule?: string } | undefined)?.rule;
    return rule ? `${error.code}:${rule}` : error.code;
  }
}

function appendWallet(real: Real, command: AgentWalletCommand): AgentWalletEvent[] {
  const events = decideWallet(command, real.wallet);
  real.wallet = fold(evolveWallet, real.wallet, events);
  real.walletEvents += events.length;
  return events;
}

function appendPayout(real: Real, id: string, command: PayoutCommand): PayoutEvent[] {
  const state = real.payouts.get(id) ?? initialPayout();
  const events = decidePayout(command, state);
  real.payouts.set(id, fold(evolvePayout, state, events));
  return events;
}

function checkInvariants(model: Model, real: Real): void {
  expect(real.available).toBeGreaterThanOrEqual(0);
  expect(real.available).toBe(model.available);
  // The money is all there: what came in, less what open and settled payouts took.
  const taken = model.payouts
    .filter((payout) => payout.status !== 'failed')
    .reduce((sum, payout) => sum + payout.amount + payout.fee, 0);
  expect(model.credited - taken).toBe(real.available);
  if (!exists(real.wallet)) throw new Error('no wallet');
  expect(spentOn(real.wallet, dakarDay(real.now))).toBe(modelSpentToday(model));
}

/** Every answer the runs reached, checked at the end: a model test that never refuses proves little. */
const SEEN = new Set<string>();

class RequestPayoutCommand implements fc.Command<Model, Real> {
  constructor(
    readonly action: number,
    readonly amount: number,
    readonly phone: number,
  ) {}
  check = () => true;
  run(model: Model, real: Real): void {
    const actionId = `action-${this.action}`;
    const phone = PHONES[this.phone];
    const payoutId = `po_model${String(real.nextId++).padStart(16, '0')}`;
    const fee = modelFee(this.amount);

    const known = model.actions.get(actionId);
    const { policy } = model;
    let expected: string;
    if (known) {
      expected =
        known.amount === this.amount && known.phone === phone ? 'nothing' : 'idempotency_conflict';
    } else if (!policy.active) expected = 'policy_violation:wallet_disabled';
    else if (!policy.allowed.includes(phone)) expected = 'policy_violation:recipient_not_allowed';
    else if (this.amount > policy.maxPayout) expected = 'policy_violation:max_payout_amount';
    else if (policy.maxDaily !== null && modelSpentToday(model) + this.amount > policy.maxDaily) {
      expected = 'policy_violation:max_daily_amount';
    } else if (this.amount + fee > model.available) expected = 'insufficient_funds';
    else expected = 'events';

    const command = requestPayout({
      payoutId,
      actionId,
      agentKeyId: KEY_ID,
      amount: this.amount,
      recipient: { phone, name: null },
      available: real.available,
      now: real.now,
    });
    let accepted: AgentWalletEvent[] = [];
    const got = outcomeOf(() => (accepted = appendWallet(real, command)));
    expect(got).toBe(expected);
    SEEN.add(expected);
    if (expected === 'events' && modelDay(model.nowMs) > modelDay(T0.getTime()))
      SEEN.add('accepted on a later day');

    if (known) {
      expect(payoutForAction(real.wallet, actionId)).toBe(known.id);
    }
    if (got === 'events') {
      const [event] = accepted;
      if (event.type !== 'PayoutAccepted') throw new Error(event.type);
      expect(event.data.fee).toBe(fee);
      // The application: the ledger's hold, then the payout's own stream.
      real.available -= event.data.amount + event.data.fee;
      appendPayout(real, payoutId, createPayout({ accepted: event.data, now: real.now }));
      if (!exists(real.wallet)) throw new Error('no wallet');
      if (real.wallet.maxDailyAmount !== null) {
        expect(spentOn(real.wallet, event.data.day)).toBeLessThanOrEqual(
          real.wallet.maxDailyAmount,
        );
      }
      model.available -= this.amount + fee;
      model.payouts.push({
        id: payoutId,
        amount: this.amount,
        fee,
        day: modelDay(model.nowMs),
        status: 'pending',
      });
      model.actions.set(actionId, { id: payoutId, amount: this.amount, phone });
    }
    checkInvariants(model, real);
  }
  toString = () => `request(action-${this.action}, ${this.amount}, ${PHONES[this.phone]})`;
}

type Move = 'start' | 'succeed' | 'fail' | 'reverse';

/** What the contract says each move does from each status: the new status, or the answer. */
const MOVES: Record<Move, Record<ModelStatus, ModelStatus | 'nothing' | 'invalid_state'>> = {
  start: {
    pending: 'processing',
    processing: 'nothing',
    succeeded: 'invalid_state',
    failed: 'invalid_state',
  },
  succeed: {
    pending: 'succeeded',
    processing: 'succeeded',
    succeeded: 'nothing',
    failed: 'invalid_state',
  },
  fail: { pending: 'failed', processing: 'failed', succeeded: 'invalid_state', failed: 'nothing' },
  reverse: {
    pending: 'invalid_state',
    processing: 'failed',
    succeeded: 'failed',
    failed: 'nothing',
  },
};

class PayoutMoveCommand implements fc.Command<Model, Real> {
  constructor(
    readonly move: Move,
    readonly pick: number,
  ) {}
  check = (model: Readonly<Model>) => model.payouts.length > 0;
  run(model: Model, real: Real): void {
    const payout = model.payouts[this.pick % model.payouts.length];
    const next = MOVES[this.move][payout.status];
    const command: PayoutCommand = {
      start: () => startPayout(real.now),
      succeed: () => succeedPayout(real.now),
      fail: () => failPayout('recipient_refused', real.now),
      reverse: () => reversePayout(real.now),
    }[this.move]();
    const got = outcomeOf(() => appendPayout(real, payout.id, command));
    expect(got).toBe(next === 'nothing' || next === 'invalid_state' ? next : 'events');
    if (next === 'failed') {
      // The application: amount + fee back to available, and the wallet frees the day's share.
      real.available += payout.amount + payout.fee;
      appendWallet(real, releasePayout({ payoutId: payout.id, now: real.now }));
      model.available += payout.amount + payout.fee;
    }
    if (next !== 'nothing' && next !== 'invalid_state') payout.status = next;
    checkInvariants(model, real);
  }
  toString = () => `${this.move}(#${this.pick})`;
}

/**
 * A payout of just what `available` covers with its fee, or one franc more: the edge where a
 * fee forgotten or rounded the wrong way shows.
 */
class DrainCommand implements fc.Command<Model, Real> {
  constructor(
    readonly action: number,
    readonly over: 0 | 1,
  ) {}
  check = (model: Readonly<Model>) => model.available > 1;
  run(model: Model, real: Real): void {
    let amount = model.available;
    while (amount > 1 && amount + modelFee(amount) > model.available) amount--;
    new RequestPayoutCommand(this.action, amount + this.over, 0).run(model, real);
  }
  toString = () => `drain(action-${this.action}, +${this.over})`;
}

/** The agent retries an earlier action with the very same body (any idempotency key). */
class RetryCommand implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.actions.size > 0;
  run(model: Model, real: Real): void {
    const [actionId, first] = [...model.actions][this.pick % model.actions.size];
    const action = Number(actionId.slice('action-'.length));
    new RequestPayoutCommand(action, first.amount, PHONES.indexOf(first.phone)).run(model, real);
  }
  toString = () => `retry(#${this.pick})`;
}

/** The release of a failed payout delivered again (a job retried after a crash): no effect. */
class RedeliverReleaseCommand implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.payouts.some((payout) => payout.status === 'failed');
  run(model: Model, real: Real): void {
    const failed = model.payouts.filter((payout) => payout.status === 'failed');
    const payout = failed[this.pick % failed.length];
    expect(appendWallet(real, releasePayout({ payoutId: payout.id, now: real.now }))).toEqual([]);
    checkInvariants(model, real);
  }
  toString = () => `redeliver-release(#${this.pick})`;
}

class CreditCommand implements fc.Command<Model, Real> {
  constructor(readonly amount: number) {}
  check = () => true;
  run(model: Model, real: Real): void {
    real.available += this.amount;
    model.available += this.amount;
    model.credited += this.amount;
    checkInvariants(model, real);
  }
  toString = () => `credit(${this.amount})`;
}

class ClockCommand implements fc.Command<Model, Real> {
  constructor(readonly minutes: number) {}
  check = () => true;
  run(model: Model, real: Real): void {
    real.now = new Date(real.now.getTime() + this.minutes * 60_000);
    model.nowMs += this.minutes * 60_000;
    checkInvariants(model, real);
  }
  toString = () => `clock(+${this.minutes} min)`;
}

class PolicyCommand implements fc.Command<Model, Real> {
  constructor(readonly changes: Partial<WalletPolicy>) {}
  check = () => true;
  run(model: Model, real: Real): void {
    appendWallet(real, updatePolicy(this.changes, real.now));
    const { status, maxPayoutAmount, maxDailyAmount, allowedRecipientPhones } = this.changes;
    if (status !== undefined) model.policy.active = status === 'active';
    if (maxPayoutAmount !== undefined) model.policy.maxPayout = maxPayoutAmount;
    if (maxDailyAmount !== undefined) model.policy.maxDaily = maxDailyAmount;
    if (allowedRecipientPhones !== undefined) model.policy.allowed = allowedRecipientPhones;
    checkInvariants(model, real);
  }
  toString = () => `policy(${JSON.stringify(this.changes)})`;
}

const amounts = fc.oneof(
  fc.integer({ min: 1, max: 60_000 }),
  fc.constantFrom(1, 49, 50, 20_000, 50_000, 50_001, 100_000),
);

const commands = [
  fc
    .tuple(fc.nat(12), amounts, fc.nat(2))
    .map(([action, amount, phone]) => new RequestPayoutCommand(action, amount, phone)),
  fc
    .tuple(fc.constantFrom<Move>('start', 'succeed', 'fail', 'reverse'), fc.nat(40))
    .map(([move, pick]) => new PayoutMoveCommand(move, pick)),
  fc.integer({ min: 1, max: 30_000 }).map((amount) => new CreditCommand(amount)),
  fc.nat(40).map((pick) => new RetryCommand(pick)),
  fc.nat(40).map((pick) => new RedeliverReleaseCommand(pick)),
  fc
    .tuple(fc.nat(12), fc.constantFrom<0 | 1>(0, 1))
    .map(([action, over]) => new DrainCommand(action, over)),
  fc
    .oneof(fc.integer({ min: 1, max: 180 }), fc.integer({ min: 600, max: 2_880 }))
    .map((minutes) => new ClockCommand(minutes)),
  fc
    .record(
      {
        status: fc.constantFrom('active' as const, 'disabled' as const),
        maxPayoutAmount: fc.integer({ min: 1, max: 60_000 }),
        maxDailyAmount: fc.option(fc.integer({ min: 1, max: 150_000 }), { nil: null }),
        allowedRecipientPhones: fc.subarray(ALLOWED_PHONES, { minLength: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((changes) => new PolicyCommand(changes)),
];

describe('agent wallet against a plain model of its policy and the balance', () => {
  it('agrees on every answer; never overdraws; never passes a cap', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 80, size: 'max' }), (cmds) => {
        const real: Real = {
          wallet: initialState(),
          walletEvents: 0,
          payouts: new Map(),
          available: OPENING_BALANCE,
          now: T0,
          nextId: 0,
        };
        appendWallet(real, createAgentWallet());
        appendWallet(real, issueAgentKey());
        const model: Model = {
          nowMs: T0.getTime(),
          available: OPENING_BALANCE,
          credited: OPENING_BALANCE,
          policy: {
            active: true,
            maxPayout: 50_000,
            maxDaily: 100_000,
            allowed: [...ALLOWED_PHONES],
          },
          payouts: [],
          actions: new Map(),
        };
        fc.modelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 250 },
    );
    expect([...SEEN].sort()).toEqual([
      'accepted on a later day',
      'events',
      'idempotency_conflict',
      'insufficient_funds',
      'nothing',
      'policy_violation:max_daily_amount',
      'policy_violation:max_payout_amount',
      'policy_violation:recipient_not_allowed',
      'policy_violation:wallet_disabled',
    ]);
  });
});
