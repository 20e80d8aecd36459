import { MAX_LIST_LIMIT } from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { ListInvoicesQuery } from './list-invoices.query';
import { ListSubscriptionsQuery } from './list-subscriptions.query';

describe('ListSubscriptionsQuery (CONTRACT 4 and 5)', () => {
  const refused = (query: unknown) => refusedFields(ListSubscriptionsQuery, query, 'query');

  it('defaults the limit to 20 and converts the query string', async () => {
    expect(await validateDto(ListSubscriptionsQuery, {}, 'query')).toEqual({
      dto: expect.objectContaining({ limit: 20 }),
    });
    expect(
      await validateDto(
        ListSubscriptionsQuery,
        { limit: '100', starting_after: 'sub_1', status: 'past_due' },
        'query',
      ),
    ).toEqual({
      dto: expect.objectContaining({
        limit: MAX_LIST_LIMIT,
        starting_after: 'sub_1',
        status: 'past_due',
      }),
    });
  });

  it.each(['0', '101', 'ten'])('refuses limit %p', async (limit) => {
    expect(await refused({ limit })).toEqual(['limit']);
  });

  it.each(['active', 'past_due', 'canceled', 'completed'])('takes status %p', async (status) => {
    expect(await refused({ status })).toEqual([]);
  });

  it.each(['open', 'cancelled', ''])('refuses status %p', async (status) => {
    expect(await refused({ status })).toEqual(['status']);
  });

  it('refuses an unknown filter', async () => {
    expect(await refused({ subscription: 'sub_1' })).toEqual(['subscription']);
  });
});

describe('ListInvoicesQuery (spec 4.2, CONTRACT 4)', () => {
  const refused = (query: unknown) => refusedFields(ListInvoicesQuery, query, 'query');

  it('defaults the limit to 20 and takes both filters', async () => {
    expect(await validateDto(ListInvoicesQuery, {}, 'query')).toEqual({
      dto: expect.objectContaining({ limit: 20 }),
    });
    expect(
      await validateDto(
        ListInvoicesQuery,
        { limit: '5', starting_after: 'in_1', subscription: 'sub_1', status: 'open' },
        'query',
      ),
    ).toEqual({
      dto: expect.objectContaining({
        limit: 5,
        starting_after: 'in_1',
        subscription: 'sub_1',
        status: 'open',
      }),
    });
  });

  it.each(['open', 'paid', 'void', 'uncollectible'])('takes status %p', async (status) => {
    expect(await refused({ status })).toEqual([]);
  });

  it.each(['active', 'overdue', ''])('refuses status %p', async (status) => {
    expect(await refused({ status })).toEqual(['status']);
  });

  it('takes a subscription id of 1 to 255 characters', async () => {
    expect(await refused({ subscription: 's'.repeat(255) })).toEqual([]);
    expect(await refused({ subscription: '' })).toEqual(['subscription']);
  });

  it('refuses an unknown filter', async () => {
    expect(await refused({ customer: '+221771234567' })).toEqual(['customer']);
  });
});
