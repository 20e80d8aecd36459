import { connect } from 'node:net';

export interface RawHttpAnswer {
  /** E.g. `HTTP/1.1 403 Forbidden`. */
  statusLine: string;
  /** The status code of the status line (NaN when there was no answer). */
  status: number;
  body: string;
}

/**
 * Writes `request` on a new connection to `baseUrl`'s port, as it is: bytes no fetch would send
 * (a target in absolute form, a body that lies about its length). Resolves with the answer once
 * the server closes the connection, so send `Connection: close` or something it refuses.
 */
export function sendRawHttp(baseUrl: string, request: string): Promise<RawHttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1', () =>
      socket.write(Buffer.from(request, 'latin1')),
    );
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...body] = answer.split('\r\n\r\n');
      const statusLine = head.split('\r\n')[0] ?? '';
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
      resolve({ statusLine, status, body: body.join('\r\n\r\n') });
    });
  });
}
