import {
  dataScript,
  formatXof,
  icon,
  markup,
  renderDocument,
  type SafeHtml,
  safeHttpUrl,
  script,
} from '../../pages';
import { CUSTOMER_PROVIDERS, PHONE_PATTERN } from '@xaalis/kernel';
import { CHECKOUT_SCRIPT_JS } from './checkout-script';
import {
  type CustomerPaymentView,
  type CustomerProvider,
  PROVIDER_NAMES,
  type SandboxProvider,
} from './customer-payment-view';

export interface CheckoutPageInput {
  view: CustomerPaymentView;
  /** The `cs` the page was opened with; the page's API calls carry it. */
  clientSecret: string;
  nonce: string;
}

/** The hosted checkout `/checkout/{id}?cs=…` (CONTRACT 6), in whatever state the payment is. */
export function renderCheckoutPage({ view, clientSecret, nonce }: CheckoutPageInput): string {
  const main = markup`<main class="card">
${view.livemode ? '' : testBanner()}
<p class="eyebrow">Paiement à</p>
<h1>${view.merchant.name}</h1>
<p class="amount">${formatXof(view.amount)}</p>
${view.description ? markup`<p class="description">${view.description}</p>` : ''}
${stateSection(view)}
</main>`;
  return renderDocument({
    title: `Paiement à ${view.merchant.name}`,
    nonce,
    main,
    scripts: [
      dataScript(nonce, 'checkout-data', { view, ...publicApiUrls(view.id, clientSecret) }),
      script(nonce, CHECKOUT_SCRIPT_JS),
    ],
  });
}

/** Same origin as the page, so `connect-src 'self'` covers them. */
function publicApiUrls(paymentId: string, clientSecret: string) {
  const base = `/v1/public/payments/${encodeURIComponent(paymentId)}`;
  const cs = `?cs=${encodeURIComponent(clientSecret)}`;
  return { payUrl: `${base}/pay${cs}`, statusUrl: `${base}${cs}` };
}

const testBanner = (): SafeHtml =>
  markup`<p class="test-banner"><span class="badge">TEST</span> Mode test : aucun argent réel n'est débité.</p>`;

function stateSection(view: CustomerPaymentView): SafeHtml {
  switch (view.status) {
    case 'requires_payment_method':
      return picker(view.available_providers);
    case 'processing':
      return processing(view);
    case 'succeeded':
    case 'failed':
    case 'expired':
    case 'refunded':
      return terminal(view, view.status);
    default: {
      const unknown: never = view.status;
      throw new Error(`unknown payment status ${String(unknown)}`);
    }
  }
}

function picker(available: readonly string[]): SafeHtml {
  // The API's order is kept; anything unknown or repeated is dropped rather than shown broken.
  const providers = CUSTOMER_PROVIDERS.filter((p) => available.includes(p)).sort(
    (a, b) => available.indexOf(a) - available.indexOf(b),
  );
  if (providers.length === 0) {
    return markup`<p class="alert">Aucun moyen de paiement n'est disponible pour ce paiement. Contactez le marchand.</p>`;
  }
  const accounts = providers.map((p) => PROVIDER_NAMES[p]).join(' ou ');
  return markup`<form id="pay-form" class="section" novalidate>
<fieldset id="pay-fields" disabled>
<legend>Choisissez votre moyen de paiement</legend>
<div class="field">
<label for="phone">Numéro de téléphone <span class="optional">(facultatif)</span></label>
<input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" pattern="${PHONE_PATTERN.source}" placeholder="77 123 45 67" aria-describedby="phone-hint phone-error">
<p id="phone-hint" class="hint">Le numéro de votre compte ${accounts}.</p>
<p id="phone-error" class="field-error" hidden></p>
</div>
<div class="buttons">
${providers.map(payButton)}</div>
</fieldset>
<div id="pay-error" class="alert" role="alert" hidden>
<p id="pay-error-text"></p>
<button type="button" id="pay-refresh" class="button button-secondary" hidden>Actualiser la page</button>
</div>
</form>
<noscript><p class="alert">Activez JavaScript dans votre navigateur pour payer sur cette page.</p></noscript>`;
}

const payButton = (provider: CustomerProvider): SafeHtml =>
  markup`<button type="submit" class="button button-${provider}" data-provider="${provider}">Payer avec ${PROVIDER_NAMES[provider]}</button>\n`;

const CONFIRM_IN: Record<SandboxProvider, string> = {
  wave: 'Validez le paiement dans votre application Wave.',
  orange_money: 'Validez le paiement avec votre compte Orange Money.',
  mock: 'Validez le paiement sur la page de test.',
};

const CONTINUE_TO: Record<SandboxProvider, string> = {
  wave: 'Continuer vers Wave',
  orange_money: 'Continuer vers Orange Money',
  mock: 'Continuer vers la page de test',
};

function processing({ provider, next_action }: CustomerPaymentView): SafeHtml {
  const next = provider ? safeHttpUrl(next_action.url) : null;
  const instruction = provider
    ? CONFIRM_IN[provider]
    : 'Votre paiement est en cours de traitement.';
  return markup`<section class="section state" aria-live="polite">
<div class="spinner" aria-hidden="true"></div>
<h2>En attente de confirmation</h2>
<p>${instruction} Cette page se mettra à jour automatiquement.</p>
${provider && next ? markup`<a class="button button-secondary" href="${next}" data-action="continue">${CONTINUE_TO[provider]}</a>` : ''}
</section>`;
}

type TerminalStatus = 'succeeded' | 'failed' | 'expired' | 'refunded';

const OUTCOMES: Record<
  TerminalStatus,
  { title: string; text: (merchant: string, amount: string) => string }
> = {
  succeeded: {
    title: 'Paiement réussi',
    text: (merchant, amount) => `Merci ! ${merchant} a bien reçu votre paiement de ${amount}.`,
  },
  failed: {
    title: 'Paiement échoué',
    text: () => "Le paiement n'a pas abouti. Vous pouvez recommencer depuis le site du marchand.",
  },
  expired: {
    title: 'Paiement expiré',
    text: () =>
      'Le délai pour payer est dépassé. Vous pouvez recommencer depuis le site du marchand.',
  },
  refunded: {
    title: 'Paiement remboursé',
    text: (_merchant, amount) => `Ce paiement de ${amount} vous a été remboursé.`,
  },
};

function terminal(view: CustomerPaymentView, status: TerminalStatus): SafeHtml {
  const outcome = OUTCOMES[status];
  const back = safeHttpUrl(view.return_url);
  return markup`<section class="section state" role="status">
${icon(status)}
<h2>${outcome.title}</h2>
<p>${outcome.text(view.merchant.name, formatXof(view.amount))}</p>
${back ? returnLink(back, view.merchant.name) : ''}
</section>`;
}

/** The note stays hidden until the script, which does the redirect, shows it. */
const returnLink = (href: string, merchant: string): SafeHtml =>
  markup`<a class="button button-primary" href="${href}" data-action="return">Retour chez ${merchant}</a>
<p id="redirect-note" class="redirect-note" hidden>Redirection automatique dans <span id="redirect-seconds">3</span> s…</p>`;
