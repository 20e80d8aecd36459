import { encodeRequest, parseResponse } from './raw-http';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('encodeRequest: the bytes the harness writes', () => {
  it('writes the target and headers byte for byte, then the length and the body', () => {
    const wire = encodeRequest(
      {
        method: 'POST',
        target: Buffer.from([0x2f, 0x61, 0xff]),
        headers: [['x-odd', '\xff\xfe']],
        body: Buffer.from('{}'),
      },
      '127.0.0.1:1',
    );
    expect(wire).toEqual(
      bytes(
        'POST /a\xff HTTP/1.1\r\nhost: 127.0.0.1:1\r\nx-odd: \xff\xfe\r\ncontent-length: 2\r\n\r\n{}',
      ),
    );
  });

  it('declares the length it is told to, or none', () => {
    const request = {
      method: 'POST',
      target: Buffer.from('/'),
      headers: [],
      body: Buffer.from('abcd'),
    };
    expect(encodeRequest({ ...request, contentLength: 1 }, 'h').toString('latin1')).toContain(
      'content-length: 1\r\n\r\nabcd',
    );
    expect(
      encodeRequest({ ...request, contentLength: null }, 'h').toString('latin1'),
    ).not.toContain('content-length');
    expect(
      encodeRequest({ method: 'GET', target: Buffer.from('/'), headers: [] }, 'h').toString(
        'latin1',
      ),
    ).toBe('GET / HTTP/1.1\r\nhost: h\r\n\r\n');
  });
});

describe('parseResponse: one HTTP/1.1 answer', () => {
  it('reads a Content-Length body, and waits for all of it', () => {
    const head =
      'HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n';
    expect(parseResponse(bytes(`${head}{"a"`), false, false)).toBeUndefined();
    expect(parseResponse(bytes(`${head}{"a":1}`), false, false)).toEqual({
      status: 404,
      headers: { 'content-type': 'application/json', 'content-length': '5' },
      body: bytes('{"a":'),
    });
  });

  it('reads a chunked body once its last chunk is in', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    expect(parseResponse(bytes(`${head}3\r\nabc\r\n`), false, false)).toBeUndefined();
    expect(
      parseResponse(bytes(`${head}3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n`), false, false)?.body,
    ).toEqual(bytes('abcde'));
  });

  it('reads a body with no length to the end of the connection', () => {
    const text = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nbad';
    expect(parseResponse(bytes(text), false, false)).toBeUndefined();
    expect(parseResponse(bytes(text), false, true)).toMatchObject({
      status: 400,
      body: bytes('bad'),
    });
  });

  it('skips a 100 Continue, and reads no body for HEAD or 204', () => {
    const continued =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}';
    expect(parseResponse(bytes(continued), false, false)).toMatchObject({
      status: 201,
      body: bytes('{}'),
    });
    expect(
      parseResponse(bytes('HTTP/1.1 401 x\r\nContent-Length: 20\r\n\r\n'), true, false),
    ).toMatchObject({
      status: 401,
      body: Buffer.alloc(0),
    });
    expect(parseResponse(bytes('HTTP/1.1 204 No Content\r\n\r\n'), false, false)?.status).toBe(204);
  });

  it('joins a repeated header', () => {
    const text =
      'HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n';
    expect(parseResponse(bytes(text), false, false)?.headers['set-cookie']).toBe('a=1, b=2');
  });
});
