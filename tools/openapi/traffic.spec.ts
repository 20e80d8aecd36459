import type { Document } from 'openapi-backend';
import { TrafficChecker, type Exchange } from './traffic';

const json = 'application/json; charset=utf-8';
const thing = {
  type: 'object',
  required: ['id', 'amount', 'note'],
  properties: {
    id: { type: 'string' },
    amount: { type: 'integer' },
    note: { type: 'string', nullable: true },
  },
};
const document = {
  openapi: '3.0.0',
  info: { title: 'things', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: { description: 'a thing', content: { 'application/json': { schema: thing } } },
          204: { description: 'nothing' },
        },
      },
    },
  },
} as unknown as Document;

const get = (status: number, body: unknown, contentType = json): Exchange => ({
  method: 'GET',
  url: '/things/th_1?expand=x',
  status,
  contentType,
  body,
});

describe('TrafficChecker', () => {
  let checker: TrafficChecker;
  beforeAll(async () => {
    checker = await TrafficChecker.load(document);
  });

  it('passes a response its schema describes, null where nullable', () => {
    expect(checker.violations([get(200, { id: 'th_1', amount: 5, note: null })])).toEqual([]);
    expect(checker.violations([get(204, undefined, '')])).toEqual([]);
    const absolute = { ...get(418, {}), url: 'http://example.sn/things/th_1#top' };
    expect(checker.violations([absolute])).toEqual([
      'GET http://example.sn/things/th_1#top → 418: status 418 is not documented',
    ]);
  });

  it('flags an undocumented status, field, type, body or media type', () => {
    expect(
      checker.violations([
        get(418, { id: 'th_1' }),
        get(200, { id: 'th_1', amount: 5, note: 'x', secret: 'y' }),
        get(200, { id: 'th_1', amount: 5.5, note: 'x' }),
        get(204, { id: 'th_1' }),
        get(200, 'hello', 'text/plain'),
      ]),
    ).toEqual([
      'GET /things/th_1?expand=x → 418: status 418 is not documented',
      expect.stringMatching(/→ 200: \(body\) must NOT have additional properties .*secret/),
      expect.stringMatching(/→ 200: \/amount must be integer/),
      'GET /things/th_1?expand=x → 204: a body where none is documented',
      'GET /things/th_1?expand=x → 200: content type text/plain is not documented',
    ]);
  });

  it('flags a route no operation serves, but not pages, the document, refusals of unknown routes', () => {
    const other = (status: number, contentType = json): Exchange => ({
      method: 'POST',
      url: '/things',
      status,
      contentType,
      body: {},
    });
    expect(checker.violations([other(201)])).toEqual([
      'POST /things → 201: no operation of the document serves this route',
    ]);
    expect(checker.violations([other(400), other(404), other(405)])).toEqual([]);
    for (const url of ['/things/th_1/', '/./things/th_1', '/../things/th_1?a=b'])
      expect(checker.violations([{ ...get(404, {}), url }])).toEqual([]);
    const page = (url: string): Exchange => ({ ...other(200, 'text/html'), method: 'GET', url });
    expect(checker.violations([page('/docs/openapi.json'), page('/checkout/pay_1')])).toEqual([]);
  });

  it('takes HEAD as the GET of the same route, without its body', () => {
    const head = (status: number): Exchange => ({ ...get(status, undefined), method: 'HEAD' });
    expect(checker.violations([head(200)])).toEqual([]);
    expect(checker.violations([head(418)])).toEqual([
      'HEAD /things/th_1?expand=x → 418: status 418 is not documented',
    ]);
  });
});
