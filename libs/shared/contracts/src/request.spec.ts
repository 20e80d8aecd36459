import { NEVER, of, throwError, type Observable } from 'rxjs';
import { DomainError } from '@xaalis/kernel';
import { reply, type ReplyEnvelope } from './reply-envelope';
import { request, type BusRequester } from './request';
import { PAYOUTS_BALANCE_GET } from './requests';

const MERCHANT = 'mer_01JF0000000000000000000001';

/** A client whose every send answers `answer`; remembers what it sent. */
function clientAnswering(answer: () => Observable<unknown>) {
  const sent: Array<{ pattern: string; data: unknown }> = [];
  const client: BusRequester = {
    send<Result, Input>(pattern: string, data: Input): Observable<Result> {
      sent.push({ pattern, data });
      return answer() as Observable<Result>;
    },
  };
  return { client, sent };
}

describe('reply', () => {
  it('wraps the value of valid work', async () => {
    const envelope = await reply(
      PAYOUTS_BALANCE_GET,
      { merchant_id: MERCHANT, mode: 'live' },
      (req) => ({
        available: req.mode === 'live' ? 10 : 0,
        pending: 0,
      }),
    );

    expect(envelope).toEqual({ ok: true, value: { available: 10, pending: 0 } });
  });

  it('wraps a DomainError with its code and details', async () => {
    const envelope = await reply(
      PAYOUTS_BALANCE_GET,
      { merchant_id: MERCHANT, mode: 'test' },
      () => {
        throw new DomainError('insufficient_funds', 'Not enough.', { available: 3 });
      },
    );

    expect(envelope).toEqual({
      ok: false,
      error: { code: 'insufficient_funds', message: 'Not enough.', details: { available: 3 } },
    });
  });

  it('refuses an invalid payload before the work runs', async () => {
    const work = jest.fn();

    const envelope = await reply(PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT }, work);

    expect(work).not.toHaveBeenCalled();
    expect(envelope).toEqual({
      ok: false,
      error: {
        code: 'validation_error',
        message: 'BalanceRequest is invalid.',
        details: [{ field: 'mode', issue: 'mode must be one of the following values: test, live' }],
      },
    });
  });

  it('answers unavailable, with retry_after, when the work could not reach its database', async () => {
    const envelope = await reply(
      PAYOUTS_BALANCE_GET,
      { merchant_id: MERCHANT, mode: 'test' },
      () => {
        throw Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
      },
    );

    expect(envelope).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: 'The service cannot reach its database right now. Retry shortly.',
        details: { retry_after: 1 },
      },
    });
  });

  it('rethrows anything else, for Nest to log', async () => {
    await expect(
      reply(PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'test' }, () => {
        throw new TypeError('bug');
      }),
    ).rejects.toThrow('bug');
  });
});

describe('request', () => {
  const payload = { merchant_id: MERCHANT, mode: 'test' as const };

  it('sends the payload on the pattern and returns the validated reply', async () => {
    const { client, sent } = clientAnswering(() =>
      of({ ok: true, value: { available: 7, pending: 2 } }),
    );

    await expect(request(client, PAYOUTS_BALANCE_GET, payload)).resolves.toEqual({
      available: 7,
      pending: 2,
    });
    expect(sent).toEqual([{ pattern: 'payouts.balance.get', data: payload }]);
  });

  it('rethrows the owner’s refusal as a DomainError with the same code', async () => {
    const refusal: ReplyEnvelope<never> = {
      ok: false,
      error: { code: 'not_found', message: 'No such merchant.', details: { id: MERCHANT } },
    };
    const { client } = clientAnswering(() => of(refusal));

    const error = await request(client, PAYOUTS_BALANCE_GET, payload).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'not_found',
      message: 'No such merchant.',
      details: { id: MERCHANT },
    });
  });

  it('is unavailable when no answer comes in time', async () => {
    const { client } = clientAnswering(() => NEVER);

    await expect(
      request(client, PAYOUTS_BALANCE_GET, payload, { timeoutMs: 20 }),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The service did not answer in time. Try again later.',
    });
  });

  it('is unavailable when the transport fails', async () => {
    const { client } = clientAnswering(() =>
      throwError(() => 'There is no matching message handler defined in the remote service.'),
    );

    await expect(request(client, PAYOUTS_BALANCE_GET, payload)).rejects.toMatchObject({
      code: 'unavailable',
    });
  });

  it('is internal_error when the owner crashed or broke the reply contract', async () => {
    const crashed = clientAnswering(() =>
      throwError(() => ({ status: 'error', message: 'Internal server error' })),
    );
    const badValue = clientAnswering(() => of({ ok: true, value: { available: '7' } }));
    const badCode = clientAnswering(() =>
      of({ ok: false, error: { code: 'teapot', message: 'x' } }),
    );
    const notAnEnvelope = clientAnswering(() => of({ available: 7, pending: 2 }));

    for (const { client } of [crashed, badValue, badCode, notAnEnvelope]) {
      await expect(request(client, PAYOUTS_BALANCE_GET, payload)).rejects.toMatchObject({
        code: 'internal_error',
        message: 'Internal error.',
      });
    }
  });
});

