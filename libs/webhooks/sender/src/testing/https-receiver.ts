import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type ReceiverReply =
  | { kind: 'answer'; status: number; body: string; headers: Record<string, string> }
  /** Reads the request and never answers. */
  | { kind: 'hang' }
  /** Closes the connection without answering, as a receiver dropping an idle keep-alive does. */
  | { kind: 'drop' }
  /** Sends the status at once, then one chunk every `intervalMs`. */
  | { kind: 'slow-body'; status: number; chunks: number; intervalMs: number }
  /** Sends `bytes` of body, as fast as the client takes them. */
  | { kind: 'big-body'; status: number; bytes: number };

export const answer = (
  status: number,
  body = '',
  headers: Record<string, string> = {},
): ReceiverReply => ({ kind: 'answer', status, body, headers });
export const redirect = (location: string, status = 302): ReceiverReply =>
  answer(status, '', { location });
export const hang = (): ReceiverReply => ({ kind: 'hang' });
export const drop = (): ReceiverReply => ({ kind: 'drop' });
export const slowBody = (status: number, chunks: number, intervalMs: number): ReceiverReply => ({
  kind: 'slow-body',
  status,
  chunks,
  intervalMs,
});
export const bigBody = (status: number, bytes: number): ReceiverReply => ({
  kind: 'big-body',
  status,
  bytes,
});

/** One reply for all, a script played in order (its last reply repeats), or a function. */
export type ReceiverBehaviour =
  | ReceiverReply
  | readonly ReceiverReply[]
  | ((request: RecordedRequest, index: number) => ReceiverReply);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Whether the reply was written in full or the client dropped the connection first. */
  replied: Promise<'finished' | 'aborted'>;
}

export interface HttpsReceiver {
  port: number;
  /** `https://localhost:<port>`: the certificate names localhost and 127.0.0.1. */
  origin: string;
  url(path?: string): string;
  requests: RecordedRequest[];
  /** TCP connections accepted, to tell a refused target (none) from a refused request. */
  connections(): number;
  setBehaviour(behaviour: ReceiverBehaviour): void;
  close(): Promise<void>;
}

/** A merchant's webhook receiver on 127.0.0.1, recording every request with its exact bytes. */
export async function startHttpsReceiver(options: {
  cert: string;
  key: string;
  behaviour?: ReceiverBehaviour;
}): Promise<HttpsReceiver> {
  let behaviour: ReceiverBehaviour = options.behaviour ?? answer(200);
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;

  const pick = (request: RecordedRequest, index: number): ReceiverReply => {
    if (typeof behaviour === 'function') return behaviour(request, index);
    if (!Array.isArray(behaviour)) return behaviour as ReceiverReply;
    return behaviour[Math.min(index, behaviour.length - 1)];
  };

  const server = createServer({ cert: options.cert, key: options.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const replied = new Promise<'finished' | 'aborted'>((done) =>
        res.on('close', () => done(res.writableFinished ? 'finished' : 'aborted')),
      );
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        replied,
      };
      requests.push(recorded);
      play(pick(recorded, requests.length - 1), res);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });

  const play = (reply: ReceiverReply, res: ServerResponse) => {
    switch (reply.kind) {
      case 'answer':
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body);
        return;
      case 'hang':
        return;
      case 'drop':
        res.socket?.destroy();
        return;
      case 'slow-body': {
        res.writeHead(reply.status, { 'content-type': 'text/plain' });
        let sent = 0;
        const timer = setInterval(() => {
          sent += 1;
          if (sent < reply.chunks) res.write(`chunk ${sent}\n`);
          else {
            clearInterval(timer);
            res.end('last\n');
          }
        }, reply.intervalMs);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'big-body': {
        res.writeHead(reply.status, {
          'content-type': 'text/plain',
          'content-length': String(reply.bytes),
        });
        const block = Buffer.alloc(16 * 1024, 'x');
        let left = reply.bytes;
        const pump = () => {
          while (left > 0 && !res.destroyed) {
            const piece = block.subarray(0, Math.min(left, block.length));
            left -= piece.length;
            if (left === 0) res.end(piece);
            else if (!res.write(piece)) return void res.once('drain', pump);
          }
        };
        pump();
        return;
      }
      default: {
        const never: never = reply;
        throw new Error(`unknown reply ${JSON.stringify(never)}`);
      }
    }
  };

  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const origin = `https://localhost:${port}`;
  return {
    port,
    origin,
    url: (path = '/webhooks') => `${origin}${path}`,
    requests,
    connections: () => connections,
    setBehaviour: (next) => {
      behaviour = next;
    },
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
