import { givenWhenThen } from '@xaalis/kernel/testing';
import { quoteDecider, redeemRefusal } from './quote.decide';
import {
  at,
  EXCHANGE_ID,
  issueQuote,
  MINUTE,
  OTHER_EXCHANGE_ID,
  otpFailed,
  QUOTE_ID,
  quoteIssued,
  quoteRedeemed,
  quoteSpent,
  quoteWithFailures,
  redeemQuote,
  T0,
} from './quote.fixtures';
import { quoteView } from './quote.view';

const { given, stateOf } = givenWhenThen(quoteDecider);

describe('exchange quote decider (CONTRACT 8)', () => {
  describe('IssueQuote', () => {
    it('quotes the fee in basis points, what is received, and 10 minutes to redeem', () => {
      given([]).when(issueQuote()).then([quoteIssued()]);
    });

    it('rounds the fee half up: 1,050 at 1% is a fee of 11', () => {
      given([])
        .when(issueQuote({ sendAmount: 1_050 }))
        .then([quoteIssued({ sendAmount: 1_050, fee: 11, receiveAmount: 1_039 })]);
    });

    it('a retry of the issue that made it decides nothing', () => {
      given([quoteIssued()])
        .when(issueQuote({ sendAmount: 999 }))
        .then([]);
    });

    it('refuses from = to, naming `to`', () => {
      const error = given([])
        .when(issueQuote({ to: 'wave' }))
        .thenRefuses('validation_error');
      expect(error.details).toEqual([{ field: 'to', issue: 'must differ from `from`' }]);
    });

    it.each<[string, Parameters<typeof issueQuote>[0]]>([
      ['499 XOF', { sendAmount: 499 }],
      ['1,000,001 XOF', { sendAmount: 1_000_001 }],
    ])('refuses %s as limit_exceeded (CONTRACT 8)', (_, overrides) => {
      given([]).when(issueQuote(overrides)).thenRefuses('limit_exceeded');
    });

    it.each<[string, Parameters<typeof issueQuote>[0]]>([
      ['mock', { from: 'mock' }],
      ['a bad phone', { phone: '771234567' }],
      ['a fee that leaves nothing', { feeBps: 10_000 }],
    ])('refuses %s', (_, overrides) => {
      given([]).when(issueQuote(overrides)).thenRefuses('validation_error');
    });
  });

  describe('RedeemQuote', () => {
    it('the right code redeems the quote for the exchange', () => {
      given([quoteIssued()]).when(redeemQuote()).then([quoteRedeemed()]);
      expect(redeemRefusal([quoteRedeemed()])).toBeNull();
    });

    it('is single use: another redemption is invalid_quote, this one again decides nothing', () => {
      const history = [quoteIssued(), quoteRedeemed()];
      given(history)
        .when(redeemQuote({ exchangeId: OTHER_EXCHANGE_ID }))
        .thenRefuses('invalid_quote');
      given(history)
        .when(redeemQuote({ exchangeId: EXCHANGE_ID }))
        .then([]);
    });

    it('an unknown quote or another token is invalid_quote', () => {
      given([]).when(redeemQuote()).thenRefuses('invalid_quote');
      given([quoteIssued()])
        .when(redeemQuote({ tokenHash: 'other' }))
        .thenRefuses('invalid_quote');
    });

    it('expires at exactly 10 minutes: a millisecond before still redeems', () => {
      given([quoteIssued()])
        .when(redeemQuote({ now: at(10 * MINUTE - 1) }))
        .then([quoteRedeemed(EXCHANGE_ID, at(10 * MINUTE - 1))]);
      given([quoteIssued()])
        .when(redeemQuote({ now: at(10 * MINUTE) }))
        .thenRefuses('invalid_quote');
    });

    it('an expired quote is invalid_quote even with a wrong code, and records nothing', () => {
      given([quoteIssued()])
        .when(redeemQuote({ otp: '000000', now: at(11 * MINUTE) }))
        .thenRefuses('invalid_quote');
    });

    it('a wrong code is recorded, and the caller answers invalid_otp', () => {
      given([quoteIssued()])
        .when(redeemQuote({ otp: '654321' }))
        .then([otpFailed(1)]);
      expect(redeemRefusal([otpFailed(1)])?.code).toBe('invalid_otp');
    });

    it('the 4th wrong code still leaves the quote open; the right one then redeems', () => {
      given(quoteWithFailures(3))
        .when(redeemQuote({ otp: '1' }))
        .then([otpFailed(4)]);
      given(quoteWithFailures(4)).when(redeemQuote()).then([quoteRedeemed()]);
    });

    it('the 5th wrong code spends the quote: even the right code is then invalid_quote', () => {
      given(quoteWithFailures(4))
        .when(redeemQuote({ otp: '1' }))
        .then([otpFailed(5), quoteSpent()]);
      expect(redeemRefusal([otpFailed(5), quoteSpent()])?.code).toBe('invalid_otp');
      given([...quoteWithFailures(5), quoteSpent()])
        .when(redeemQuote())
        .thenRefuses('invalid_quote');
    });
  });

  it('the quote answer carries the token and the terms (CONTRACT 8)', () => {
    const quote = stateOf([quoteIssued()]);
    if (quote === null) throw new Error('no quote');
    expect(quoteView(quote, 'exq_tok')).toEqual({
      object: 'exchange_quote',
      id: QUOTE_ID,
      quote: 'exq_tok',
      from: 'wave',
      to: 'orange_money',
      send_amount: 10_000,
      fee: 100,
      receive_amount: 9_900,
      expires_at: '2026-11-22T10:10:00.000Z',
    });
    expect(T0.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });
});
