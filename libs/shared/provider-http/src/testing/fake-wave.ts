import { createHmac } from 'node:crypto';
import {
  dispatch,
  FailureQueue,
  postNotification,
  randomId,
  startFakeHttpServer,
  type FailureKind,
  type FakeHandlerResult,
  type FakeNotification,
  type FakeReply,
  type FakeRequest,
  type FakeRoute,
  type InjectedStatus,
  type RecordedRequest,
} from './fake-http-server';

/** A checkout session exactly as Wave's Checkout API returns it. */
export interface FakeWaveSession {
  id: string;
  amount: string;
  currency: 'XOF';
  checkout_status: 'open' | 'complete' | 'expired';
  payment_status: 'processing' | 'cancelled' | 'succeeded';
  client_reference: string | null;
  aggregated_merchant_id: string | null;
  business_name: string;
  success_url: string;
  error_url: string;
  last_payment_error: { code: string; message: string } | null;
  transaction_id: string | null;
  wave_launch_url: string;
  when_created: string;
  when_completed: string | null;
  when_expires: string;
}

/** A payout exactly as Wave's Payout API returns it. */
export interface FakeWavePayout {
  id: string;
  currency: 'XOF';
  receive_amount: string;
  fee: string;
  mobile: string;
  name: string | null;
  client_reference: string | null;
  status: FakeWavePayoutStatus;
  /** Set when the payout failed. */
  payout_error: { error_code: string; error_message: string } | null;
  timestamp: string;
}

export type FakeWavePayoutStatus = 'processing' | 'succeeded' | 'failed' | 'reversed';

/**
 * How the fake answers the next `POST /v1/payout` that is not a replay (scripted with
 * `scriptPayouts`; unscripted ones are `{ kind: 'created' }`):
 * - `created`: the payout is made, in `status` (`succeeded` by default; `failed` with `errorCode`);
 * - `refused`: a 4xx with this error `code` (400 by default), nothing sent;
 * - `timeout`: the payout is made and the answer withheld until `close()`;
 * - `server_error`: a 500, after making the payout (`recorded: true`) or before.
 */
export type FakePayoutAnswer =
  | { kind: 'created'; status?: 'processing' | 'succeeded' | 'failed'; errorCode?: string }
  | { kind: 'refused'; code: string; httpStatus?: number }
  | { kind: 'timeout' }
  | { kind: 'server_error'; recorded: boolean };

