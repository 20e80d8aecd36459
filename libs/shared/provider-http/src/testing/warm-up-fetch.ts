import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The first `fetch` in a test worker pays for loading the HTTP client, which can approach the
 * 200 ms timeout the timeout cases use; one throwaway call up front keeps that cost out of them.
 */
export async function warmUpFetch(): Promise<void> {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).text();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
