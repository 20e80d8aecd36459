import { withDatabase } from './throwaway-database';

describe('withDatabase', () => {
  it('swaps the database of a URL and keeps the rest', () => {
    expect(withDatabase('postgres://u:p@h:5433/test?sslmode=disable', 'other')).toBe(
      'postgres://u:p@h:5433/other?sslmode=disable',
    );
  });
});
