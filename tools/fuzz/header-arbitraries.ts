import fc from 'fast-check';

/**
 * The idempotency key of a case, resolved when it is sent: `fresh` is new each time (so shrinking
 * never replays a key by accident), `shared` is one of three keys every case may reuse (replays
 * and conflicts), the rest are malformed.
 */
export type IdempotencyChoice =
  | { kind: 'absent' }
  | { kind: 'fresh' }
  | { kind: 'shared'; slot: number }
  | { kind: 'literal'; value: string }
  | { kind: 'twice' };

/** A write gets a new key (some routes require one), a read none. */
export function fittingIdempotency(method: string): fc.Arbitrary<IdempotencyChoice> {
  const writes = method !== 'GET' && method !== 'HEAD';
  return fc.constant(writes ? { kind: 'fresh' as const } : { kind: 'absent' as const });
}

/** Absent, new, reused, malformed, or sent twice. */
export const oddIdempotency: fc.Arbitrary<IdempotencyChoice> = fc.oneof(
  fc.constant({ kind: 'absent' as const }),
  fc.constant({ kind: 'fresh' as const }),
  fc.integer({ min: 0, max: 2 }).map((slot) => ({ kind: 'shared' as const, slot })),
  fc
    .constantFrom(
      '',
      ' ',
      'a'.repeat(255),
      'a'.repeat(256),
      'a'.repeat(4_000),
      'caf\xc3\xa9',
      '\xff\xfe',
      'key\twith\ttabs',
      '"quoted"',
      'a,b',
    )
    .map((value) => ({ kind: 'literal' as const, value })),
  fc.constant({ kind: 'twice' as const }),
);

/** The Content-Type of a body: JSON. */
export const fittingContentType = (hasBody: boolean): fc.Arbitrary<string | null> =>
  fc.constant(hasBody ? 'application/json' : null);

/** None, or a media type the service should refuse or read with care. Null sends none. */
export const oddContentType: fc.Arbitrary<string | null> = fc.constantFrom(
  null,
  '',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;',
  'application/json, text/plain',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'text/plain',
  'text/json',
  'application/octet-stream',
  '*/*',
  'application/json\xff',
  'application/json; charset="\xff"',
);

/** How the body is framed: honestly, or with a Content-Length or chunking that lies. */
export type Framing =
  | { kind: 'length' }
  | { kind: 'short'; by: number }
  | { kind: 'bad_length'; value: string }
  | { kind: 'two_lengths'; delta: number }
  | { kind: 'chunked' }
  | { kind: 'bad_chunked'; sizeLine: string }
  | { kind: 'chunked_and_length' }
  | { kind: 'no_length' };

/** Framing that lies or that parsers disagree on (never one that leaves the server waiting). */
export const oddFraming: fc.Arbitrary<Framing> = fc.oneof(
  fc.constant({ kind: 'chunked' as const }),
  fc.integer({ min: 1, max: 64 }).map((by) => ({ kind: 'short' as const, by })),
  fc
    .constantFrom('-1', 'abc', '1.5', '0x10', '+5', '5 5', '99999999999999999999', '')
    .map((value) => ({ kind: 'bad_length' as const, value })),
  fc.integer({ min: 0, max: 3 }).map((delta) => ({ kind: 'two_lengths' as const, delta })),
  fc
    .constantFrom('zz', '-1', '1;ext="\xff"', '', '0x1', ' 1')
    .map((sizeLine) => ({ kind: 'bad_chunked' as const, sizeLine })),
  fc.constant({ kind: 'chunked_and_length' as const }),
  fc.constant({ kind: 'no_length' as const }),
);

/** Headers beside the ones every case sets: odd ones, long ones, many. */
export const oddHeaders: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(
      fc.oneof(
        fc.constantFrom<[string, string]>(
          ['accept', 'text/html'],
          ['accept', 'application/xml'],
          ['accept', ''],
          ['accept-encoding', 'gzip, deflate, br'],
          ['accept-language', 'wo-SN,fr;q=0.9'],
          ['x-forwarded-for', '1.2.3.4, 10.0.0.1, ::1'],
          ['x-forwarded-for', 'not an address'],
          ['x-forwarded-proto', 'https'],
          ['x-forwarded-host', 'evil.invalid'],
          ['x-request-id', '\xff\xfe'],
          ['x-http-method-override', 'DELETE'],
          ['origin', 'https://evil.invalid'],
          ['referer', 'javascript:alert(1)'],
          ['cookie', 'a=b; c; =d; ;'],
          ['cookie', '\xff=\xfe'],
          ['expect', '100-continue'],
          ['transfer-encoding', 'identity'],
          ['range', 'bytes=0-1'],
          ['if-none-match', '*'],
          ['te', 'trailers'],
        ),
        fc
          .tuple(
            fc.constantFrom('x-fuzz', 'user-agent', 'cookie', 'accept'),
            fc.constantFrom(1_000, 8_000, 16_000, 70_000),
          )
          .map(([name, length]): [string, string] => [name, 'a'.repeat(length)]),
        fc.constantFrom<[string, string]>(
          ['bad name', 'x'],
          ['x-\xfc', 'x'],
          ['', 'x'],
          ['x-nul', 'a\x00b'],
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 50, max: 300 })
      .map((count) =>
        Array.from({ length: count }, (_, index): [string, string] => [`x-h${index}`, 'v']),
      ),
  },
);
