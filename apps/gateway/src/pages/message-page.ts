import { markup } from './html';
import { icon } from './icons';
import { renderDocument } from './page-layout';

export interface MessagePageInput {
  title: string;
  message: string;
  nonce: string;
  /** The HTTP status the page is sent with, shown small for support ("Erreur 404"). */
  status?: number;
}

/** For what a customer cannot fix on the page: unknown payment, wrong or missing `cs`. */
export function renderMessagePage({ title, message, nonce, status }: MessagePageInput): string {
  const main = markup`<main class="card state">
${icon('message')}
<h1>${title}</h1>
<p>${message}</p>
${status === undefined ? '' : markup`<p class="hint">Erreur ${status}</p>`}
</main>`;
  return renderDocument({ title, nonce, main });
}
