import type { PublicInvoiceReply } from '@xaalis/contracts';
import type { BillingInterval, InvoiceStatus } from '@xaalis/kernel';
import { formatXof, icon, markup, renderDocument, type SafeHtml } from '../../pages';
import { formatFrenchDate } from './french-date';

export interface InvoicePageInput {
  view: PublicInvoiceReply;
  nonce: string;
}

/** Where the page's "Payer" form posts: this origin, as the CSP's `form-action 'self'` wants. */
export const invoicePayPath = (invoiceId: string): string =>
  `/invoices/${encodeURIComponent(invoiceId)}/pay`;

/**
 * The hosted invoice page `/invoices/{id}/pay` (the `hosted_invoice_url`, CONTRACT 7): what is
 * owed, to whom, for which period, and a "Payer" button while the invoice is payable; once overdue,
 * "En retard" and the last day it can be paid. Plain form, no script: the post answers with a
 * redirect to the hosted checkout, where the customer picks Wave or Orange Money. No clock here:
 * whether the invoice is still payable, or overdue, is billing's answer (`payable`, `overdue`),
 * which knows the subscription's own clock (test_advance moves it).
 */
export function renderInvoicePage({ view, nonce }: InvoicePageInput): string {
  const { invoice } = view;
  const main = markup`<main class="card">
${invoice.livemode ? '' : testBanner()}
<p class="eyebrow">Facture de</p>
<h1>${view.merchant_name}</h1>
<p class="amount">${formatXof(invoice.amount)}</p>
${view.description ? markup`<p class="description">${view.description}</p>` : ''}
<dl class="summary">
<dt>Période</dt><dd>du ${formatFrenchDate(invoice.period_start)} au ${formatFrenchDate(invoice.period_end)}</dd>
<dt>Fréquence</dt><dd>${frequency(view.interval, view.interval_count)}</dd>
<dt>Échéance</dt><dd>${formatFrenchDate(invoice.due_at)}</dd>
${view.overdue ? markup`<dt>Date limite</dt><dd>${formatFrenchDate(invoice.grace_ends_at)}</dd>` : ''}
<dt>Statut</dt><dd data-status="${invoice.status}">${statusLabel(view)}</dd>
</dl>
${stateSection(view)}
</main>`;
  return renderDocument({ title: `Facture de ${view.merchant_name}`, nonce, main });
}

const testBanner = (): SafeHtml =>
  markup`<p class="test-banner"><span class="badge">TEST</span> Mode test : aucun argent réel n'est débité.</p>`;

const EVERY: Record<BillingInterval, string> = {
  day: 'Chaque jour',
  week: 'Chaque semaine',
  month: 'Chaque mois',
  year: 'Chaque année',
};

const EVERY_N: Record<BillingInterval, string> = {
  day: 'jours',
  week: 'semaines',
  month: 'mois',
  year: 'ans',
};

function frequency(interval: BillingInterval, count: number): string {
  return count === 1 ? EVERY[interval] : `Tous les ${count} ${EVERY_N[interval]}`;
}

function statusLabel({ invoice, payable, overdue }: PublicInvoiceReply): string {
  const status = invoice.status;
  switch (status) {
    case 'open':
      if (!payable) return 'Délai de paiement dépassé';
      return overdue ? 'En retard' : 'À payer';
    case 'paid':
      return 'Payée';
    case 'void':
      return 'Annulée';
    case 'uncollectible':
      return 'Impayée';
    default: {
      const unknown: never = status;
      throw new Error(`unknown invoice status ${String(unknown)}`);
    }
  }
}

function stateSection({ invoice, merchant_name, payable }: PublicInvoiceReply): SafeHtml {
  if (invoice.status === 'paid') return paid(invoice.paid_at);
  if (invoice.status === 'open' && payable) return payForm(invoice.id);
  return notPayable(invoice.status, merchant_name);
}

/** No named control: the post has an empty body, which every route accepts whatever its type. */
const payForm = (invoiceId: string): SafeHtml =>
  markup`<form method="post" action="${invoicePayPath(invoiceId)}" class="section">
<button type="submit" class="button button-primary" data-action="pay">Payer</button>
<p class="hint">Vous choisirez Wave ou Orange Money à l'étape suivante.</p>
</form>`;

function paid(paidAt: string | null): SafeHtml {
  return markup`<section class="section state" role="status">
${icon('succeeded')}
<h2>Payée</h2>
<p>${paidAt ? `Facture payée le ${formatFrenchDate(paidAt)}.` : 'Cette facture a été payée.'} Merci !</p>
</section>`;
}

function notPayable(status: InvoiceStatus, merchant: string): SafeHtml {
  const why =
    status === 'void' ? 'Cette facture a été annulée.' : 'Le délai de paiement est dépassé.';
  return markup`<section class="section state" role="status">
${icon('expired')}
<h2>Cette facture ne peut plus être payée</h2>
<p>${why} Pour toute question, contactez ${merchant}.</p>
</section>`;
}
