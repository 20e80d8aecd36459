import { contentSecurityPolicy } from '../../pages';
import {
  markupOnly,
  startTags,
  tagsWhere,
  TEST_NONCE,
  textOf,
} from '../../pages/testing/page-markup';
import { renderInvoicePage } from './invoice-page';
import { newPublicInvoice } from './testing/new-public-invoice';

const render = (overrides: Parameters<typeof newPublicInvoice>[0] = {}) =>
  renderInvoicePage({ view: newPublicInvoice(overrides), nonce: TEST_NONCE });

const payForms = (page: string) => tagsWhere(page, (t) => t.name === 'form');
const payButtons = (page: string) =>
  tagsWhere(page, (t) => t.name === 'button' && t.attrs['data-action'] === 'pay');

describe('renderInvoicePage', () => {
  it('shows merchant, amount in FCFA, description, period, frequency and due date, in French', () => {
    const page = render();
    expect(page).toContain('<html lang="fr">');
    expect(textOf(page)).toContain(
      'Facture de Boutique Awa 15\u202f000\u00a0FCFA Abonnement fibre ' +
        'Période du 1er novembre 2026 au 1er décembre 2026 Fréquence Chaque mois ' +
        'Échéance 4 novembre 2026 Statut À payer',
    );
  });

  it('writes the dates of the Dakar (UTC) calendar day', () => {
    const page = render({
      invoice: { period_start: '2026-12-31T23:30:00.000Z', due_at: '2027-01-03T23:30:00.000Z' },
    });
    expect(textOf(page)).toContain('du 31 décembre 2026');
    expect(textOf(page)).toContain('Échéance 3 janvier 2027');
  });

  it.each([
    ['day', 1, 'Chaque jour'],
    ['week', 2, 'Tous les 2 semaines'],
    ['month', 3, 'Tous les 3 mois'],
    ['year', 1, 'Chaque année'],
  ] as const)('says how often: %s × %p is %p', (interval, count, text) => {
    expect(textOf(render({ interval, interval_count: count }))).toContain(`Fréquence ${text}`);
  });

  it('leaves out the description when there is none', () => {
    expect(render({ description: null })).not.toContain('class="description"');
  });

  it('shows a TEST badge in test mode, none in live mode', () => {
    expect(textOf(render())).toContain('TEST Mode test');
    const live = render({ invoice: { livemode: true } });
    expect(live).not.toContain('class="badge"');
    expect(textOf(live)).not.toContain('TEST');
  });

  describe('escaping', () => {
    const evil = `<script>alert("x")</script>' onload='`;
    const page = render({ merchant_name: evil, description: '<img src=x onerror=steal()>' });

    it('turns a merchant name and a description with markup and quotes into inert text', () => {
      expect(markupOnly(page)).not.toContain('<script>alert');
      expect(markupOnly(page)).not.toContain('<img');
      expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onload=&#39;');
      expect(page).toContain('&lt;img src=x onerror=steal()&gt;');
      expect(page).toContain('<title>Facture de &lt;script&gt;');
      expect(textOf(page)).toContain(`Facture de ${evil}`);
    });

    it('escapes the merchant name where the page names it again', () => {
      const gone = render({
        merchant_name: evil,
        payable: false,
        invoice: { status: 'uncollectible' },
      });
      expect(markupOnly(gone)).not.toContain('<script>alert');
      expect(textOf(gone)).toContain(`contactez ${evil}.`);
    });

    it('encodes the invoice id in the form action', () => {
      const [form] = payForms(render({ invoice: { id: 'in_1"/><b>x' } }));
      expect(form.attrs.action).toBe('/invoices/in_1%22%2F%3E%3Cb%3Ex/pay');
    });
  });

  describe('payable', () => {
    const page = render({ invoice: { id: 'in_01JD8ZP5V6W7X8Y9Z0A1B2C3D40000' } });

    it('has one "Payer" button, in a form that posts to this origin with no field', () => {
      const [form, ...others] = payForms(page);
      expect(others).toEqual([]);
      expect(form.attrs).toMatchObject({
        method: 'post',
        action: '/invoices/in_01JD8ZP5V6W7X8Y9Z0A1B2C3D40000/pay',
      });
      expect(payButtons(page)).toHaveLength(1);
      expect(textOf(page)).toContain('Payer Vous choisirez Wave ou Orange Money');
      expect(tagsWhere(page, (t) => 'name' in t.attrs && t.name !== 'meta')).toEqual([]);
    });

    it('needs no script', () => {
      expect(tagsWhere(page, (t) => t.name === 'script')).toEqual([]);
    });

    it('says nothing of lateness before the due date', () => {
      expect(textOf(page)).toContain('Échéance 4 novembre 2026 Statut À payer');
      expect(textOf(page)).not.toContain('Date limite');
    });

    it('stays payable while overdue in grace, says it is late and the last day to pay', () => {
      const overdue = render({ invoice: { reminders_sent: 2 }, payable: true, overdue: true });
      expect(payButtons(overdue)).toHaveLength(1);
      expect(textOf(overdue)).toContain(
        'Échéance 4 novembre 2026 Date limite 18 novembre 2026 Statut En retard',
      );
    });
  });

  describe('paid', () => {
    it('says "Payée" with the date it was paid, and offers no button', () => {
      const page = render({
        payable: false,
        invoice: { status: 'paid', paid_at: '2026-11-03T14:05:00.000Z' },
      });
      expect(textOf(page)).toContain('Statut Payée');
      expect(textOf(page)).toContain('Payée Facture payée le 3 novembre 2026. Merci !');
      expect(payForms(page)).toEqual([]);
    });

    it('still says "Payée" without a date', () => {
      const page = render({ payable: false, invoice: { status: 'paid', paid_at: null } });
      expect(textOf(page)).toContain('Cette facture a été payée.');
    });
  });

  describe.each([
    ['open, past grace', 'open', 'Délai de paiement dépassé', 'Le délai de paiement est dépassé.'],
    ['uncollectible', 'uncollectible', 'Impayée', 'Le délai de paiement est dépassé.'],
    ['void', 'void', 'Annulée', 'Cette facture a été annulée.'],
  ] as const)('no longer payable: %s', (_name, status, label, why) => {
    const page = render({ payable: false, invoice: { status } });

    it('says it can no longer be paid, why, and whom to ask; no button', () => {
      expect(textOf(page)).toContain(`Statut ${label}`);
      expect(textOf(page)).toContain(
        `Cette facture ne peut plus être payée ${why} Pour toute question, contactez Boutique Awa.`,
      );
      expect(payForms(page)).toEqual([]);
      expect(payButtons(page)).toEqual([]);
    });
  });

  it('offers no button for an invoice billing says is not payable, whatever its status', () => {
    expect(payForms(render({ payable: false }))).toEqual([]);
  });
});

