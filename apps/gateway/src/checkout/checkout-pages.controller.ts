import { Controller, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BUS_CLIENT } from '@xaalis/config';
import {
  PAYMENTS_PUBLIC_GET,
  PAYMENTS_SANDBOX_ACT,
  PAYMENTS_SANDBOX_GET,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { RateLimit } from '@xaalis/http';
import { CUSTOMER_PROVIDERS, type CustomerProvider, DomainError } from '@xaalis/kernel';
import { newCspNonce, sendPage } from '../pages';
import { renderCheckoutPage, renderSandboxPage } from './pages';

/**
 * The hosted pages (CONTRACT 6): the checkout page the merchant redirects the customer to, and
 * the sandbox pages standing in for the providers in test mode. HTML, so failures are pages too.
 */
@ApiExcludeController()
@Controller()
@RateLimit('ip')
export class CheckoutPagesController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  /** Browsers ask for it on every page; a 204 keeps their consoles and our logs free of 404s. */
  @Get('favicon.ico')
  favicon(@Res() reply: FastifyReply) {
    void reply.status(204).header('cache-control', 'public, max-age=86400').send();
  }

  @Get('checkout/:id')
  async checkout(@Param('id') id: string, @Query('cs') cs: unknown, @Res() reply: FastifyReply) {
    const nonce = newCspNonce();
    await sendPage(reply, nonce, messageFor, async () => {
      const view = await request(this.bus, PAYMENTS_PUBLIC_GET, {
        payment_id: id,
        client_secret: secretOf(cs),
      });
      return renderCheckoutPage({ view, clientSecret: secretOf(cs), nonce });
    });
  }

  @Get('sandbox/:provider/:id')
  async sandbox(
    @Param('provider') provider: string,
    @Param('id') id: string,
    @Query('cs') cs: unknown,
    @Res() reply: FastifyReply,
  ) {
    const nonce = newCspNonce();
    await sendPage(reply, nonce, messageFor, async () => {
      const payment = await request(this.bus, PAYMENTS_SANDBOX_GET, {
        payment_id: id,
        client_secret: secretOf(cs),
        provider: sandboxProvider(provider),
      });
      return renderSandboxPage({
        payment: {
          id: payment.id,
          amount: payment.amount,
          description: payment.description,
          merchantName: payment.merchant_name,
          provider: payment.provider,
        },
        clientSecret: secretOf(cs),
        nonce,
      });
    });
  }

  /** Approve / Decline: then back to the checkout page, which shows how it ended. */
  @Post('sandbox/:provider/:id/:action')
  async act(
    @Param('provider') provider: string,
    @Param('id') id: string,
    @Param('action') action: string,
    @Query('cs') cs: unknown,
    @Res() reply: FastifyReply,
  ) {
    const nonce = newCspNonce();
    await sendPage(reply, nonce, messageFor, async () => {
      if (action !== 'approve' && action !== 'decline')
        throw new DomainError('not_found', 'No such page.');
      await request(this.bus, PAYMENTS_SANDBOX_ACT, {
        payment_id: id,
        client_secret: secretOf(cs),
        provider: sandboxProvider(provider),
        action,
      });
      // Same origin on purpose: the CSP's form-action also governs the redirect after a post.
      const back = `/checkout/${encodeURIComponent(id)}?cs=${encodeURIComponent(secretOf(cs))}`;
      void reply.status(303).header('location', back).header('cache-control', 'no-store').send();
      return undefined;
    });
  }
}

const secretOf = (cs: unknown): string => {
  if (typeof cs !== 'string' || cs.length === 0 || cs.length > 255) {
    throw new DomainError('not_found', 'No such payment.');
  }
  return cs;
};

/** The sandbox imitates the providers a customer can pick. */
const sandboxProvider = (provider: string): CustomerProvider => {
  const known = CUSTOMER_PROVIDERS.find((candidate) => candidate === provider);
  if (known === undefined) throw new DomainError('not_found', 'No such page.');
  return known;
};

function messageFor(error: DomainError): { title: string; message: string } {
  switch (error.code) {
    case 'not_found':
      return {
        title: 'Paiement introuvable',
        message:
          'Ce lien de paiement est invalide ou incomplet. Revenez chez le marchand pour réessayer.',
      };
    case 'invalid_state':
      return { title: 'Paiement déjà traité', message: error.message };
    case 'unavailable':
      return {
        title: 'Service momentanément indisponible',
        message: 'Réessayez dans quelques instants.',
      };
    default:
      return { title: 'Une erreur est survenue', message: 'Réessayez dans quelques instants.' };
  }
}
