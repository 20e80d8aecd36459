import { contentSecurityPolicy, renderMessagePage } from '../../pages';
import { startTags, TEST_NONCE } from '../../pages/testing/page-markup';
import { renderCheckoutPage } from './checkout-page';
import type { CustomerPaymentView } from './customer-payment-view';
import { renderSandboxPage } from './sandbox-page';
import { newCustomerView } from './testing/new-customer-view';

const checkout = (view: Partial<CustomerPaymentView>) =>
  renderCheckoutPage({
    view: newCustomerView(view),
    clientSecret: 'pay_1_secret_abc',
    nonce: TEST_NONCE,
  });

const PAGES: [string, string][] = [
  ['checkout, choosing', checkout({})],
  [
    'checkout, processing',
    checkout({
      status: 'processing',
      provider: 'wave',
      next_action: { type: 'redirect', url: 'https://pay.wave.com/c/x' },
    }),
  ],
  ['checkout, succeeded', checkout({ status: 'succeeded', livemode: true })],
  ['checkout, failed', checkout({ status: 'failed', return_url: null })],
  [
    'sandbox',
    renderSandboxPage({
      payment: { id: 'pay_1', amount: 5, description: null, merchantName: 'M', provider: 'wave' },
      clientSecret: 'cs',
      nonce: TEST_NONCE,
    }),
  ],
  [
    'message',
    renderMessagePage({ title: 'Lien invalide', message: 'x', nonce: TEST_NONCE, status: 400 }),
  ],
];

/** The rules the CSP enforces in the browser, checked on the markup before any browser sees it. */
describe.each(PAGES)('%s page', (_name, page) => {
  const tags = startTags(page);

  it('is a complete French document that fits a phone screen', () => {
    expect(page.startsWith('<!doctype html>\n<html lang="fr">')).toBe(true);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('puts the nonce of its policy on every script and style element, and nowhere else', () => {
    const inline = tags.filter((t) => t.name === 'script' || t.name === 'style');
    expect(inline.length).toBeGreaterThan(0);
    expect(inline.every((t) => t.attrs.nonce === TEST_NONCE)).toBe(true);
    expect(page.split(TEST_NONCE)).toHaveLength(inline.length + 1);
    expect(contentSecurityPolicy(TEST_NONCE)).toContain(`'nonce-${TEST_NONCE}'`);
  });

  it('has no other inline script or style: no handlers, no javascript: URLs, no style attributes', () => {
    const attrs = tags.flatMap((t) => Object.entries(t.attrs));
    expect(attrs.filter(([key]) => key.startsWith('on'))).toEqual([]);
    expect(attrs.filter(([key]) => key === 'style')).toEqual([]);
    expect(attrs.filter(([, value]) => /^\s*javascript:/i.test(value))).toEqual([]);
  });

  it('loads nothing: no external script, stylesheet, font, image or frame', () => {
    expect(
      tags.filter((t) => ['link', 'img', 'iframe', 'object', 'embed', 'base'].includes(t.name)),
    ).toEqual([]);
    expect(tags.filter((t) => 'src' in t.attrs)).toEqual([]);
    expect(page).not.toMatch(/@import|url\(|@font-face/);
  });
});
