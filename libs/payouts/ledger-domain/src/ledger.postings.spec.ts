import {
  holdPosting,
  paymentPosting,
  releasePosting,
  reversePosting,
  reversedTxnId,
  settlePosting,
  type HeldFunds,
  type LedgerPosting,
} from './ledger.postings';

const sum = (posting: LedgerPosting) =>
  posting.entries.reduce((total, entry) => total + entry.amount, 0);

const payoutHeld: HeldFunds = {
  ref: 'payout:po_1',
  merchantId: 'mer_1',
  mode: 'live',
  amount: 10_000,
  fee: 150,
};

describe('ledger postings', () => {
  it('a payment: clearing gives the amount, the merchant gets the net, the platform the fee', () => {
    const posting = paymentPosting({
      paymentId: 'pay_1',
      merchantId: 'mer_1',
      mode: 'test',
      amount: 5_000,
      fee: 125,
    });

    expect(posting).toEqual({
      txnId: 'payment:pay_1',
      merchantId: 'mer_1',
      mode: 'test',
      kind: 'payment',
      // Sorted by account: the order balance rows are locked in.
      entries: [
        { account: 'merchant_available', amount: 4_875 },
        { account: 'platform_fees', amount: 125 },
        { account: 'provider_clearing', amount: -5_000 },
      ],
    });
    expect(sum(posting)).toBe(0);
  });

  it('a payment without fee has no fee entry', () => {
    const posting = paymentPosting({
      paymentId: 'pay_2',
      merchantId: 'mer_1',
      mode: 'test',
      amount: 700,
      fee: 0,
    });

    expect(posting.entries).toEqual([
      { account: 'merchant_available', amount: 700 },
      { account: 'provider_clearing', amount: -700 },
    ]);
  });

  it('a payment whose fee is all of it leaves the merchant nothing and no entry', () => {
    const posting = paymentPosting({
      paymentId: 'pay_3',
      merchantId: 'mer_1',
      mode: 'test',
      amount: 50,
      fee: 50,
    });

    expect(posting.entries).toEqual([
      { account: 'platform_fees', amount: 50 },
      { account: 'provider_clearing', amount: -50 },
    ]);
  });

  it('a hold moves amount and fee from available to pending, under the hold ref', () => {
    const posting = holdPosting({ ...payoutHeld });

    expect(posting).toEqual({
      txnId: 'payout:po_1',
      merchantId: 'mer_1',
      mode: 'live',
      kind: 'hold',
      entries: [
        { account: 'merchant_available', amount: -10_150 },
        { account: 'merchant_pending', amount: 10_150 },
      ],
    });
  });

  it('settling pays the amount out and books the fee', () => {
    const posting = settlePosting(payoutHeld, 'payouts_sent');

    expect(posting.txnId).toBe('payout:po_1:settled');
    expect(posting.kind).toBe('settle');
    expect(posting.entries).toEqual([
      { account: 'merchant_pending', amount: -10_150 },
      { account: 'payouts_sent', amount: 10_000 },
      { account: 'platform_fees', amount: 150 },
    ]);
    expect(sum(posting)).toBe(0);
  });

  it('settling a refund hold pays the customer back', () => {
    const posting = settlePosting(
      { ref: 'refund:re_1', merchantId: 'mer_1', mode: 'test', amount: 300, fee: 0 },
      'customer_refunds',
    );

    expect(posting.entries).toEqual([
      { account: 'customer_refunds', amount: 300 },
      { account: 'merchant_pending', amount: -300 },
    ]);
  });

  it('releasing returns amount and fee to available', () => {
    const posting = releasePosting(payoutHeld);

    expect(posting.txnId).toBe('payout:po_1:released');
    expect(posting.kind).toBe('release');
    expect(posting.entries).toEqual([
      { account: 'merchant_available', amount: 10_150 },
      { account: 'merchant_pending', amount: -10_150 },
    ]);
  });

  it('reversing a settled payout takes amount and fee back to available', () => {
    const posting = reversePosting(payoutHeld, 'payouts_sent');

    expect(posting).toEqual({
      txnId: 'payout:po_1:reversed',
      merchantId: 'mer_1',
      mode: 'live',
      kind: 'reverse',
      entries: [
        { account: 'merchant_available', amount: 10_150 },
        { account: 'payouts_sent', amount: -10_000 },
        { account: 'platform_fees', amount: -150 },
      ],
    });
  });

  it('a reversal undoes the settlement and the hold: together they move nothing', () => {
    const all = [
      holdPosting(payoutHeld),
      settlePosting(payoutHeld, 'payouts_sent'),
      reversePosting(payoutHeld, 'payouts_sent'),
    ].flatMap((posting) => posting.entries);
    const net = new Map<string, number>();
    for (const entry of all) net.set(entry.account, (net.get(entry.account) ?? 0) + entry.amount);

    expect([...net.values()].every((amount) => amount === 0)).toBe(true);
  });

  it('reversing a refund hold without fee has no fee entry', () => {
    const posting = reversePosting(
      { ref: 'refund:re_1', merchantId: 'mer_1', mode: 'test', amount: 300, fee: 0 },
      'customer_refunds',
    );

    expect(posting.txnId).toBe(reversedTxnId('refund:re_1'));
    expect(posting.entries).toEqual([
      { account: 'customer_refunds', amount: -300 },
      { account: 'merchant_available', amount: 300 },
    ]);
  });
});
