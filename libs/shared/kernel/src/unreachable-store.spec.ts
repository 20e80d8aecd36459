import { DomainError } from './errors';
import { unreachableStoreError } from './unreachable-store';

/** An error as the clients raise it: a message and a code on an Error. */
const raised = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe('unreachableStoreError', () => {
  it.each([
    [
      'node-postgres connecting to a closed port',
      raised('connect ECONNREFUSED', { code: 'ECONNREFUSED' }),
    ],
    ['Postgres shutting down', raised('the database system is shutting down', { code: '57P03' })],
    [
      'Postgres terminating the connection',
      raised('terminating connection due to administrator command', { code: '57P01' }),
    ],
    [
      'Postgres out of connection slots',
      raised('sorry, too many clients already', { code: '53300' }),
    ],
    ['a connection exception (SQLSTATE class 08)', raised('connection failure', { code: '08006' })],
    ['node-postgres losing its connection', raised('Connection terminated unexpectedly')],
    ['pg-pool giving up on a connection', raised('timeout exceeded when trying to connect')],
    [
      "Prisma's known request error",
      raised("Can't reach database server at 127.0.0.1:39669", {
        code: 'P1001',
        meta: { modelName: 'ApiKey' },
      }),
    ],
    [
      'a driver error wrapped as a cause',
      raised('Invalid `prisma.apiKey.findUnique()` invocation', {
        cause: raised('connect ECONNREFUSED', { code: 'ECONNREFUSED' }),
      }),
    ],
  ])('is 503 unavailable with Retry-After for %s', (_, error) => {
    const unavailable = unreachableStoreError(error);

    expect(unavailable).toBeInstanceOf(DomainError);
    expect(unavailable!.toJSON()).toEqual({
      code: 'unavailable',
      message: 'The service cannot reach its database right now. Retry shortly.',
      details: { retry_after: 1 },
    });
  });

  it.each([
    ['a unique violation', raised('duplicate key value', { code: '23505' })],
    ['a serialization failure', raised('could not serialize access', { code: '40001' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only mentions a connection', raised('Connection string is invalid')],
    ['a DomainError', new DomainError('not_found', 'No such payment.')],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is undefined for %s', (_, error) => {
    expect(unreachableStoreError(error)).toBeUndefined();
  });

  it('looks through a few causes, not an endless chain', () => {
    const wrapped = (depth: number): unknown =>
      depth === 0
        ? raised('connect ECONNREFUSED', { code: 'ECONNREFUSED' })
        : raised('wrapped', { cause: wrapped(depth - 1) });
    const loop = raised('loop');
    (loop as Error & { cause?: unknown }).cause = loop;

    expect(unreachableStoreError(wrapped(4))).toBeDefined();
    expect(unreachableStoreError(wrapped(5))).toBeUndefined();
    expect(unreachableStoreError(loop)).toBeUndefined();
  });
});
