import type { Mode } from '@xaalis/kernel';
import { LEDGER_ACCOUNTS, type LedgerAccount, type SettlementAccount } from './accounts';
import type { CreditPayment, Hold, HoldRef } from './ledger.inputs';

export const LEDGER_TXN_KINDS = ['payment', 'hold', 'settle', 'release', 'reverse'] as const;
export type LedgerTxnKind = (typeof LEDGER_TXN_KINDS)[number];

export interface LedgerEntry {
  account: LedgerAccount;
  /** Signed XOF: positive credits the account, negative debits it. */
  amount: number;
}

/** One ledger transaction: entries of one merchant in one mode that sum to zero. */
export interface LedgerPosting {
  txnId: string;
  merchantId: string;
  mode: Mode;
  kind: LedgerTxnKind;
  entries: LedgerEntry[];
}

/** A hold as recorded, which its settlement, release or reversal moves on. */
export interface HeldFunds {
  ref: HoldRef;
  merchantId: string;
  mode: Mode;
  amount: number;
  fee: number;
}

export const paymentTxnId = (paymentId: string): string => `payment:${paymentId}`;
export const settledTxnId = (ref: HoldRef): string => `${ref}:settled`;
export const releasedTxnId = (ref: HoldRef): string => `${ref}:released`;
export const reversedTxnId = (ref: HoldRef): string => `${ref}:reversed`;

const { available, pending, providerClearing, platformFees } = LEDGER_ACCOUNTS;

export function paymentPosting(payment: CreditPayment): LedgerPosting {
  return posting({ txnId: paymentTxnId(payment.paymentId), kind: 'payment', ...ownerOf(payment) }, [
    { account: providerClearing, amount: -payment.amount },
    { account: available, amount: payment.amount - payment.fee },
    { account: platformFees, amount: payment.fee },
  ]);
}

export function holdPosting(hold: Required<Hold>): LedgerPosting {
  const total = hold.amount + hold.fee;
  return posting({ txnId: hold.ref, kind: 'hold', ...ownerOf(hold) }, [
    { account: available, amount: -total },
    { account: pending, amount: total },
  ]);
}

export function settlePosting(hold: HeldFunds, to: SettlementAccount): LedgerPosting {
  return posting({ txnId: settledTxnId(hold.ref), kind: 'settle', ...ownerOf(hold) }, [
    { account: pending, amount: -(hold.amount + hold.fee) },
    { account: to, amount: hold.amount },
    { account: platformFees, amount: hold.fee },
  ]);
}

export function releasePosting(hold: HeldFunds): LedgerPosting {
  const total = hold.amount + hold.fee;
  return posting({ txnId: releasedTxnId(hold.ref), kind: 'release', ...ownerOf(hold) }, [
    { account: pending, amount: -total },
    { account: available, amount: total },
  ]);
}

/**
 * A settled hold's money comes back (the provider reversed the transfer): `from` −amount,
 * platform_fees −fee, merchant_available +(amount + fee). The exact opposite of the settlement,
 * and, with it, of the hold: the merchant ends where they were before the hold.
 */
export function reversePosting(hold: HeldFunds, from: SettlementAccount): LedgerPosting {
  return posting({ txnId: reversedTxnId(hold.ref), kind: 'reverse', ...ownerOf(hold) }, [
    { account: from, amount: -hold.amount },
    { account: platformFees, amount: -hold.fee },
    { account: available, amount: hold.amount + hold.fee },
  ]);
}

const ownerOf = (of: { merchantId: string; mode: Mode }) => ({
  merchantId: of.merchantId,
  mode: of.mode,
});

/**
 * Zero entries (a payment without fee) are left out: they would say nothing. Entries are sorted by
 * account because the balance rows are locked in this order, and postings that lock in one order
 * cannot deadlock each other.
 */
function posting(header: Omit<LedgerPosting, 'entries'>, entries: LedgerEntry[]): LedgerPosting {
  const kept = entries
    .filter((entry) => entry.amount !== 0)
    .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  const accounts = new Set(kept.map((entry) => entry.account));
  const sum = kept.reduce((total, entry) => total + entry.amount, 0);
  // Programming errors, not client errors: the builders above must never produce these.
  if (accounts.size !== kept.length) throw new Error(`${header.txnId}: an account appears twice`);
  if (sum !== 0) throw new Error(`${header.txnId}: entries sum to ${sum}, not 0`);
  if (kept.length < 2) throw new Error(`${header.txnId}: fewer than two entries`);
  return { ...header, entries: kept };
}
