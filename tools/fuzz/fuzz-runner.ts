import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { renderBody } from './body-arbitraries';
import { fuzzCaseArbitrary, toWire, type FuzzCase, type SendContext } from './fuzz-case';
import type { FuzzWorld } from './fuzz-world';
import type { TrafficChecker } from '../openapi/traffic';
import type { FuzzRoute } from './openapi-routes';
import { badBodyReason, violationsOf, type Violation } from './properties';
import { encodeRequest, sendWire, type WireOutcome, type WireRequest } from './raw-http';
import { poolFor } from './value-pools';

export interface FuzzOptions {
  /** Cases to generate in all (shrinking runs more, and does not count). */
  runs: number;
  seed: number;
  /** With a failure's seed: replays that one case (and shrinks it again). */
  path?: string;
  /** Stop after this many distinct failures. */
  maxFailures?: number;
  /** Shrinking one failure stops after this long; the smallest case so far is reported. */
  shrinkMs?: number;
  /** Stop generating after this long. */
  timeLimitMs?: number;
  /** Credentials a case may have worn out are checked every this many cases. */
  renewEvery?: number;
  onProgress?: (stats: FuzzStats) => void;
  /** Also holds every answer to the OpenAPI document: its status and body documented. */
  document?: TrafficChecker;
}

export interface FuzzStats {
  cases: number;
  /** By status, `none` for a request left without an answer. */
  byStatus: Record<string, number>;
  serverErrors: number;
  /** Per document route: cases, milliseconds spent, and answers by class (2xx, 4xx…). */
  byRoute: Record<string, Record<string, number>>;
  /** Every kind of violation seen while generating, with how many cases showed it. */
  bySignature: Record<string, number>;
  startedAt: number;
  seconds: number;
}

export interface FuzzFailure {
  /** What kind of failure: the harness reports each once, and shrinks it. */
  signature: string;
  violations: Violation[];
  /** `npm run fuzz -- --seed <seed> --path <path>` replays it. */
  seed: number;
  path: string;
  shrinks: number;
  counterexample: FuzzCase;
  request: string;
  response: string;
}

export interface FuzzResult {
  stats: FuzzStats;
  failures: FuzzFailure[];
}

interface Sighting {
  fuzzCase: FuzzCase;
  wire: WireRequest;
  outcome: WireOutcome;
  violations: Violation[];
}

/**
 * Runs the cases with fast-check, against the service at `baseUrl`. A failure is shrunk to a small
 * case and reported with its seed and path; then the search goes on with the next seed, that kind
 * of failure counted but no longer stopping it, until `runs` cases have run.
 */
export async function runFuzz(
  baseUrl: string,
  routes: FuzzRoute[],
  world: FuzzWorld,
  options: FuzzOptions,
): Promise<FuzzResult> {
  const maxFailures = options.maxFailures ?? 50;
  const shrinkMs = options.shrinkMs ?? 20_000;
  const renewEvery = options.renewEvery ?? 250;
  const deadline = options.timeLimitMs ? Date.now() + options.timeLimitMs : Infinity;
  const stats: FuzzStats = {
    cases: 0,
    byStatus: {},
    serverErrors: 0,
    byRoute: {},
    bySignature: {},
    startedAt: Date.now(),
    seconds: 0,
  };
  const failures: FuzzFailure[] = [];
  const known = new Set<string>();
  const arbitrary = fuzzCaseArbitrary(routes, {
    pools: world.pools,
    credentials: world.available,
    sources: {
      urlHost: world.urlHost,
      realValuesFor: (name) => poolFor(world.pools, name),
    },
  });
  const run = randomBytes(4).toString('hex');
  let sequence = 0;
  const send: SendContext = {
    valueOf: (kind) => world.valueOf(kind),
    sessionCookieName: world.sessionCookieName,
    freshKey: () => `fuzz-${run}-${(sequence += 1)}`,
    sharedKey: (slot) => `fuzz-${run}-shared-${slot}`,
  };

  for (let round = 0; stats.cases < options.runs && failures.length < maxFailures; round += 1) {
    if (Date.now() > deadline) break;
    const seed = round === 0 ? options.seed : (options.seed + round * 0x9e3779b9) | 0;
    let target: string | undefined;
    let shrinkUntil = Infinity;
    let last: Sighting | undefined;

    const property = fc.asyncProperty(arbitrary, async (fuzzCase) => {
      const shrinking = target !== undefined;
      // Once the budget is spent every candidate passes untried, and shrinking ends at once.
      if (shrinking && Date.now() > shrinkUntil) return true;
      const wire = toWire(fuzzCase, send);
      const outcome = await sendWire(baseUrl, wire);
      const body = renderBody(fuzzCase.body);
      const violations = violationsOf(
        {
          method: fuzzCase.method,
          sentText: sentTextOf(wire),
          badBody: fuzzCase.declaresBody ? badBodyReason(body) : undefined,
        },
        outcome,
      )
        .concat(options.document ? undocumented(options.document, wire, outcome) : [])
        .map((violation) => ({
          ...violation,
          signature: signatureOf(violation, fuzzCase, outcome),
        }));
      if (!shrinking) {
        count(stats, fuzzCase, outcome, violations);
        if (stats.cases % 1_000 === 0) options.onProgress?.(stats);
        if (stats.cases % renewEvery === 0) await world.renew();
      }
      if (outcome.kind === 'response' && outcome.response.headers['set-cookie'] !== undefined) {
        await world.renew();
      }
      const hit = shrinking
        ? violations.find((violation) => violation.signature === target)
        : violations.find((violation) => !known.has(violation.signature));
      if (!hit) return true;
      if (!shrinking) {
        target = hit.signature;
        shrinkUntil = Date.now() + shrinkMs;
      }
      last = { fuzzCase, wire, outcome, violations };
      return false;
    });

    const remaining = options.runs - stats.cases;
    const details = await fc.check(property, {
      seed,
      numRuns: remaining,
      ...(options.path !== undefined && round === 0 ? { path: options.path } : {}),
      ...(Number.isFinite(deadline)
        ? { plugins: [fc.interruptAfterTimeLimit(Math.max(1, deadline - Date.now()))] }
        : {}),
    });
    if (!details.failed) break;
    if (target === undefined || last === undefined) {
      // The property itself threw: a bug of the harness, not a finding.
      throw details.errorInstance ?? new Error(`fuzz harness failed: ${JSON.stringify(details)}`);
    }
    known.add(target);
    failures.push({
      signature: target,
      violations: last.violations,
      seed,
      path: details.counterexamplePath ?? '',
      shrinks: details.numShrinks,
      counterexample: last.fuzzCase,
      request: describeRequest(last.wire),
      response: describeOutcome(last.outcome),
    });
    if (options.path !== undefined) break;
  }
  stats.seconds = (Date.now() - stats.startedAt) / 1000;
  return { stats, failures };
}

