import { renderCheckoutPage } from './checkout-page';
import type { CustomerPaymentView } from './customer-payment-view';
import {
  dataBlock,
  markupOnly,
  tagsWhere,
  TEST_NONCE,
  textOf,
} from '../../pages/testing/page-markup';
import { newCustomerView } from './testing/new-customer-view';

const render = (view: Partial<CustomerPaymentView> = {}, clientSecret = 'pay_1_secret_abc') =>
  renderCheckoutPage({ view: newCustomerView(view), clientSecret, nonce: TEST_NONCE });

const payButtons = (page: string) =>
  tagsWhere(page, (t) => t.name === 'button' && 'data-provider' in t.attrs);
const returnLinks = (page: string) =>
  tagsWhere(page, (t) => t.name === 'a' && t.attrs['data-action'] === 'return');

describe('renderCheckoutPage', () => {
  it('shows merchant, amount in FCFA and description, in French', () => {
    const page = render({ amount: 10_000, description: 'Commande 1042' });
    expect(page).toContain('<html lang="fr">');
    expect(textOf(page)).toContain('Paiement à Boutique Awa 10\u202f000\u00a0FCFA Commande 1042');
  });

  it('leaves out the description when there is none', () => {
    expect(render({ description: null })).not.toContain('class="description"');
  });

  describe('escaping', () => {
    const evil = `<script>alert("x")</script>' onload='`;
    const page = render({
      merchant: { name: evil },
      description: `</script><script>steal()</script>`,
    });

    it('turns a merchant name with markup and quotes into inert text', () => {
      expect(markupOnly(page)).not.toContain('<script>alert');
      expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onload=&#39;');
      expect(page).toContain(`<title>Paiement à &lt;script&gt;`);
    });

    it('embeds the view as JSON that cannot close its script element and parses back whole', () => {
      expect(page.match(/<script\b/g)).toHaveLength(2);
      expect(page.match(/<\/script>/g)).toHaveLength(2);
      const data = dataBlock(page, 'checkout-data') as { view: CustomerPaymentView };
      expect(data.view.merchant.name).toBe(evil);
      expect(data.view.description).toBe('</script><script>steal()</script>');
    });
  });

  describe('test mode', () => {
    it('shows a TEST badge when livemode is false', () => {
      expect(textOf(render({ livemode: false }))).toContain('TEST Mode test');
    });

    it('shows no badge in live mode', () => {
      const page = render({ livemode: true });
      expect(page).not.toContain('class="badge"');
      expect(textOf(page)).not.toContain('TEST');
    });
  });

  describe('choosing a method', () => {
    it('has one button per available provider, in the API order, with a stable data-provider', () => {
      const buttons = payButtons(render({ available_providers: ['orange_money', 'wave'] }));
      expect(buttons.map((b) => b.attrs['data-provider'])).toEqual(['orange_money', 'wave']);
      expect(textOf(render({ available_providers: ['orange_money', 'wave'] }))).toMatch(
        /Payer avec Orange Money Payer avec Wave/,
      );
    });

    it('shows only Wave when only Wave is available', () => {
      const page = render({ available_providers: ['wave'] });
      expect(payButtons(page).map((b) => b.attrs['data-provider'])).toEqual(['wave']);
      expect(textOf(page)).not.toContain('Orange Money');
    });

    it('drops unknown and repeated providers rather than show a broken button', () => {
      const available = [
        'wave',
        'paypal',
        'wave',
      ] as unknown as CustomerPaymentView['available_providers'];
      expect(payButtons(render({ available_providers: available }))).toHaveLength(1);
    });

    it('says so when no method is available', () => {
      const page = render({ available_providers: [] });
      expect(payButtons(page)).toHaveLength(0);
      expect(textOf(page)).toContain("Aucun moyen de paiement n'est disponible");
    });

    it('offers an optional phone field with the API pattern', () => {
      const [phone] = tagsWhere(render(), (t) => t.name === 'input');
      expect(phone.attrs).toMatchObject({ id: 'phone', type: 'tel', pattern: '^\\+2217[0-9]{8}$' });
      expect(phone.attrs).not.toHaveProperty('required');
    });

    it('keeps the controls disabled until the script enables them, and tells a no-script browser why', () => {
      const page = render();
      expect(tagsWhere(page, (t) => t.name === 'fieldset')[0].attrs).toHaveProperty('disabled');
      expect(page).toContain('<noscript>');
    });

    it('gives the script the pay and status URLs with the client secret encoded', () => {
      const page = render({ id: 'pay_1' }, 'pay_1_secret_a+b/c=&d');
      expect(dataBlock(page, 'checkout-data')).toMatchObject({
        payUrl: '/v1/public/payments/pay_1/pay?cs=pay_1_secret_a%2Bb%2Fc%3D%26d',
        statusUrl: '/v1/public/payments/pay_1?cs=pay_1_secret_a%2Bb%2Fc%3D%26d',
      });
    });
  });

  describe('processing', () => {
    const sandbox = '/sandbox/wave/pay_1?cs=pay_1_secret_abc';

    it('waits for confirmation, with a link to continue at the provider', () => {
      const page = render({
        status: 'processing',
        provider: 'wave',
        next_action: { type: 'redirect', url: sandbox },
      });
      expect(textOf(page)).toContain('En attente de confirmation');
      const [link] = tagsWhere(page, (t) => t.attrs['data-action'] === 'continue');
      expect(link).toMatchObject({ name: 'a', attrs: { href: sandbox } });
      expect(textOf(page)).toContain('Continuer vers Wave');
      expect(payButtons(page)).toHaveLength(0);
    });

    it('offers no link to a URL that is not http(s)', () => {
      const page = render({
        status: 'processing',
        provider: 'orange_money',
        next_action: { type: 'redirect', url: 'javascript:alert(1)' },
      });
      expect(tagsWhere(page, (t) => t.attrs['data-action'] === 'continue')).toHaveLength(0);
      expect(markupOnly(page)).not.toContain('javascript:');
    });

    it('offers no link before a provider is chosen', () => {
      const page = render({ status: 'processing', provider: null });
      expect(tagsWhere(page, (t) => t.attrs['data-action'] === 'continue')).toHaveLength(0);
      expect(textOf(page)).toContain('en cours de traitement');
    });
  });

  describe.each([
    ['succeeded', 'Paiement réussi'],
    ['failed', 'Paiement échoué'],
    ['expired', 'Paiement expiré'],
    ['refunded', 'Paiement remboursé'],
  ] as const)('%s', (status, title) => {
    it(`says "${title}" and links back to the merchant, with the automatic redirect announced`, () => {
      const page = render({ status, return_url: 'https://shop.example/back?order=1&x=2' });
      expect(textOf(page)).toContain(title);
      expect(returnLinks(page).map((l) => l.attrs.href)).toEqual([
        'https://shop.example/back?order=1&x=2',
      ]);
      expect(page).toContain('href="https://shop.example/back?order=1&amp;x=2"');
      expect(textOf(page)).toContain('Retour chez Boutique Awa');
      expect(markupOnly(page)).toContain('id="redirect-note"');
      expect(payButtons(page)).toHaveLength(0);
    });

    it('has no return button and no redirect when return_url is null', () => {
      const page = render({ status, return_url: null });
      expect(textOf(page)).toContain(title);
      expect(returnLinks(page)).toHaveLength(0);
      expect(markupOnly(page)).not.toContain('redirect-note');
    });

    it('has no return button for a return_url that is not http(s)', () => {
      expect(returnLinks(render({ status, return_url: 'javascript:alert(1)' }))).toHaveLength(0);
    });
  });
});
