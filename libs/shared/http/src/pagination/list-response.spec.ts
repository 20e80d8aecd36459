import { DomainError } from '@xaalis/kernel';
import { createValidationPipe } from '../validation/validation-pipe';
import { ListQueryDto } from './list-query.dto';
import { requireCursor, toListResponse, unknownCursor } from './list-response';

describe('toListResponse', () => {
  it('drops the extra row fetched to learn that there is more', () => {
    expect(toListResponse(['c', 'b', 'a'], 2)).toEqual({
      object: 'list',
      data: ['c', 'b'],
      has_more: true,
    });
  });

  it('says there is no more when the page is not full', () => {
    expect(toListResponse(['b', 'a'], 2)).toEqual({
      object: 'list',
      data: ['b', 'a'],
      has_more: false,
    });
    expect(toListResponse([], 20)).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('maps rows to API objects', () => {
    expect(toListResponse([{ id: 1 }, { id: 2 }], 1, (row) => `obj_${row.id}`)).toEqual({
      object: 'list',
      data: ['obj_1'],
      has_more: true,
    });
  });
});

describe('cursor helpers', () => {
  it('turns an unknown starting_after into not_found', () => {
    const error = unknownCursor('pay_gone');
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('not_found');
    expect(error.details).toEqual({ param: 'starting_after' });
    expect(() => requireCursor(undefined, 'pay_gone')).toThrow(
      'No such object: pay_gone (starting_after).',
    );
    expect(() => requireCursor(null, 'pay_gone')).toThrow(DomainError);
    expect(requireCursor(0, 'pay_first')).toBe(0);
  });
});

describe('ListQueryDto', () => {
  const pipe = createValidationPipe();
  const asQuery = { type: 'query' as const, metatype: ListQueryDto, data: undefined };

  it('defaults limit to 20 and converts the query string', async () => {
    expect(await pipe.transform({}, asQuery)).toEqual(
      Object.assign(new ListQueryDto(), { limit: 20 }),
    );
    expect(await pipe.transform({ limit: '5', starting_after: 'pay_1' }, asQuery)).toEqual(
      Object.assign(new ListQueryDto(), { limit: 5, starting_after: 'pay_1' }),
    );
  });

  it.each([
    ['0', 'must be at least 1'],
    ['-3', 'must be at least 1'],
    ['101', 'must be at most 100'],
    ['abc', 'must be an integer'],
    ['2.5', 'must be an integer'],
    ['', 'must be an integer'],
    [' 5', 'must be an integer'],
    ['1e2', 'must be an integer'],
    ['0x10', 'must be an integer'],
  ])('refuses limit=%j: %s', async (limit, issue) => {
    await expect(pipe.transform({ limit }, asQuery)).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'limit', issue }],
    });
  });

  it('refuses unknown query parameters', async () => {
    await expect(pipe.transform({ limt: '5' }, asQuery)).rejects.toMatchObject({
      details: [{ field: 'limt', issue: 'is not an allowed field' }],
    });
  });
});