/** The rules the CSP enforces in the browser, as the checkout pages' spec checks them. */
describe.each([
  ['payable', render()],
  ['overdue', render({ overdue: true })],
  [
    'paid',
    render({ payable: false, invoice: { status: 'paid', paid_at: '2026-11-03T14:05:00.000Z' } }),
  ],
  ['void', render({ payable: false, invoice: { status: 'void' } })],
])('%s invoice page', (_name, page) => {
  const tags = startTags(page);

  it('is a complete French document that fits a phone screen', () => {
    expect(page.startsWith('<!doctype html>\n<html lang="fr">')).toBe(true);
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('puts the nonce of its policy on its style element, and nowhere else', () => {
    const inline = tags.filter((t) => t.name === 'script' || t.name === 'style');
    expect(inline.every((t) => t.attrs.nonce === TEST_NONCE)).toBe(true);
    expect(page.split(TEST_NONCE)).toHaveLength(inline.length + 1);
    expect(contentSecurityPolicy(TEST_NONCE)).toContain(`'nonce-${TEST_NONCE}'`);
  });

  it('has no handlers, no javascript: URLs, no style attributes, and loads nothing', () => {
    const attrs = tags.flatMap((t) => Object.entries(t.attrs));
    expect(attrs.filter(([key]) => key.startsWith('on') || key === 'style')).toEqual([]);
    expect(attrs.filter(([, value]) => /^\s*javascript:/i.test(value))).toEqual([]);
    expect(tags.filter((t) => ['link', 'img', 'iframe', 'script'].includes(t.name))).toEqual([]);
    expect(tags.filter((t) => 'src' in t.attrs)).toEqual([]);
  });
});
