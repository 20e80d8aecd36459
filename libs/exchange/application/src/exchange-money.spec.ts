import type { Exchange } from '@xaalis/exchange-domain';
import { paymentDescription, refundIdOf } from './exchange-money';
import { quoteIdOfToken } from './quotes.service';

const exchange = {
  exchangeId: 'ex_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
  from: 'wave',
  to: 'orange_money',
  sendAmount: 1_000_000,
  fee: 30_000,
  receiveAmount: 970_000,
  phone: '+221771234567',
} as Exchange;

describe('what the customer is told, and the ids fixed ahead', () => {
  it('the checkout says what the phone receives, with which provider, and the fee', () => {
    expect(paymentDescription(exchange)).toBe(
      'Échange : 970\u202f000 FCFA versés sur Orange Money au +221771234567, frais 30\u202f000 FCFA.',
    );
  });

  it("the refund's id is the exchange's body, so a repeated step refunds once", () => {
    expect(refundIdOf(exchange)).toBe('re_01JD8ZP5V6W7X8Y9Z0A1B2C3D4');
  });

  it('a quote token names its quote before its secret; anything else names none', () => {
    expect(quoteIdOfToken('exq_01JD8ZP5V6W7X8Y9Z0A1B2C3D4_s3cr3t')).toBe(
      'exq_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
    );
    expect(quoteIdOfToken('nope')).toBeNull();
    expect(quoteIdOfToken('_x')).toBeNull();
  });
});
