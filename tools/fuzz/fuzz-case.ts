import fc from 'fast-check';
import { PAYMENT_PROVIDERS } from '@xaalis/kernel';
import { fittingBody, oddBody, renderBody, type BodyRecipe } from './body-arbitraries';
import {
  anyCredentialArbitrary,
  credentialHeaders,
  fittingCredentialArbitrary,
  type CredentialChoice,
  type CredentialKind,
  type CredentialValues,
} from './credentials';
import {
  fittingContentType,
  fittingIdempotency,
  oddContentType,
  oddFraming,
  oddHeaders,
  oddIdempotency,
  type Framing,
  type IdempotencyChoice,
} from './header-arbitraries';
import type { FuzzRoute } from './openapi-routes';
import type { WireRequest } from './raw-http';
import type { ValueSources } from './schema-arbitraries';
import { targetArbitrary } from './target-arbitraries';
import type { Pools } from './value-pools';

/**
 * One generated request, concrete where that reads well in a counterexample (the target) and a
 * recipe where it would not (a 1 MiB body) or where the value must be current when sent (a
 * credential a previous case may have signed out).
 */
export interface FuzzCase {
  /** The document route the case was made from, `POST /v1/refunds`. */
  route: string;
  /** The route takes a JSON body (the document says so). */
  declaresBody: boolean;
  method: string;
  target: string;
  targetBytes: 'utf8' | 'latin1';
  credential: CredentialChoice;
  idempotencyKey: IdempotencyChoice;
  contentType: string | null;
  body: BodyRecipe;
  framing: Framing;
  extraHeaders: Array<[string, string]>;
}

/**
 * Pages and endpoints the document leaves out (CONTRACT 6 hosted pages, operations): they take
 * the same odd requests, and the properties know their answers are not JSON API answers.
 */
export const OUTSIDE_DOCUMENT: readonly FuzzRoute[] = [
  ['GET', '/'],
  ['GET', '/health'],
  ['GET', '/metrics'],
  ['GET', '/docs'],
  ['GET', '/docs/openapi.json'],
  ['GET', '/favicon.ico'],
  ['GET', '/checkout/{payment}'],
  ['GET', '/sandbox/{provider}/{payment}'],
  ['POST', '/sandbox/{provider}/{payment}/{action}'],
  ['GET', '/invoices/{invoice}'],
].map(([method, template]) => ({
  method: method!,
  template: template!,
  pathParams: [...template!.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1]!,
    required: true,
    schema:
      match[1] === 'provider'
        ? { type: 'string', enum: [...PAYMENT_PROVIDERS] }
        : match[1] === 'action'
          ? { type: 'string', enum: ['approve', 'decline'] }
          : { type: 'string' },
  })),
  query: [{ name: 'cs', required: true, schema: { type: 'string' } }],
  headers: [],
  bodyRequired: false,
  auth: [],
}));

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const ODD_METHODS = ['TRACE', 'PROPFIND', 'get', 'FOO', 'M-SEARCH', 'PURGE'];

export interface CaseContext {
  pools: Pools;
  sources: ValueSources;
  credentials: readonly CredentialKind[];
}

/** A case for any route of the document (or one outside it, now and then). */
export function fuzzCaseArbitrary(
  routes: FuzzRoute[],
  context: CaseContext,
): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    ...routes.map((route) => ({ weight: 10, arbitrary: routeCaseArbitrary(route, context) })),
    ...OUTSIDE_DOCUMENT.map((route) => ({
      weight: 2,
      arbitrary: routeCaseArbitrary(route, context),
    })),
  );
}

type Parts = Omit<FuzzCase, 'route' | 'declaresBody' | 'target' | 'targetBytes'> & {
  target: { target: string; bytes: 'utf8' | 'latin1' };
};
type PartArbitraries = { [K in keyof Parts]: fc.Arbitrary<Parts[K]> };

/** How often each part is the odd one out; the rest of the case is as the document says. */
const FOCUS_WEIGHTS: Record<keyof Parts, number> = {
  body: 6,
  target: 4,
  credential: 3,
  idempotencyKey: 1,
  contentType: 1,
  framing: 1,
  extraHeaders: 1,
  method: 1,
};

/**
 * Cases for one route. Most are right in every part but one, so each odd value meets the code
 * behind the checks it would otherwise fail first; some are right in every part (reaching the
 * deepest paths and changing state), and a few odd in every part.
 */
