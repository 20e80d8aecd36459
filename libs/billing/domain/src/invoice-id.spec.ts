import { invoiceIdFor, MAX_PERIOD_INDEX, subscriptionIdOfInvoice } from './invoice-id';

const SUB = 'sub_01JF8ZP5V6W7X8Y9Z0A1B2C3D4';

describe('invoice ids', () => {
  it('are the subscription id body followed by the period index in 4 base32 digits', () => {
    expect(invoiceIdFor(SUB, 0)).toBe('in_01JF8ZP5V6W7X8Y9Z0A1B2C3D40000');
    expect(invoiceIdFor(SUB, 1)).toBe('in_01JF8ZP5V6W7X8Y9Z0A1B2C3D40001');
    expect(invoiceIdFor(SUB, 33)).toBe('in_01JF8ZP5V6W7X8Y9Z0A1B2C3D40011');
    expect(invoiceIdFor(SUB, MAX_PERIOD_INDEX)).toBe('in_01JF8ZP5V6W7X8Y9Z0A1B2C3D4ZZZZ');
  });

  it('sort by period within a subscription', () => {
    const ids = [0, 1, 9, 10, 31, 32, 1000].map((index) => invoiceIdFor(SUB, index));
    expect([...ids].sort()).toEqual(ids);
  });

  it('name their subscription', () => {
    expect(subscriptionIdOfInvoice(invoiceIdFor(SUB, 7))).toBe(SUB);
  });

  it.each([
    'in_short',
    'sub_01JF8ZP5V6W7X8Y9Z0A1B2C3D40000',
    'in_01JF8ZP5V6W7X8Y9Z0A1B2C3D4000I',
    'in_01jf8zp5v6w7x8y9z0a1b2c3d40000',
    `in_${'A'.repeat(60)}`,
  ])('names no subscription for %s', (id) => {
    expect(subscriptionIdOfInvoice(id)).toBeUndefined();
  });

  it('refuses what is not a period of a subscription', () => {
    expect(() => invoiceIdFor(SUB, -1)).toThrow(RangeError);
    expect(() => invoiceIdFor(SUB, MAX_PERIOD_INDEX + 1)).toThrow(RangeError);
    expect(() => invoiceIdFor('pay_01JF8ZP5V6W7X8Y9Z0A1B2C3D4', 0)).toThrow(RangeError);
  });
});
