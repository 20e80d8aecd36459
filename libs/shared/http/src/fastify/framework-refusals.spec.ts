import { Duplex } from 'node:stream';
import { answerClientError } from './framework-refusals';

/** A socket that keeps what is written to it. */
function capturingSocket(): { socket: Duplex; written: string[] } {
  const written: string[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callback();
    },
  });
  return { socket, written };
}

const clientError = (code: string) => Object.assign(new Error(code), { code });

describe('answerClientError', () => {
  it('answers a request not received in time with the envelope, then closes', () => {
    const { socket, written } = capturingSocket();
    answerClientError(clientError('ERR_HTTP_REQUEST_TIMEOUT'), socket);
    const [head, body] = written.join('').split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({
      error: {
        code: 'validation_error',
        message: 'The request was not received in full within 120 seconds.',
      },
    });
    expect(socket.destroyed).toBe(true);
  });

  it('writes nothing to a client that reset the connection', () => {
    const { socket, written } = capturingSocket();
    answerClientError(clientError('ECONNRESET'), socket);
    expect(written).toEqual([]);
    expect(socket.destroyed).toBe(true);
  });
});
