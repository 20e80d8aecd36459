import { categoryOf, matchesPrefixes, mayMatchPrefixes } from './prepare-events';

describe('stream categories', () => {
  it('are the name up to its first dash, or the whole name', () => {
    expect(categoryOf('payout-po_01J')).toBe('payout-');
    expect(categoryOf('agent_wallet-aw_1-2')).toBe('agent_wallet-');
    expect(categoryOf('ledger')).toBe('ledger');
  });

  it('may match a prefix whenever one of their streams does', () => {
    const streams = ['payout-po_1', 'payment-pay_1', 'refund-re_1', 'ledger', 'ledgers-1'];
    const prefixSets = [['payout-'], ['pay'], ['payout-po_1'], ['payment-', 'refund-'], ['ledger']];
    for (const stream of streams) {
      for (const prefixes of prefixSets) {
        if (matchesPrefixes(stream, prefixes)) {
          expect(mayMatchPrefixes(categoryOf(stream), prefixes)).toBe(true);
        }
      }
    }
    expect(mayMatchPrefixes('payout-', ['payment-', 'refund-'])).toBe(false);
    expect(mayMatchPrefixes('merchant-', ['payout-'])).toBe(false);
    expect(mayMatchPrefixes('payout-', undefined)).toBe(true);
  });
});
