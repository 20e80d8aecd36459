import { allValues, poolFor, poolKey } from './value-pools';

describe('value pools: real values found by name', () => {
  it('names a pool from a parameter, a field or a path segment', () => {
    expect(poolKey('merchantId')).toBe('merchant');
    expect(poolKey('payment')).toBe('payment');
    expect(poolKey('payments')).toBe('payment');
    expect(poolKey('api-keys')).toBe('apikey');
    expect(poolKey('webhook-endpoints')).toBe('webhookendpoint');
    expect(poolKey('webhook-deliveries')).toBe('webhookdelivery');
    expect(poolKey('agent_wallets')).toBe('agentwallet');
    expect(poolKey('cs')).toBe('cs');
    expect(poolKey('address')).toBe('address');
  });

  const pools = { payment: ['pay_1', 'pay_2'], refund: ['re_1'], merchant: ['mer_1'], empty: [] };

  it('finds a bare id by the segment before it, a named parameter by its name', () => {
    expect(poolFor(pools, 'id', 'refunds')).toEqual(['re_1']);
    expect(poolFor(pools, 'id', 'payments')).toEqual(['pay_1', 'pay_2']);
    expect(poolFor(pools, 'merchantId', 'merchants')).toEqual(['mer_1']);
    expect(poolFor(pools, 'payment')).toEqual(['pay_1', 'pay_2']);
    expect(poolFor(pools, 'id', 'invoices')).toEqual([]);
    expect(poolFor(pools, 'name')).toEqual([]);
  });

  it('lists every value of every pool, in order', () => {
    expect(allValues({ a: ['x', 'y'], b: ['x'] })).toEqual(['x', 'y', 'x']);
  });
});
