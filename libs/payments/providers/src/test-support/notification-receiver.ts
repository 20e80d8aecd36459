import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@xaalis/kernel';
import type { LivePaymentProvider, ProviderNotification } from '../payment-provider';

/**
 * A loopback receiver for provider notifications, standing in for the gateway route: it hands
 * the raw body and headers to `parseNotification` and answers 200, or the error's code.
 */
export async function startNotificationReceiver(provider: LivePaymentProvider): Promise<{
  url: string;
  received: Array<ProviderNotification | null>;
  close(): Promise<void>;
}> {
  const received: Array<ProviderNotification | null> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      try {
        const notification = provider.parseNotification({
          headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          now: new Date(),
        });
        received.push(notification);
        res.writeHead(200).end('ok');
      } catch (error) {
        const code = error instanceof DomainError ? error.code : 'internal_error';
        res.writeHead(code === 'authentication_required' ? 401 : 400).end(code);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