/**
 * One failure of one kind: a 5xx or a leak is its route's, a malformed answer is the edge's (its
 * status and shape), wherever it came from.
 */
export function signatureOf(
  violation: Violation,
  fuzzCase: FuzzCase,
  outcome: WireOutcome,
): string {
  const status = outcome.kind === 'response' ? outcome.response.status : 'none';
  switch (violation.kind) {
    case 'server_error':
      return `server_error ${status} ${fuzzCase.route}`;
    case 'leak':
      return `leak ${violation.detail.split(':')[0]} ${fuzzCase.route}`;
    case 'accepted_bad_string':
      return `accepted_bad_string ${violation.detail.replace(/^\d+ for a body with /, '')} ${fuzzCase.route}`;
    case 'not_envelope':
      return `not_envelope ${status} ${outcome.kind === 'response' ? shapeOf(outcome.response.body) : ''}`;
    case 'unknown_code':
    case 'status_mismatch':
      return `${violation.kind} ${violation.detail}`;
    case 'no_response':
      return `no_response ${violation.detail}`;
    case 'undocumented':
      return `undocumented ${fuzzCase.route} ${status} ${violation.detail.replace(/^.*?: /, '')}`;
    default: {
      const unknownKind: never = violation.kind;
      return unknownKind;
    }
  }
}

/** What of an answer its route's document does not describe (see TrafficChecker). */
function undocumented(
  document: TrafficChecker,
  wire: WireRequest,
  outcome: WireOutcome,
): Violation[] {
  if (outcome.kind !== 'response') return [];
  const { status, headers, body } = outcome.response;
  const contentType = headers['content-type'] ?? '';
  const text = body.toString('utf8');
  let parsed: unknown = text === '' ? undefined : text;
  if (contentType.includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text: not_envelope reports a JSON answer that is not JSON
    }
  }
  const exchange = {
    method: wire.method,
    url: wire.target.toString('latin1'),
    status,
    contentType,
    body: parsed,
  };
  return document
    .violations([exchange])
    .map((detail) => ({ kind: 'undocumented' as const, detail }));
}

/** The top-level keys of a JSON body, or its first characters. */
function shapeOf(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null)
      return `{${Object.keys(parsed).sort().join(',')}}`;
  } catch {
    // not JSON: its opening says enough
  }
  return JSON.stringify(text.slice(0, 30));
}

function count(
  stats: FuzzStats,
  fuzzCase: FuzzCase,
  outcome: WireOutcome,
  violations: Array<Violation & { signature: string }>,
): void {
  stats.cases += 1;
  const status = outcome.kind === 'response' ? String(outcome.response.status) : 'none';
  stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  if (outcome.kind === 'response' && outcome.response.status >= 500) stats.serverErrors += 1;
  const route = (stats.byRoute[fuzzCase.route] ??= {});
  const statusClass = status === 'none' ? 'none' : `${status[0]}xx`;
  route.cases = (route.cases ?? 0) + 1;
  route.ms = (route.ms ?? 0) + outcome.ms;
  route[statusClass] = (route[statusClass] ?? 0) + 1;
  for (const signature of new Set(violations.map((violation) => violation.signature))) {
    stats.bySignature[signature] = (stats.bySignature[signature] ?? 0) + 1;
  }
}

/** The request's bytes as text, for telling an echo from a leak. */
function sentTextOf(wire: WireRequest): string {
  return encodeRequest(wire, '').toString('utf8');
}

const SHOWN_BODY = 400;

export function describeRequest(wire: WireRequest): string {
  const bytes = encodeRequest(wire, '127.0.0.1');
  const shown = bytes.subarray(0, 1_500).toString('latin1');
  const more = bytes.length > 1_500 ? `… (${bytes.length} bytes in all)` : '';
  return `${JSON.stringify(shown).slice(1, -1)}${more}`;
}

export function describeOutcome(outcome: WireOutcome): string {
  if (outcome.kind === 'no_response') return `no answer: ${outcome.reason}`;
  const { status, headers, body } = outcome.response;
  const text = body.toString('utf8');
  const more = text.length > SHOWN_BODY ? `… (${text.length} chars)` : '';
  return `${status} ${headers['content-type'] ?? '(no content-type)'} ${text.slice(0, SHOWN_BODY)}${more}`;
}
