import { randomUUID } from 'node:crypto';
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
  type FakeRoute,
  type InjectedStatus,
  type RecordedRequest,
} from './fake-http-server';

/** A QR code (merchant payment request) as the fake keeps it. */
export interface FakeOrangeQrCode {
  qrId: string;
  code: string;
  name: string;
  amount: number;
  reference: string | null;
  metadata: Record<string, string>;
  validity: number;
  callbackSuccessUrl: string | null;
  callbackCancelUrl: string | null;
  expired: boolean;
  createdAt: string;
}

/** A transaction exactly as Sonatel's transaction search and merchant callback carry it. */
export interface FakeOrangeTransaction {
  transactionId: string;
  type: 'MERCHANT_PAYMENT' | 'CASHIN';
  status: string;
  reference: string | null;
  amount: { value: number; unit: 'XOF' };
  metadata: Record<string, string>;
  partner: { id: string; idType: 'CODE'; walletType: 'PRINCIPAL' };
  customer: { id: string; idType: 'MSISDN'; walletType: 'PRINCIPAL' };
  channel: 'MAXIT' | 'API';
  receiveNotification: boolean;
  requestDate: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * How the fake answers the next `POST /api/eWallet/v1/cashins` whose reference is new (scripted
 * with `scriptCashIns`; unscripted ones are `{ kind: 'created' }`):
 * - `created`: the cash-in is made, in `status` (`SUCCESS` by default);
 * - `refused`: a 4xx (400 by default) whose body carries this `code`, nothing sent;
 * - `timeout`: the cash-in is made and the answer withheld until `close()`;
 * - `server_error`: a 500, after making the cash-in (`recorded: true`) or before.
 */
export type FakeCashInAnswer =
  | { kind: 'created'; status?: string }
  | { kind: 'refused'; code: string; httpStatus?: number }
  | { kind: 'timeout' }
  | { kind: 'server_error'; recorded: boolean };

export interface FakeOrangeMoney {
  url: string;
  requests: RecordedRequest[];
  /** By `qrId`. */
  qrCodes: Map<string, FakeOrangeQrCode>;
  transactions: FakeOrangeTransaction[];
  /** The next `times` API requests (not token requests) fail this way. */
  failNext(kind: FailureKind, times?: number): void;
  /** The next `times` token requests fail this way. */
  failNextToken(kind: FailureKind, times?: number): void;
  /** Every token issued so far stops working (a rotation on Sonatel's side): the next call gets 401. */
  revokeTokens(): void;
  /** How many tokens were issued. */
  tokensIssued(): number;
  /**
   * The cash-ins made (`type: 'CASHIN'` among `transactions`), one per reference: a repeated
   * reference with the same body answers the first one again and adds none.
   */
  cashIns(): FakeOrangeTransaction[];
  /** How the next cash-ins answer, in order (see `FakeCashInAnswer`). */
  scriptCashIns(...answers: FakeCashInAnswer[]): void;
  /** Sonatel settles or fails a cash-in later (`SUCCESS`, `FAILED`, …): searches see the new status. */
  changeCashIn(reference: string, status: string): FakeOrangeTransaction;
  /** The QR code by qrId, by reference, or by `metadata.paymentId` (the newest). */
  qrCode(reference: string): FakeOrangeQrCode;
  /** The customer pays: a SUCCESS merchant-payment transaction. */
  pay(reference: string, customerMsisdn?: string): FakeOrangeTransaction;
  /** The customer's attempt fails (FAILED by default; CANCELLED or REJECTED may be given). */
  decline(reference: string, status?: 'FAILED' | 'CANCELLED' | 'REJECTED'): FakeOrangeTransaction;
  /** The customer started paying and Sonatel has not settled it yet. */
  initiate(reference: string): FakeOrangeTransaction;
  /** The QR code's validity ends: it can no longer be paid. */
  expire(reference: string): FakeOrangeQrCode;
  /** The merchant callback for the newest transaction of this QR code, with the registered API key. */
  notification(reference: string): FakeNotification;
  deliver(targetUrl: string, reference: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/**
 * The reply of a request whose answer is withheld: routes answer a `FakeReply`, and the server
 * turns this one into a hold, so a scripted timeout acts like `failNext('timeout')`.
 */
const HELD: FakeReply = { status: 0 };

/**
 * A local Orange Money Senegal (Sonatel API) on 127.0.0.1: OAuth2 client credentials with
 * expiring tokens, the QR code endpoint, the cash-in, the transaction search and status, and the
 * merchant callback. Like Sonatel's gateway it answers 415 to an API request without a JSON
 * content type.
 */
export async function startFakeOrangeMoney(options: {
  clientId: string;
  clientSecret: string;
  merchantCode: string;
  callbackApiKey: string;
  /** Lifetime of the tokens it issues; Sonatel's is about five minutes. */
  tokenTtlSeconds?: number;
}): Promise<FakeOrangeMoney> {
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 299;
  const tokens = new Map<string, number>();
  let issued = 0;
  const qrCodes = new Map<string, FakeOrangeQrCode>();
  const transactions: FakeOrangeTransaction[] = [];
  const qrOf = new Map<FakeOrangeTransaction, string>();
  const failures = new FailureQueue();
  const tokenFailures = new FailureQueue();
  const cashInAnswers: FakeCashInAnswer[] = [];
  /** The body each cash-in was asked with, by reference: a repeat must carry the same one. */
  const cashInBodies = new Map<string, string>();
  let baseUrl = '';

  const findQr = (reference: string): FakeOrangeQrCode => {
    const byId = qrCodes.get(reference);
    if (byId !== undefined) return byId;
    const found = [...qrCodes.values()]
      .filter((qr) => qr.reference === reference || qr.metadata['paymentId'] === reference)
      .pop();
    if (found === undefined) throw new Error(`fake Orange Money: no QR code ${reference}`);
    return found;
  };

  const addTransaction = (
    reference: string,
    status: string,
    msisdn = '771234567',
  ): FakeOrangeTransaction => {
    const qr = findQr(reference);
    if (qr.expired) throw new Error(`fake Orange Money: QR code ${qr.qrId} has expired`);
    const now = new Date();
    const transaction: FakeOrangeTransaction = {
      transactionId: `MP${stamp(now)}.${randomId(6).toUpperCase()}`,
      type: 'MERCHANT_PAYMENT',
      status,
      reference: qr.reference,
      amount: { value: qr.amount, unit: 'XOF' },
      metadata: { ...qr.metadata, idempotencyKey: randomUUID() },
      partner: { id: qr.code, idType: 'CODE', walletType: 'PRINCIPAL' },
      customer: { id: msisdn, idType: 'MSISDN', walletType: 'PRINCIPAL' },
      channel: 'MAXIT',
      receiveNotification: true,
      requestDate: now.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    transactions.push(transaction);
    qrOf.set(transaction, qr.qrId);
    return transaction;
  };

  const issueToken = (request: RecordedRequest): FakeReply => {
    if (!request.headers['content-type']?.includes('application/x-www-form-urlencoded')) {
      return { status: 415, body: problem(415, 'Unsupported Media Type', 'Form body expected.') };
    }
    const form = (request.body ?? {}) as Record<string, string>;
    if (form['grant_type'] !== 'client_credentials') {
      return {
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'client_credentials only' },
      };
    }
    if (form['client_id'] !== options.clientId || form['client_secret'] !== options.clientSecret) {
      return {
        status: 401,
        body: {
          error: 'invalid_client',
          error_description: 'INVALID_CREDENTIALS: Invalid client credentials',
        },
      };
    }
    const token = `om_${randomId(32)}`;
    tokens.set(token, Date.now() + tokenTtlSeconds * 1000);
    issued += 1;
    return {
      status: 200,
      body: {
        access_token: token,
        token_type: 'bearer',
        expires_in: tokenTtlSeconds,
        scope: 'profile email',
      },
    };
  };

  const createQrCode = (body: unknown): FakeReply => {
    const issues: string[] = [];
    const input = isObject(body) ? body : {};
    const amount = isObject(input['amount']) ? input['amount'] : {};
    const value = amount['value'];
    if (amount['unit'] !== 'XOF') issues.push('amount.unit must be XOF');
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      issues.push('amount.value must be a positive integer');
    }
    if (typeof input['name'] !== 'string' || input['name'] === '') issues.push('name is required');
    const validity = input['validity'] ?? 300;
    if (
      typeof validity !== 'number' ||
      !Number.isInteger(validity) ||
      validity < 1 ||
      validity > 86_400
    ) {
      issues.push('validity must be 1 to 86400 seconds');
    }
    const metadata = input['metadata'] ?? {};
    if (
      !isObject(metadata) ||
      Object.keys(metadata).length > 10 ||
      Object.values(metadata).some((v) => typeof v !== 'string')
    ) {
      issues.push('metadata must be at most 10 string values');
    }
    for (const field of ['reference', 'callbackSuccessUrl', 'callbackCancelUrl']) {
      if (input[field] !== undefined && typeof input[field] !== 'string')
        issues.push(`${field} must be a string`);
    }
    if (issues.length > 0)
      return { status: 400, body: problem(400, 'Bad Request', issues.join('; ')) };
    if (String(input['code']) !== options.merchantCode) {
      return { status: 400, body: problem(400, 'Bad Request', 'Unknown merchant code.') };
    }
    const qrId = randomUUID();
    const created = new Date();
    const qr: FakeOrangeQrCode = {
      qrId,
      code: options.merchantCode,
      name: input['name'] as string,
      amount: value as number,
      reference: (input['reference'] as string | undefined) ?? null,
      metadata: metadata as Record<string, string>,
      validity: validity as number,
      callbackSuccessUrl: (input['callbackSuccessUrl'] as string | undefined) ?? null,
      callbackCancelUrl: (input['callbackCancelUrl'] as string | undefined) ?? null,
      expired: false,
      createdAt: created.toISOString(),
    };
    qrCodes.set(qrId, qr);
    const link = `${baseUrl}/mp/${qrId}`;
    return {
      status: 200,
      body: {
        deepLink: link,
        deepLinks: { MAXIT: link, OM: `${baseUrl}/om/${qrId}` },
        qrCode:
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        shortLink: `${baseUrl}/s/${qrId.slice(0, 8)}`,
        qrId,
        validity: qr.validity,
        metadata: qr.metadata,
        validFor: {
          startDateTime: created.toISOString(),
          endDateTime: new Date(created.getTime() + qr.validity * 1000).toISOString(),
        },
      },
    };
  };

  const findCashIn = (reference: string): FakeOrangeTransaction => {
    const found = transactions.find((t) => t.type === 'CASHIN' && t.reference === reference);
    if (found === undefined) throw new Error(`fake Orange Money: no cash-in ${reference}`);
    return found;
  };

  /**
   * Our assumption of Sonatel's behaviour (its API has no idempotency key): one cash-in per
   * `reference`; the same request again answers it, another request with that reference is a 409.
   */
  const cashIn = (request: RecordedRequest): FakeReply => {
    const input = isObject(request.body) ? request.body : {};
    const reference = input['reference'];
    if (typeof reference === 'string' && cashInBodies.has(reference)) {
      return cashInBodies.get(reference) === request.rawBody
        ? { status: 200, body: findCashIn(reference) }
        : {
            status: 409,
            body: {
              ...problem(409, 'Conflict', 'Reference already used by another cash-in.'),
              code: 'duplicate-reference',
            },
          };
    }
    const issues: string[] = [];
    const partner = isObject(input['partner']) ? input['partner'] : {};
    const customer = isObject(input['customer']) ? input['customer'] : {};
    const amount = isObject(input['amount']) ? input['amount'] : {};
    const value = amount['value'];
    if (amount['unit'] !== 'XOF') issues.push('amount.unit must be XOF');
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      issues.push('amount.value must be a positive integer');
    }
    if (partner['idType'] !== 'CODE' || partner['id'] !== options.merchantCode) {
      issues.push('partner must be the merchant code');
    }
    if (
      customer['idType'] !== 'MSISDN' ||
      typeof customer['id'] !== 'string' ||
      !/^7\d{8}$/.test(customer['id'])
    ) {
      issues.push('customer.id must be a 9-digit MSISDN without country code');
    }
    if (typeof reference !== 'string' || reference === '') issues.push('reference is required');
    if (issues.length > 0)
      return { status: 400, body: problem(400, 'Bad Request', issues.join('; ')) };
    const answer = cashInAnswers.shift() ?? { kind: 'created' };
    if (answer.kind === 'refused') {
      return {
        status: answer.httpStatus ?? 400,
        body: {
          ...problem(answer.httpStatus ?? 400, 'Bad Request', answer.code),
          code: answer.code,
        },
      };
    }
    if (answer.kind === 'server_error' && !answer.recorded) return injected(500);
    const now = new Date();
    const transaction: FakeOrangeTransaction = {
      transactionId: `CI${stamp(now)}.${randomId(6).toUpperCase()}`,
      type: 'CASHIN',
      status: answer.kind === 'created' ? (answer.status ?? 'SUCCESS') : 'SUCCESS',
      reference: reference as string,
      amount: { value: value as number, unit: 'XOF' },
      metadata: {},
      partner: { id: options.merchantCode, idType: 'CODE', walletType: 'PRINCIPAL' },
      customer: { id: customer['id'] as string, idType: 'MSISDN', walletType: 'PRINCIPAL' },
      channel: 'API',
      receiveNotification: input['receiveNotification'] === true,
      requestDate: now.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    transactions.push(transaction);
    cashInBodies.set(transaction.reference as string, request.rawBody);
    if (answer.kind === 'timeout') return HELD;
    return answer.kind === 'server_error'
      ? injected(500)
      : { status: 200, body: structuredClone(transaction) };
  };

  /** Cash-in: money from the partner's wallet to a customer's (a payout). */
  const cashInRoutes: FakeRoute[] = [
    { method: 'POST', path: /^\/api\/eWallet\/v1\/cashins$/, reply: cashIn },
  ];

  /** Merchant payments: the QR code and deep links a customer pays. */
  const merchantPaymentRoutes: FakeRoute[] = [
    {
      method: 'POST',
      path: /^\/api\/eWallet\/v4\/qrcode$/,
      reply: (request) => createQrCode(request.body),
    },
  ];

  /** The transaction search and status, which serve every transaction type Sonatel records. */
  const transactionRoutes: FakeRoute[] = [
    {
      method: 'GET',
      path: /^\/api\/eWallet\/v1\/transactions$/,
      reply: (request) => {
        const query = request.url.searchParams;
        const matches = transactions.filter(
          (t) =>
            (query.get('reference') === null || t.reference === query.get('reference')) &&
            (query.get('transactionId') === null ||
              t.transactionId === query.get('transactionId')) &&
            (query.get('status') === null || t.status === query.get('status')) &&
            // Like Sonatel's: a `type` filter finds nothing, whatever the type.
            query.get('type') === null,
        );
        return { status: 200, body: matches };
      },
    },
    {
      method: 'GET',
      path: /^\/api\/eWallet\/v1\/transactions\/([^/]+)\/status$/,
      reply: (_request, [transactionId]) => {
        const found = transactions.find((t) => t.transactionId === transactionId);
        return found === undefined ? notFound() : { status: 200, body: { status: found.status } };
      },
    },
  ];

  const routes = [...merchantPaymentRoutes, ...cashInRoutes, ...transactionRoutes];

  const server = await startFakeHttpServer((request): FakeHandlerResult => {
    if (request.url.pathname === '/oauth/v1/token' && request.method === 'POST') {
      return tokenFailures.answer(injected, () => issueToken(request));
    }
    const bearer = /^Bearer (\S+)$/.exec(request.headers['authorization'] ?? '')?.[1];
    const expiresAt = bearer === undefined ? undefined : tokens.get(bearer);
    if (expiresAt === undefined || expiresAt <= Date.now()) {
      return {
        status: 401,
        body: problem(401, 'Unauthorized', 'Invalid or expired access token.'),
      };
    }
    if (!request.headers['content-type']?.includes('application/json')) {
      return {
        status: 415,
        body: problem(415, 'Unsupported Media Type', 'application/json expected.'),
      };
    }
    const result = failures.answer(injected, () => dispatch(routes, request) ?? notFound());
    return result === HELD ? 'hold' : result;
  });
  baseUrl = server.url;

  const notification = (reference: string): FakeNotification => {
    const qr = findQr(reference);
    const transaction = transactions.filter((t) => qrOf.get(t) === qr.qrId).pop();
    if (transaction === undefined)
      throw new Error(`fake Orange Money: no transaction for ${reference}`);
    return {
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${options.callbackApiKey}`,
        'x-sonatel-idempotency-key': randomUUID(),
      },
      rawBody: JSON.stringify(transaction),
    };
  };

  return {
    url: server.url,
    requests: server.requests,
    qrCodes,
    transactions,
    failNext: (kind, times = 1) => failures.push(kind, times),
    failNextToken: (kind, times = 1) => tokenFailures.push(kind, times),
    revokeTokens: () => tokens.clear(),
    tokensIssued: () => issued,
    cashIns: () => transactions.filter((t) => t.type === 'CASHIN'),
    scriptCashIns: (...answers) => cashInAnswers.push(...answers),
    changeCashIn(reference, status) {
      const transaction = findCashIn(reference);
      transaction.status = status;
      transaction.updatedAt = new Date().toISOString();
      return transaction;
    },
    qrCode: findQr,
    pay: (reference, msisdn) => addTransaction(reference, 'SUCCESS', msisdn),
    decline: (reference, status = 'FAILED') => addTransaction(reference, status),
    initiate: (reference) => addTransaction(reference, 'INITIATED'),
    expire(reference) {
      const qr = findQr(reference);
      qr.expired = true;
      return qr;
    },
    notification,
    deliver: (targetUrl, reference) => postNotification(targetUrl, notification(reference)),
    close: server.close,
  };
}

/** Sonatel's answer to an unknown path or transaction. */
function notFound(): FakeReply {
  return {
    status: 404,
    body: { ...problem(404, 'Entity not found', 'Entity not found'), code: '60' },
  };
}

/** Sonatel's error body (RFC 7807 style, status as a string). */
function problem(status: number, title: string, detail: string): Record<string, string> {
  return {
    type: `/${title.toLowerCase().replace(/\s+/g, '-')}`,
    title,
    status: String(status),
    detail,
  };
}

function injected(kind: InjectedStatus): FakeReply {
  switch (kind) {
    case 500:
      return { status: 500, body: problem(500, 'Internal Server Error', 'Injected failure.') };
    case 429:
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        body: problem(429, 'Too Many Requests', 'Injected failure.'),
      };
    case 400:
      return { status: 400, body: problem(400, 'Bad Request', 'Injected failure.') };
  }
}

/** `<yymmdd>.<hhmm>`, as in Sonatel's transaction ids (`MP…` merchant payments, `CI…` cash-ins). */
function stamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}.${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
