import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { htmlPageHeaders, newCspNonce, renderMessagePage } from '../../../pages';
import { renderCheckoutPage } from '../checkout-page';
import type { CustomerPaymentView, SandboxProvider } from '../customer-payment-view';
import { renderSandboxPage } from '../sandbox-page';

export interface PayReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The routes the pages talk to, as CONTRACT 6 describes them, over one payment held in memory.
 * It stands in for the gateway routes another piece wires up; what it proves is the pages' side
 * of the contract in a real browser under the real CSP header.
 */
export class StubGateway {
  view: CustomerPaymentView;
  readonly payCalls: unknown[] = [];
  /** Set to make the next pay calls answer with an error instead of moving the payment on. */
  payReply: PayReply | null = null;
  /** Where approve and decline send the customer in the end (`return_url`). */
  successUrl: string | null = null;
  cancelUrl: string | null = null;
  /** `merchant` breaks the rule of contentSecurityPolicy, to show what the browser does then. */
  sandboxRedirect: 'checkout' | 'merchant' = 'checkout';
  private server: Server | null = null;
  origin = '';

  constructor(
    view: CustomerPaymentView,
    readonly clientSecret: string,
  ) {
    this.view = view;
  }

  get checkoutPath(): string {
    return `/checkout/${this.view.id}?cs=${encodeURIComponent(this.clientSecret)}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const csOk = url.searchParams.get('cs') === this.clientSecret;
    const id = this.view.id;
    const route = `${req.method} ${url.pathname}`;
    const nonce = newCspNonce();
    const page = (status: number, html: string) =>
      res.writeHead(status, htmlPageHeaders(nonce)).end(html);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(body));

    if (route === 'GET /favicon.ico') {
      res.writeHead(204).end();
    } else if (!csOk) {
      page(
        404,
        renderMessagePage({
          title: 'Paiement introuvable',
          message: 'Lien invalide.',
          nonce,
          status: 404,
        }),
      );
    } else if (route === `GET /checkout/${id}`) {
      page(200, renderCheckoutPage({ view: this.view, clientSecret: this.clientSecret, nonce }));
    } else if (route === `GET /v1/public/payments/${id}`) {
      json(200, this.view);
    } else if (route === `POST /v1/public/payments/${id}/pay`) {
      const body = JSON.parse(await readBody(req)) as { provider: SandboxProvider };
      this.payCalls.push(body);
      if (this.payReply)
        return void json(this.payReply.status, this.payReply.body, this.payReply.headers);
      this.view = {
        ...this.view,
        status: 'processing',
        provider: body.provider,
        next_action: {
          type: 'redirect',
          url: `/sandbox/${body.provider}/${id}?cs=${encodeURIComponent(this.clientSecret)}`,
        },
      };
      json(200, this.view);
    } else if (route === `GET /sandbox/${this.view.provider}/${id}`) {
      const { amount, description, merchant, provider } = this.view;
      const payment = {
        id,
        amount,
        description,
        merchantName: merchant.name,
        provider: provider ?? 'mock',
      };
      page(200, renderSandboxPage({ payment, clientSecret: this.clientSecret, nonce }));
    } else if (/^POST \/sandbox\/[a-z_]+\/[^/]+\/(approve|decline)$/.test(route)) {
      const approved = route.endsWith('/approve');
      this.view = {
        ...this.view,
        status: approved ? 'succeeded' : 'failed',
        return_url: approved ? this.successUrl : this.cancelUrl,
      };
      // Same-origin redirect: what contentSecurityPolicy's form-action asks of these handlers.
      const location =
        this.sandboxRedirect === 'checkout' ? this.checkoutPath : (this.view.return_url ?? '/');
      res.writeHead(303, { location }).end();
    } else {
      json(404, { error: { code: 'not_found', message: route } });
    }
  }
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
};

/** A merchant site on another origin (another port), to come back to. */
export async function startMerchantSite(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<h1>Boutique ${req.url}</h1>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