export interface FakeWave {
  url: string;
  requests: RecordedRequest[];
  /** By session id (`cos-…`). */
  sessions: Map<string, FakeWaveSession>;
  /** Ids of the sessions refunded through `/refund`. */
  refundedSessions: Set<string>;
  /**
   * Every payout made, which is every transfer Wave carried out or tried: a repeated
   * Idempotency-Key with the same body answers the first payout again and adds none.
   */
  payouts: FakeWavePayout[];
  /** The next `times` requests fail this way (a `'timeout'` is processed, then never answered). */
  /** The next `times` requests (of `method` only, when given) answer `kind`. */
  failNext(kind: FailureKind, times?: number, method?: 'GET' | 'POST'): void;
  /** How the next payout creations answer, in order (see `FakePayoutAnswer`). */
  scriptPayouts(...answers: FakePayoutAnswer[]): void;
  /** The payout by id, or the newest one with this client reference. */
  payout(reference: string): FakeWavePayout;
  /** Wave settles, fails or reverses a payout later: lookups see the new status. */
  changePayout(reference: string, status: FakeWavePayoutStatus, errorCode?: string): FakeWavePayout;
  /** The session by id, or the newest one with this client reference. */
  session(reference: string): FakeWaveSession;
  /** The customer pays: complete, succeeded, with a transaction id. */
  pay(reference: string): FakeWaveSession;
  /** A payment attempt fails; like Wave, the session stays open for another try. */
  decline(reference: string, code?: string): FakeWaveSession;
  expire(reference: string): FakeWaveSession;
  /**
   * The webhook Wave would send for this session, signed with the webhook secret at `at` (now by
   * default): `checkout.session.completed` once paid, `checkout.session.payment_failed` after a
   * decline, or the `type` given.
   */
  notification(reference: string, options?: { type?: string; at?: Date }): FakeNotification;
  deliver(
    targetUrl: string,
    reference: string,
    options?: { type?: string; at?: Date },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const SESSION_LIFETIME_MS = 30 * 60_000;

/**
 * The reply of a request whose answer is withheld: routes answer a `FakeReply`, and the server
 * turns this one into a hold, so a scripted timeout acts like `failNext('timeout')`.
 */
const HELD: FakeReply = { status: 0 };

/** A local Wave (Checkout and Payout APIs) on 127.0.0.1, checking the key and bodies like Wave. */
export async function startFakeWave(options: {
  apiKey: string;
  webhookSecret: string;
}): Promise<FakeWave> {
  const sessions = new Map<string, FakeWaveSession>();
  const refundedSessions = new Set<string>();
  const payouts: FakeWavePayout[] = [];
  const idempotent = new Map<string, { body: string; reply: FakeReply }>();
  const failures = new FailureQueue();
  const payoutAnswers: FakePayoutAnswer[] = [];
  let baseUrl = '';

  const findSession = (reference: string): FakeWaveSession => {
    const byId = sessions.get(reference);
    if (byId !== undefined) return byId;
    const byClient = [...sessions.values()].filter((s) => s.client_reference === reference).pop();
    if (byClient === undefined) throw new Error(`fake Wave: no session ${reference}`);
    return byClient;
  };

  const findPayout = (reference: string): FakeWavePayout => {
    const found = payouts
      .filter((p) => p.id === reference || p.client_reference === reference)
      .pop();
    if (found === undefined) throw new Error(`fake Wave: no payout ${reference}`);
    return found;
  };

  const createSession = (body: Record<string, unknown>): FakeReply => {
    const issues: string[] = [];
    const amount = body['amount'];
    if (typeof amount !== 'string' || !/^[1-9]\d*$/.test(amount)) {
      issues.push('amount: must be a string holding a positive whole number of XOF');
    }
    if (body['currency'] !== 'XOF') issues.push('currency: must be XOF');
    for (const field of ['success_url', 'error_url']) {
      if (!isHttpUrl(body[field])) issues.push(`${field}: must be an http(s) URL`);
    }
    for (const field of ['client_reference', 'aggregated_merchant_id']) {
      const value = body[field];
      if (
        value !== undefined &&
        (typeof value !== 'string' || value === '' || value.length > 255)
      ) {
        issues.push(`${field}: must be a string of 1 to 255 characters`);
      }
    }
    if (issues.length > 0) return validationError(issues);
    const id = `cos-${randomId()}`;
    const created = new Date();
    const session: FakeWaveSession = {
      id,
      amount: amount as string,
      currency: 'XOF',
      checkout_status: 'open',
      payment_status: 'processing',
      client_reference: (body['client_reference'] as string | undefined) ?? null,
      aggregated_merchant_id: (body['aggregated_merchant_id'] as string | undefined) ?? null,
      business_name: 'Fake Wave Business',
      success_url: body['success_url'] as string,
      error_url: body['error_url'] as string,
      last_payment_error: null,
      transaction_id: null,
      wave_launch_url: `${baseUrl}/c/${id}`,
      when_created: created.toISOString(),
      when_completed: null,
      when_expires: new Date(created.getTime() + SESSION_LIFETIME_MS).toISOString(),
    };
    sessions.set(id, session);
    return { status: 200, body: session };
  };

  const createPayout = (request: FakeRequest, body: Record<string, unknown>): FakeReply => {
    const issues: string[] = [];
    const amount = body['receive_amount'];
    if (typeof amount !== 'string' || !/^[1-9]\d*$/.test(amount)) {
      issues.push('receive_amount: must be a string holding a positive whole number of XOF');
    }
    if (body['currency'] !== 'XOF') issues.push('currency: must be XOF');
    if (typeof body['mobile'] !== 'string' || !/^\+\d{9,15}$/.test(body['mobile'])) {
      issues.push('mobile: must be an E.164 phone number');
    }
    if (issues.length > 0) return validationError(issues);
    const answer = payoutAnswers.shift() ?? { kind: 'created' };
    if (answer.kind === 'refused') {
      return {
        status: answer.httpStatus ?? 400,
        body: { code: answer.code, message: 'The payout was refused.' },
      };
    }
    if (answer.kind === 'server_error' && !answer.recorded) return injected(500);
    const status = answer.kind === 'created' ? (answer.status ?? 'succeeded') : 'succeeded';
    const errorCode = answer.kind === 'created' ? answer.errorCode : undefined;
    const payout: FakeWavePayout = {
      id: `pt-${randomId()}`,
      currency: 'XOF',
      receive_amount: amount as string,
      fee: '0',
      mobile: body['mobile'] as string,
      name: typeof body['name'] === 'string' ? body['name'] : null,
      client_reference:
        typeof body['client_reference'] === 'string' ? body['client_reference'] : null,
      status,
      payout_error: status === 'failed' ? payoutError(errorCode ?? 'payout-failed') : null,
      timestamp: new Date().toISOString(),
    };
    payouts.push(payout);
    // The first answer as it was then: a replay says what Wave said, not what became of it.
    const reply = { status: 200, body: structuredClone(payout) };
    remember(request, reply);
    if (answer.kind === 'timeout') return HELD;
    return answer.kind === 'server_error' ? injected(500) : reply;
  };

  /** Wave replays the first answer for a repeated Idempotency-Key with the same body. */
  const replay = (request: RecordedRequest): FakeReply | null => {
    const key = request.headers['idempotency-key'];
    const previous = key === undefined ? undefined : idempotent.get(`${request.path} ${key}`);
    if (previous === undefined) return null;
    return previous.body === request.rawBody
      ? previous.reply
      : {
          status: 409,
          body: {
            code: 'idempotency-mismatch',
            message: 'Idempotency-Key reused with another body.',
          },
        };
  };

  const remember = (request: RecordedRequest, reply: FakeReply): void => {
    const key = request.headers['idempotency-key'];
    if (key !== undefined)
      idempotent.set(`${request.path} ${key}`, { body: request.rawBody, reply });
  };

  const once = (request: RecordedRequest, create: () => FakeReply): FakeReply => {
    const replayed = replay(request);
    if (replayed !== null) return replayed;
    const reply = create();
    if (reply.status < 300) remember(request, reply);
    return reply;
  };

  /** The body of a POST: Wave refuses one that is not a JSON object before anything else. */
  const withJsonBody = (
    request: FakeRequest,
    handle: (body: Record<string, unknown>) => FakeReply,
  ): FakeReply =>
    request.headers['content-type']?.includes('application/json') && isObject(request.body)
      ? handle(request.body)
      : validationError(['body: must be a JSON object']);

  const withSession = (id: string, handle: (session: FakeWaveSession) => FakeReply): FakeReply => {
    const session = sessions.get(id);
    return session === undefined
      ? { status: 404, body: { code: 'checkout-session-not-found', message: 'No such session.' } }
      : handle(session);
  };

  /** Wave's Checkout API. */
  const checkoutRoutes: FakeRoute[] = [
    {
      method: 'POST',
      path: /^\/v1\/checkout\/sessions$/,
      reply: (request) => withJsonBody(request, (body) => once(request, () => createSession(body))),
    },
    {
      method: 'GET',
      path: /^\/v1\/checkout\/sessions\/search$/,
      reply: (request) => {
        const reference = request.url.searchParams.get('client_reference');
        if (reference === null) return validationError(['client_reference: required']);
        return {
          status: 200,
          body: { result: [...sessions.values()].filter((s) => s.client_reference === reference) },
        };
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/checkout\/sessions\/([^/]+)$/,
      reply: (_request, [id]) => withSession(id, (session) => ({ status: 200, body: session })),
    },
    {
      method: 'POST',
      path: /^\/v1\/checkout\/sessions\/([^/]+)\/refund$/,
      reply: (_request, [id]) =>
        withSession(id, (session) => {
          if (session.payment_status !== 'succeeded' || refundedSessions.has(session.id)) {
            return {
              status: 400,
              body: { code: 'checkout-refund-failed', message: 'Not refundable.' },
            };
          }
          refundedSessions.add(session.id);
          return { status: 200 };
        }),
    },
    {
      method: 'POST',
      path: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      reply: (_request, [id]) =>
        withSession(id, (session) => {
          if (session.checkout_status === 'complete') {
            return {
              status: 400,
              body: { code: 'checkout-session-complete', message: 'Already paid.' },
            };
          }
          expireSession(session);
          return { status: 200 };
        }),
    },
  ];

  /** Wave's Payout API: money sent to a phone, under the same key; an Idempotency-Key is required. */
  const payoutRoutes: FakeRoute[] = [
    {
      method: 'POST',
      path: /^\/v1\/payout$/,
      reply: (request) =>
        withJsonBody(request, (body) =>
          request.headers['idempotency-key'] === undefined
            ? {
                status: 400,
                body: { code: 'missing-idempotency-key', message: 'Idempotency-Key is required.' },
              }
            : (replay(request) ?? createPayout(request, body)),
        ),
    },
    {
      method: 'GET',
      path: /^\/v1\/payouts\/search$/,
      reply: (request) => {
        const reference = request.url.searchParams.get('client_reference');
        if (reference === null) return validationError(['client_reference: required']);
        return {
          status: 200,
          body: { result: payouts.filter((p) => p.client_reference === reference) },
        };
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/payout\/([^/]+)$/,
      reply: (_request, [id]) => {
        const payout = payouts.find((p) => p.id === id);
        return payout === undefined
          ? { status: 404, body: { code: 'payout-not-found', message: 'No such payout.' } }
          : { status: 200, body: payout };
      },
    },
  ];

  const routes = [...checkoutRoutes, ...payoutRoutes];

  const server = await startFakeHttpServer((request): FakeHandlerResult => {
    if (request.headers['authorization'] !== `Bearer ${options.apiKey}`) {
      return {
        status: 401,
        body:
          request.headers['authorization'] === undefined
            ? { code: 'missing-auth-header', message: 'Authorization header is required.' }
            : { code: 'invalid-auth', message: 'Invalid API key.' },
      };
    }
    const result = failures.answer(
      injected,
      () =>
        dispatch(routes, request) ?? {
          status: 404,
          body: {
            code: 'not-found',
            message: `No route ${request.method} ${request.url.pathname}.`,
          },
        },
      request.method,
    );
    return result === HELD ? 'hold' : result;
  });
  baseUrl = server.url;

  const notification = (
    reference: string,
    opts: { type?: string; at?: Date } = {},
  ): FakeNotification => {
    const session = findSession(reference);
    const type =
      opts.type ??
      (session.payment_status === 'succeeded'
        ? 'checkout.session.completed'
        : session.last_payment_error !== null
          ? 'checkout.session.payment_failed'
          : null);
    if (type === null) throw new Error(`fake Wave: nothing to notify for ${session.id}`);
    const rawBody = JSON.stringify({ id: `EV_${randomId()}`, type, data: session });
    const timestamp = Math.floor((opts.at ?? new Date()).getTime() / 1000);
    const signature = createHmac('sha256', options.webhookSecret)
      .update(`${timestamp}${rawBody}`)
      .digest('hex');
    return {
      headers: {
        'content-type': 'application/json',
        'wave-signature': `t=${timestamp},v1=${signature}`,
      },
      rawBody,
    };
  };

  return {
    url: server.url,
    requests: server.requests,
    sessions,
    refundedSessions,
    payouts,
    failNext: (kind, times = 1, method) => failures.push(kind, times, method),
    scriptPayouts: (...answers) => payoutAnswers.push(...answers),
    payout: findPayout,
    changePayout(reference, status, errorCode) {
      const payout = findPayout(reference);
      payout.status = status;
      payout.payout_error =
        status === 'failed' || status === 'reversed'
          ? payoutError(errorCode ?? `payout-${status}`)
          : null;
      return payout;
    },
    session: findSession,
    pay(reference) {
      const session = findSession(reference);
      if (session.checkout_status !== 'open')
        throw new Error(`fake Wave: ${session.id} is ${session.checkout_status}`);
      session.checkout_status = 'complete';
      session.payment_status = 'succeeded';
      session.last_payment_error = null;
      session.transaction_id = `T_${randomId(16).toUpperCase()}`;
      session.when_completed = new Date().toISOString();
      return session;
    },
    decline(reference, code = 'insufficient-funds') {
      const session = findSession(reference);
      session.last_payment_error = { code, message: 'The payment attempt failed.' };
      return session;
    },
    expire(reference) {
      const session = findSession(reference);
      expireSession(session);
      return session;
    },
    notification,
    deliver: (targetUrl, reference, opts) =>
      postNotification(targetUrl, notification(reference, opts)),
    close: server.close,
  };
}

function expireSession(session: FakeWaveSession): void {
  session.checkout_status = 'expired';
  session.payment_status = 'cancelled';
}

function payoutError(code: string): FakeWavePayout['payout_error'] {
  return { error_code: code, error_message: 'The payout did not go through.' };
}

function validationError(issues: string[]): FakeReply {
  return {
    status: 400,
    body: {
      code: 'request-validation-error',
      message: 'Request validation error.',
      details: issues.map((issue) => ({ loc: [issue.split(':')[0]], msg: issue })),
    },
  };
}

function injected(kind: InjectedStatus): FakeReply {
  switch (kind) {
    case 500:
      return { status: 500, body: { code: 'internal-server-error', message: 'Injected failure.' } };
    case 429:
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { code: 'rate-limit-exceeded', message: 'Injected failure.' },
      };
    case 400:
      return validationError(['injected: failure']);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
