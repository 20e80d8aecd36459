import { Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BUS_CLIENT, CONFIG, type XaalisConfig } from '@xaalis/config';
import {
  BILLING_INVOICE_CHECKOUT,
  BILLING_INVOICE_PUBLIC_GET,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { RateLimit } from '@xaalis/http';
import { DomainError } from '@xaalis/kernel';
import { newCspNonce, safeHttpUrl, sendPage } from '../pages';
import { invoicePayPath, renderInvoicePage } from './pages/invoice-page';

/**
 * The hosted invoice page (CONTRACT 7), the stable `hosted_invoice_url` the customer is sent: no
 * credential, the unguessable invoice id is the customer's only handle, as the checkout's `cs` is.
 * HTML, so failures are pages too. Kept out of the OpenAPI document and limited per IP, as the
 * checkout pages are.
 */
@ApiExcludeController()
@Controller('invoices/:id/pay')
@RateLimit('ip')
export class InvoicePagesController {
  constructor(
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  @Get()
  async show(@Param('id') id: string, @Res() reply: FastifyReply) {
    const nonce = newCspNonce();
    await sendPage(reply, nonce, messageFor, async () => {
      const view = await request(this.bus, BILLING_INVOICE_PUBLIC_GET, { invoice_id: id });
      return renderInvoicePage({ view, nonce });
    });
  }

  /**
   * "Payer": billing starts (or resumes) the invoice's payment and answers with its hosted
   * checkout, where the customer picks a provider; its return link brings them back here. The
   * checkout is on this origin (`PUBLIC_BASE_URL`), which the CSP's `form-action 'self'` requires
   * of a redirect after a form post.
   */
  @Post()
  async pay(@Param('id') id: string, @Res() reply: FastifyReply) {
    const nonce = newCspNonce();
    await sendPage(reply, nonce, messageFor, async () => {
      const { checkout_url } = await request(this.bus, BILLING_INVOICE_CHECKOUT, {
        invoice_id: id,
        // Read on each use: with PORT=0 the composition root learns the port after listening.
        return_url: `${this.config.publicBaseUrl}${invoicePayPath(id)}`,
      });
      const location = safeHttpUrl(checkout_url);
      if (location === null) throw new DomainError('internal_error', 'No checkout to send to.');
      void reply
        .status(303)
        .header('location', location)
        .header('cache-control', 'no-store')
        .send();
      return undefined;
    });
  }
}

function messageFor(error: DomainError): { title: string; message: string } {
  switch (error.code) {
    case 'not_found':
      return {
        title: 'Facture introuvable',
        message: 'Ce lien de facture est invalide ou incomplet. Vérifiez le lien reçu du marchand.',
      };
    case 'invalid_state':
      return {
        title: 'Facture non payable',
        message:
          'Cette facture ne peut pas être payée maintenant. Rouvrez le lien de la facture pour voir où elle en est.',
      };
    case 'unavailable':
      return {
        title: 'Service momentanément indisponible',
        message: 'Réessayez dans quelques instants.',
      };
    default:
      return { title: 'Une erreur est survenue', message: 'Réessayez dans quelques instants.' };
  }
}
