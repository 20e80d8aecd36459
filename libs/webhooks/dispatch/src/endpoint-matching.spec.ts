import { endpointWants } from './endpoint-matching';

describe('endpointWants', () => {
  it('takes the types an endpoint subscribed to, and every type with *', () => {
    expect(endpointWants(['payment.succeeded'], 'payment.succeeded')).toBe(true);
    expect(endpointWants(['payment.failed', 'payment.succeeded'], 'payment.succeeded')).toBe(true);
    expect(endpointWants(['*'], 'subscription.completed')).toBe(true);
  });

  it('leaves out the others, with no prefix matching', () => {
    expect(endpointWants(['payment.failed'], 'payment.succeeded')).toBe(false);
    expect(endpointWants(['payment'], 'payment.succeeded')).toBe(false);
    expect(endpointWants(['payment.*'], 'payment.succeeded')).toBe(false);
    expect(endpointWants([], 'payment.succeeded')).toBe(false);
  });
});
