import { Agent, request } from 'node:http';

/**
 * The load generator's client, shared by the raw server and the gateway so both pay the same
 * client cost: keep-alive sockets, as a real API client holds them (a TCP handshake per request
 * would measure the kernel, not the service).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Resolves with the body of a 200; anything else rejects, so a wrong answer never counts. */
export function httpGet(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`GET ${url} answered ${res.statusCode}: ${body.slice(0, 300)}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function closeHttpLoad(): void {
  agent.destroy();
}

/** Resolves with the body of a 2xx to a JSON POST; anything else rejects. */
export function httpPostJson(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(text);
          else reject(new Error(`POST ${url} answered ${status}: ${text.slice(0, 300)}`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
