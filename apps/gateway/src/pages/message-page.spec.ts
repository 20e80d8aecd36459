import { renderMessagePage } from './message-page';
import { markupOnly, TEST_NONCE, textOf } from './testing/page-markup';

describe('renderMessagePage', () => {
  it('shows the title and the message, with the status when given', () => {
    const page = renderMessagePage({
      title: 'Paiement introuvable',
      message: "Ce lien n'est pas valide.",
      nonce: TEST_NONCE,
      status: 404,
    });
    expect(page).toContain('<title>Paiement introuvable</title>');
    expect(textOf(page)).toContain("Paiement introuvable Ce lien n'est pas valide. Erreur 404");
  });

  it('shows no status line without a status', () => {
    const page = renderMessagePage({ title: 'Lien invalide', message: 'x', nonce: TEST_NONCE });
    expect(textOf(page)).not.toContain('Erreur');
  });

  it('escapes title and message', () => {
    const page = renderMessagePage({
      title: '<b>t</b>',
      message: '<script>m()</script>',
      nonce: TEST_NONCE,
    });
    expect(markupOnly(page)).not.toMatch(/<b>|<script>m/);
    expect(textOf(page)).toContain('<b>t</b> <script>m()</script>');
  });
});