describe('request through a client that answers promises (ask)', () => {
  const payload = { merchant_id: MERCHANT, mode: 'test' as const };

  /** A client whose ask answers `answer`; its send must never be used. */
  function clientAsking(answer: () => Promise<unknown>) {
    const asked: Array<{ pattern: string; data: unknown }> = [];
    const client: BusRequester = {
      send() {
        throw new Error('send used although ask is there');
      },
      ask(pattern, data) {
        asked.push({ pattern, data });
        return answer();
      },
    };
    return { client, asked };
  }

  it('asks on the pattern and returns the validated reply', async () => {
    const { client, asked } = clientAsking(async () => ({
      ok: true,
      value: { available: 7, pending: 2 },
    }));

    await expect(request(client, PAYOUTS_BALANCE_GET, payload)).resolves.toEqual({
      available: 7,
      pending: 2,
    });
    expect(asked).toEqual([{ pattern: 'payouts.balance.get', data: payload }]);
  });

  it('rethrows the owner’s refusal with its code', async () => {
    const { client } = clientAsking(async () => ({
      ok: false,
      error: { code: 'insufficient_funds', message: 'Not enough.', details: { available: 3 } },
    }));

    await expect(request(client, PAYOUTS_BALANCE_GET, payload)).rejects.toMatchObject({
      code: 'insufficient_funds',
      details: { available: 3 },
    });
  });

  it('is unavailable when no answer comes in time, and leaves no timer behind either way', async () => {
    jest.useFakeTimers();
    try {
      const { client } = clientAsking(() => new Promise(() => undefined));
      const failure = request(client, PAYOUTS_BALANCE_GET, payload, { timeoutMs: 20 });
      const settled = expect(failure).rejects.toMatchObject({
        code: 'unavailable',
        message: 'The service did not answer in time. Try again later.',
      });
      jest.advanceTimersByTime(20);
      await settled;

      const answered = clientAsking(async () => ({
        ok: true,
        value: { available: 1, pending: 0 },
      }));
      await request(answered.client, PAYOUTS_BALANCE_GET, payload, { timeoutMs: 20 });
      expect(jest.getTimerCount()).toBe(0);

      const refused = clientAsking(() => Promise.reject('nobody'));
      await expect(
        request(refused.client, PAYOUTS_BALANCE_GET, payload, { timeoutMs: 20 }),
      ).rejects.toMatchObject({ code: 'unavailable' });
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('is unavailable when nobody answers the pattern, internal_error when the owner crashed', async () => {
    const nobody = clientAsking(() =>
      Promise.reject('There is no matching message handler defined in the remote service.'),
    );
    const crashed = clientAsking(() =>
      Promise.reject({ status: 'error', message: 'Internal server error' }),
    );

    await expect(request(nobody.client, PAYOUTS_BALANCE_GET, payload)).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(request(crashed.client, PAYOUTS_BALANCE_GET, payload)).rejects.toMatchObject({
      code: 'internal_error',
    });
  });
});
