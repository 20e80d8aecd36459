import { CLIENT_REFERENCE_MAX_LENGTH, MAX_LIST_LIMIT } from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { ListWalletPayoutsQuery } from './list-wallet-payouts.query';

describe('ListWalletPayoutsQuery (spec 4.3, CONTRACT 4)', () => {
  const refused = (query: unknown) => refusedFields(ListWalletPayoutsQuery, query, 'query');

  it('defaults the limit to 20 and converts the query string', async () => {
    expect(await validateDto(ListWalletPayoutsQuery, {}, 'query')).toEqual({
      dto: expect.objectContaining({ limit: 20 }),
    });
    const result = await validateDto(
      ListWalletPayoutsQuery,
      { limit: '100', starting_after: 'po_1', client_reference: 'order-1' },
      'query',
    );
    expect(result).toEqual({
      dto: expect.objectContaining({
        limit: MAX_LIST_LIMIT,
        starting_after: 'po_1',
        client_reference: 'order-1',
      }),
    });
  });

  it.each(['0', '101', 'ten'])('refuses limit %p', async (limit) => {
    expect(await refused({ limit })).toEqual(['limit']);
  });

  it('takes a client reference of 1 to 100 characters', async () => {
    const longest = 'r'.repeat(CLIENT_REFERENCE_MAX_LENGTH);
    expect(await refused({ client_reference: longest })).toEqual([]);
    expect(await refused({ client_reference: '' })).toEqual(['client_reference']);
    expect(await refused({ client_reference: `${longest}r` })).toEqual(['client_reference']);
  });

  it('refuses an unknown filter', async () => {
    expect(await refused({ status: 'pending' })).toEqual(['status']);
  });
});
