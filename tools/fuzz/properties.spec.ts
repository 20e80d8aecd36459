import { ERROR_CODES } from '@xaalis/kernel';
import {
  badBodyReason,
  CONTRACT_STATUS,
  hasLoneSurrogate,
  violationsOf,
  type SentFacts,
} from './properties';
import type { WireOutcome } from './raw-http';

const JSON_TYPE = 'application/json; charset=utf-8';

function answer(status: number, body: string, contentType: string | null = JSON_TYPE): WireOutcome {
  return {
    kind: 'response',
    ms: 1,
    response: {
      status,
      headers: contentType === null ? {} : { 'content-type': contentType },
      body: Buffer.from(body),
    },
  };
}

const get: SentFacts = { method: 'GET', sentText: 'GET /v1/payments HTTP/1.1\r\n\r\n' };
const kinds = (facts: SentFacts, outcome: WireOutcome) =>
  violationsOf(facts, outcome).map((v) => v.kind);

describe('the properties every answer must hold', () => {
  it('passes a contract error, with or without details', () => {
    expect(
      violationsOf(get, answer(404, '{"error":{"code":"not_found","message":"No such payment."}}')),
    ).toEqual([]);
    const validation =
      '{"error":{"code":"validation_error","message":"Invalid.","details":[{"field":"amount","issue":"must be an integer"}]}}';
    expect(violationsOf(get, answer(400, validation))).toEqual([]);
    const policy =
      '{"error":{"code":"policy_violation","message":"No.","details":{"rule":"max_daily_amount"}}}';
    expect(violationsOf(get, answer(402, policy))).toEqual([]);
  });

  it('passes a success of any JSON shape', () => {
    expect(violationsOf(get, answer(200, '{"object":"list","data":[],"has_more":false}'))).toEqual(
      [],
    );
  });

  it('flags every 5xx, the contract envelope included', () => {
    expect(
      kinds(get, answer(500, '{"error":{"code":"internal_error","message":"Unexpected."}}')),
    ).toEqual(['server_error']);
    expect(kinds(get, answer(502, '', null))).toEqual(['server_error', 'not_envelope']);
  });

  it('flags the framework shapes the edge has to replace', () => {
    const fastify =
      '{"statusCode":414,"code":"FST_ERR_MAX_PARAM_LENGTH","error":"URI Too Long","message":"too long"}';
    expect(violationsOf(get, answer(414, fastify))).toEqual([
      { kind: 'not_envelope', detail: expect.stringContaining('not {"error":{…}}') },
    ]);
    expect(
      kinds(get, answer(400, '{"error":"Bad Request","message":"Client Error","statusCode":400}')),
    ).toEqual(['not_envelope']);
    expect(kinds(get, answer(431, '', null))).toEqual(['not_envelope']);
    expect(kinds(get, answer(400, 'Bad Request', 'text/plain'))).toEqual(['not_envelope']);
    expect(kinds(get, answer(400, '{"error":', JSON_TYPE))).toEqual(['not_envelope']);
  });

  it('flags an envelope with extra keys, no message or details of the wrong shape', () => {
    expect(
      kinds(
        get,
        answer(400, '{"error":{"code":"validation_error","message":"x"},"statusCode":400}'),
      ),
    ).toEqual(['not_envelope']);
    expect(
      kinds(get, answer(400, '{"error":{"code":"validation_error","message":"x","stack":"…"}}')),
    ).toEqual(['not_envelope']);
    expect(kinds(get, answer(400, '{"error":{"code":"validation_error"}}'))).toEqual([
      'not_envelope',
    ]);
    expect(
      kinds(
        get,
        answer(400, '{"error":{"code":"validation_error","message":"x","details":[{"f":1}]}}'),
      ),
    ).toEqual(['not_envelope']);
  });

  it('flags a code the contract does not have, and a code with another status than its own', () => {
    expect(
      violationsOf(get, answer(400, '{"error":{"code":"bad_request","message":"x"}}')),
    ).toEqual([{ kind: 'unknown_code', detail: 'code "bad_request"' }]);
    expect(
      violationsOf(get, answer(422, '{"error":{"code":"validation_error","message":"x"}}')),
    ).toEqual([
      { kind: 'status_mismatch', detail: 'validation_error with 422, CONTRACT says 400' },
    ]);
  });

  it('flags stack traces, SQL and database errors in any body, pages included', () => {
    const stack = JSON.stringify({
      error: {
        code: 'validation_error',
        message: 'TypeError: x is undefined\n    at parse (/work/main/libs/a.ts:10:5)',
      },
    });
    expect(kinds(get, answer(400, stack))).toEqual(['leak', 'leak', 'leak']);
    const sql = '{"data":"SELECT id FROM payments WHERE merchant_id = $1"}';
    expect(violationsOf(get, answer(200, sql))).toEqual([
      { kind: 'leak', detail: expect.stringMatching(/^SQL: /) },
    ]);
    const postgres = '<p>duplicate key value violates unique constraint "payments_pkey"</p>';
    expect(kinds(get, answer(404, postgres, 'text/html'))).toEqual(['leak']);
    expect(kinds(get, answer(200, '{"x":"at node:internal/process/task_queues:95:5"}'))).toEqual([
      'leak',
    ]);
  });

  it('does not call an echo of what the client sent a leak', () => {
    const sent: SentFacts = { method: 'POST', sentText: '{"SELECT a FROM b":1}' };
    const echo =
      '{"error":{"code":"validation_error","message":"x","details":[{"field":"SELECT a FROM b","issue":"unknown"}]}}';
    expect(violationsOf(sent, answer(400, echo))).toEqual([]);
  });

  it('checks only status and leaks on an HTML page, and no body on a HEAD', () => {
    expect(
      violationsOf(
        get,
        answer(404, '<!doctype html><p>Introuvable</p>', 'text/html; charset=utf-8'),
      ),
    ).toEqual([]);
    expect(violationsOf({ ...get, method: 'HEAD' }, answer(401, '', JSON_TYPE))).toEqual([]);
    expect(violationsOf(get, answer(200, 'function at(x){}', 'application/javascript'))).toEqual(
      [],
    );
  });

  it('flags silence', () => {
    expect(
      violationsOf(get, { kind: 'no_response', reason: 'closed without an answer', ms: 3 }),
    ).toEqual([{ kind: 'no_response', detail: 'closed without an answer' }]);
  });

  it('flags a body the contract refuses that was accepted, not one that was refused', () => {
    const sent: SentFacts = { method: 'POST', sentText: '', badBody: 'a NUL character' };
    expect(kinds(sent, answer(201, '{"object":"user"}'))).toEqual(['accepted_bad_string']);
    expect(kinds(sent, answer(400, '{"error":{"code":"validation_error","message":"x"}}'))).toEqual(
      [],
    );
  });

  it('knows the status of every contract code', () => {
    expect(Object.keys(CONTRACT_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('badBodyReason: bodies CONTRACT 2 has refused', () => {
  const body = (text: string) => Buffer.from(text);

  it('finds a NUL or an unpaired surrogate in any string or key', () => {
    expect(badBodyReason(body('{"name":"a\\u0000b"}'))).toBe('a NUL character');
    expect(badBodyReason(body('{"metadata":{"k\\u0000":"v"}}'))).toBe('a NUL character');
    expect(badBodyReason(body('{"name":"\\ud800"}'))).toBe('an unpaired surrogate');
    expect(badBodyReason(body('["x\\udc00"]'))).toBe('an unpaired surrogate');
    expect(badBodyReason(body('{"name":"\\ud83d\\ude00"}'))).toBeUndefined();
  });

  it('finds nesting deeper than 32 levels, and lets 32 pass', () => {
    expect(badBodyReason(body(`${'['.repeat(32)}${']'.repeat(32)}`))).toBeUndefined();
    expect(badBodyReason(body(`${'['.repeat(33)}${']'.repeat(33)}`))).toBe(
      'nesting deeper than 32',
    );
    expect(badBodyReason(body(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`))).toBe(
      'nesting deeper than 32',
    );
    expect(badBodyReason(body(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBe(
      'nesting deeper than 32',
    );
  });

  it('says nothing of an empty body or text that is not JSON', () => {
    expect(badBodyReason(undefined)).toBeUndefined();
    expect(badBodyReason(body('{"a":'))).toBeUndefined();
  });

  it('tells lone surrogates from pairs', () => {
    expect(hasLoneSurrogate('a\ud83d\ude00b')).toBe(false);
    expect(hasLoneSurrogate('\ude00\ud83d')).toBe(true);
    expect(hasLoneSurrogate('x\ud83d')).toBe(true);
  });
});
