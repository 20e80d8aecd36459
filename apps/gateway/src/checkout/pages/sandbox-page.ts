import { formatXof, markup, renderDocument } from '../../pages';
import { PROVIDER_NAMES, type SandboxProvider } from './customer-payment-view';

export interface SandboxPageInput {
  payment: {
    id: string;
    amount: number;
    description: string | null;
    merchantName: string;
    provider: SandboxProvider;
  };
  clientSecret: string;
  nonce: string;
}

/**
 * The test-mode stand-in for the provider's own page (CONTRACT 6). Plain forms, no script: the
 * two handlers must answer with a redirect to this origin (see `contentSecurityPolicy`).
 */
export function renderSandboxPage({ payment, clientSecret, nonce }: SandboxPageInput): string {
  const name = PROVIDER_NAMES[payment.provider];
  const action = (verb: 'approve' | 'decline') =>
    `/sandbox/${encodeURIComponent(payment.provider)}/${encodeURIComponent(payment.id)}/${verb}` +
    `?cs=${encodeURIComponent(clientSecret)}`;
  const main = markup`<main class="card">
<p class="sandbox-banner sandbox-${payment.provider}">SANDBOX · MODE TEST</p>
<h1>Sandbox ${name}</h1>
<p class="lead">Cette page remplace ${name} en mode test : choisissez la réponse du fournisseur. Aucun argent réel n'est débité.</p>
<dl class="summary">
<dt>Marchand</dt><dd>${payment.merchantName}</dd>
<dt>Montant</dt><dd>${formatXof(payment.amount)}</dd>
${payment.description ? markup`<dt>Description</dt><dd>${payment.description}</dd>` : ''}
<dt>Paiement</dt><dd class="code">${payment.id}</dd>
</dl>
<div class="actions">
<form method="post" action="${action('approve')}"><button type="submit" class="button button-approve" data-action="approve">Approuver le paiement</button></form>
<form method="post" action="${action('decline')}"><button type="submit" class="button button-decline" data-action="decline">Refuser le paiement</button></form>
</div>
</main>`;
  return renderDocument({ title: `Sandbox ${name}`, nonce, main });
}