export function routeCaseArbitrary(route: FuzzRoute, context: CaseContext): fc.Arbitrary<FuzzCase> {
  const fitting: PartArbitraries = {
    method: fc.constant(route.method),
    target: targetArbitrary(route, context.pools, context.sources, true),
    credential: fittingCredentialArbitrary(route.auth, context.credentials),
    idempotencyKey: fittingIdempotency(route.method),
    body: fittingBody(route, context.sources),
    contentType: fittingContentType(route.body !== undefined),
    framing: fc.constant({ kind: 'length' as const }),
    extraHeaders: fc.constant<Array<[string, string]>>([]),
  };
  const odd: PartArbitraries = {
    method: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...OTHER_METHODS) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
    ),
    target: targetArbitrary(route, context.pools, context.sources, false),
    credential: anyCredentialArbitrary(context.credentials),
    idempotencyKey: oddIdempotency,
    body: oddBody(route, context.sources),
    contentType: oddContentType,
    framing: oddFraming,
    extraHeaders: oddHeaders,
  };
  const focused = (Object.keys(FOCUS_WEIGHTS) as Array<keyof Parts>).map((part) => ({
    weight: FOCUS_WEIGHTS[part],
    arbitrary: fc.record({ ...fitting, [part]: odd[part] } as PartArbitraries),
  }));
  return fc
    .oneof({ weight: 5, arbitrary: fc.record(fitting) }, ...focused, {
      weight: 1,
      arbitrary: fc.record(odd),
    })
    .map(({ target, ...rest }) => ({
      route: `${route.method} ${route.template}`,
      declaresBody: route.body !== undefined,
      target: target.target,
      targetBytes: target.bytes,
      ...rest,
    }));
}

export interface SendContext extends CredentialValues {
  /** A new idempotency key each call. */
  freshKey(): string;
  /** The keys every case may reuse, by slot. */
  sharedKey(slot: number): string;
}

/** The case as bytes on the wire, with the credentials and keys current now. */
export function toWire(fuzzCase: FuzzCase, context: SendContext): WireRequest {
  const headers: Array<[string, string]> = [...credentialHeaders(fuzzCase.credential, context)];
  const key = fuzzCase.idempotencyKey;
  switch (key.kind) {
    case 'absent':
      break;
    case 'fresh':
      headers.push(['idempotency-key', context.freshKey()]);
      break;
    case 'shared':
      headers.push(['idempotency-key', context.sharedKey(key.slot)]);
      break;
    case 'literal':
      headers.push(['idempotency-key', key.value]);
      break;
    case 'twice':
      headers.push(
        ['idempotency-key', context.freshKey()],
        ['idempotency-key', context.freshKey()],
      );
      break;
    default: {
      const unknownKey: never = key;
      return unknownKey;
    }
  }
  if (fuzzCase.contentType !== null) headers.push(['content-type', fuzzCase.contentType]);
  headers.push(['accept', 'application/json'], ...fuzzCase.extraHeaders);
  const body = renderBody(fuzzCase.body);
  const target = Buffer.from(fuzzCase.target, fuzzCase.targetBytes);
  return frame({ method: fuzzCase.method, target, headers }, body, fuzzCase.framing);
}

function frame(request: WireRequest, body: Buffer | undefined, framing: Framing): WireRequest {
  if (body === undefined) return request;
  switch (framing.kind) {
    case 'length':
      return { ...request, body };
    case 'short':
      return { ...request, body, contentLength: Math.max(0, body.length - framing.by) };
    case 'bad_length':
      return {
        ...request,
        headers: [...request.headers, ['content-length', framing.value]],
        body,
        contentLength: null,
      };
    case 'two_lengths':
      return {
        ...request,
        headers: [...request.headers, ['content-length', String(body.length + framing.delta)]],
        body,
      };
    case 'chunked':
      return {
        ...request,
        headers: [...request.headers, ['transfer-encoding', 'chunked']],
        body: chunked(body),
        contentLength: null,
      };
    case 'bad_chunked':
      return {
        ...request,
        headers: [...request.headers, ['transfer-encoding', 'chunked']],
        body: Buffer.concat([
          Buffer.from(`${framing.sizeLine}\r\n`, 'latin1'),
          body,
          Buffer.from('\r\n0\r\n\r\n'),
        ]),
        contentLength: null,
      };
    case 'chunked_and_length':
      return {
        ...request,
        headers: [...request.headers, ['transfer-encoding', 'chunked']],
        body: chunked(body),
      };
    case 'no_length':
      return { ...request, body, contentLength: null };
    default: {
      const unknownFraming: never = framing;
      return unknownFraming;
    }
  }
}

function chunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) {
    const piece = body.subarray(at, at + 64 * 1024);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
