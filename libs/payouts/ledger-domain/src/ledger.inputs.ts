import { isMode, validationError, type FieldIssue, type Mode } from '@xaalis/kernel';
import { isSettlementAccount, type SettlementAccount } from './accounts';

/** A succeeded payment: `amount` collected at the provider, of which `fee` is the platform's. */
export interface CreditPayment {
  paymentId: string;
  merchantId: string;
  mode: Mode;
  amount: number;
  fee: number;
}

/**
 * A hold's id, which is also its ledger transaction id: one per refund or payout, so a refund or
 * payout holds its money once whatever the bus redelivers.
 */
export type HoldRef = `refund:${string}` | `payout:${string}`;

export const refundHold = (refundId: string): HoldRef => `refund:${refundId}`;
export const payoutHold = (payoutId: string): HoldRef => `payout:${payoutId}`;

export interface Hold {
  ref: HoldRef;
  merchantId: string;
  mode: Mode;
  amount: number;
  /**
   * A payout's fee, held with its amount: it goes to platform_fees when the payout settles and
   * back to available when it fails (spec 3.4). Refunds take none (their fee is not returned).
   */
  fee?: number;
}

export interface SettleHold {
  ref: HoldRef;
  to: SettlementAccount;
}

export interface ReleaseHold {
  ref: HoldRef;
}

export interface ReverseHold {
  ref: HoldRef;
}

// No ':' in ids: transaction ids are `<kind>:<id>` and `<hold>:<ending>`, and must not collide.
const ID = /^[^\s:]{1,255}$/;
const HOLD_REF = /^(refund|payout):[^\s:]{1,255}$/;

const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
const isHoldRef = (value: unknown): value is HoldRef =>
  typeof value === 'string' && HOLD_REF.test(value);
const isAmount = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

class Issues {
  readonly list: FieldIssue[] = [];
  check(ok: boolean, field: string, issue: string): void {
    if (!ok) this.list.push({ field, issue });
  }
  throwIfAny(what: string): void {
    if (this.list.length > 0) throw validationError(this.list, `Invalid ledger ${what}.`);
  }
}

const checkOwner = (issues: Issues, input: { merchantId: unknown; mode: unknown }): void => {
  issues.check(isId(input.merchantId), 'merchantId', 'must be an id');
  issues.check(isMode(input.mode), 'mode', "must be 'test' or 'live'");
};

export function validCreditPayment(input: CreditPayment): CreditPayment {
  const issues = new Issues();
  issues.check(isId(input.paymentId), 'paymentId', 'must be an id');
  checkOwner(issues, input);
  issues.check(isAmount(input.amount, 1), 'amount', 'must be a positive integer');
  issues.check(isAmount(input.fee, 0), 'fee', 'must be a non-negative integer');
  if (isAmount(input.amount, 1) && isAmount(input.fee, 0)) {
    issues.check(input.fee <= input.amount, 'fee', 'must not exceed amount');
  }
  issues.throwIfAny('payment credit');
  const { paymentId, merchantId, mode, amount, fee } = input;
  return { paymentId, merchantId, mode, amount, fee };
}

export function validHold(input: Hold): Required<Hold> {
  const fee = input.fee ?? 0;
  const issues = new Issues();
  issues.check(isHoldRef(input.ref), 'ref', "must be 'refund:<id>' or 'payout:<id>'");
  checkOwner(issues, input);
  issues.check(isAmount(input.amount, 1), 'amount', 'must be a positive integer');
  issues.check(isAmount(fee, 0), 'fee', 'must be a non-negative integer');
  if (isAmount(input.amount, 1) && isAmount(fee, 0)) {
    issues.check(Number.isSafeInteger(input.amount + fee), 'amount', 'amount + fee is too large');
  }
  issues.throwIfAny('hold');
  const { ref, merchantId, mode, amount } = input;
  return { ref, merchantId, mode, amount, fee };
}

export function validSettleHold(input: SettleHold): SettleHold {
  const issues = new Issues();
  issues.check(isHoldRef(input.ref), 'ref', "must be 'refund:<id>' or 'payout:<id>'");
  issues.check(isSettlementAccount(input.to), 'to', "must be 'customer_refunds' or 'payouts_sent'");
  issues.throwIfAny('settlement');
  return { ref: input.ref, to: input.to };
}

export function validReleaseHold(input: ReleaseHold): ReleaseHold {
  const issues = new Issues();
  issues.check(isHoldRef(input.ref), 'ref', "must be 'refund:<id>' or 'payout:<id>'");
  issues.throwIfAny('release');
  return { ref: input.ref };
}

export function validReverseHold(input: ReverseHold): ReverseHold {
  const issues = new Issues();
  issues.check(isHoldRef(input.ref), 'ref', "must be 'refund:<id>' or 'payout:<id>'");
  issues.throwIfAny('reversal');
  return { ref: input.ref };
}
