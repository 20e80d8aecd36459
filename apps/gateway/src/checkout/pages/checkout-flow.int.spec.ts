import { type Browser, chromium, type Page } from 'playwright-core';
import { describeWithChromium } from '../../pages/testing/describe-with-chromium';
import { newCustomerView } from './testing/new-customer-view';
import { startMerchantSite, StubGateway } from './testing/stub-gateway';

/**
 * The pages in Chromium at 360 px, served with their real CSP header: proves that the nonce lets
 * the script run, that nothing else is blocked, and that the flow of CONTRACT 6 works end to end
 * from the customer's side (pick, sandbox, come back, be sent on).
 */
describeWithChromium('hosted checkout pages in Chromium', (executablePath) => {
  const CS = 'pay_01JDQ6Z8V9K3M4N5P6Q7R8S9T0_secret_a+b/c=';
  let browser: Browser;
  let merchant: { origin: string; stop: () => Promise<void> };
  let gateway: StubGateway;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    merchant = await startMerchantSite();
  });

  afterAll(async () => {
    await browser?.close();
    await merchant?.stop();
  });

  beforeEach(async () => {
    gateway = new StubGateway(newCustomerView({ return_url: null }), CS);
    gateway.successUrl = `${merchant.origin}/success`;
    gateway.cancelUrl = `${merchant.origin}/cancel`;
    await gateway.start();
    page = await browser.newPage({
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    // A bound on each wait so that a broken page fails with Playwright's message, not jest's timeout.
    page.setDefaultTimeout(15_000);
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });

  afterEach(async () => {
    await page.close();
    await gateway.stop();
  });

  const openCheckout = () => page.goto(`${gateway.origin}${gateway.checkoutPath}`);

  it('pays with Wave through the sandbox and lands on the merchant site, another origin', async () => {
    await openCheckout();
    // A string: the repo's TypeScript has no DOM types.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(360);
    const wave = page.getByRole('button', { name: 'Payer avec Wave' });
    expect((await wave.boundingBox())?.height).toBeGreaterThanOrEqual(48);

    await page.getByLabel('Numéro de téléphone').fill('77 123 45 67');
    await page.locator('[data-provider="wave"]').click();
    await page.waitForURL(/\/sandbox\/wave\//);
    expect(gateway.payCalls).toEqual([{ provider: 'wave', phone: '+221771234567' }]);
    expect(await page.title()).toBe('Sandbox Wave');

    await page.locator('[data-action="approve"]').click();
    await page.getByRole('heading', { name: 'Paiement réussi' }).waitFor();
    await page.getByText('Redirection automatique dans').waitFor();
    await page.waitForURL(`${merchant.origin}/success`);
    expect(consoleErrors).toEqual([]);
  });

  it('sends no phone when the field is left empty', async () => {
    await openCheckout();
    await page.locator('[data-provider="orange_money"]').click();
    await page.waitForURL(/\/sandbox\/orange_money\//);
    expect(gateway.payCalls).toEqual([{ provider: 'orange_money' }]);
  });

  it('polls while the provider confirms and shows the decline, with no return button when return_url is null', async () => {
    gateway.view = { ...gateway.view, status: 'processing', provider: 'orange_money' };
    await openCheckout();
    await page.getByRole('heading', { name: 'En attente de confirmation' }).waitFor();

    gateway.view = { ...gateway.view, status: 'failed', return_url: null };
    await page.getByRole('heading', { name: 'Paiement échoué' }).waitFor();
    expect(await page.locator('[data-action="return"]').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('refuses a phone that is not Senegalese before calling the API', async () => {
    await openCheckout();
    await page.getByLabel('Numéro de téléphone').fill('06 12 34 56 78');
    await page.locator('[data-provider="wave"]').click();
    await page.getByText('Numéro invalide').waitFor();
    expect(await page.getByLabel('Numéro de téléphone').getAttribute('aria-invalid')).toBe('true');
    expect(gateway.payCalls).toEqual([]);
  });

  it('shows pay-step errors inline and lets the customer try again', async () => {
    gateway.payReply = {
      status: 409,
      body: { error: { code: 'invalid_state', message: 'Payment is processing' } },
    };
    await openCheckout();
    await page.locator('[data-provider="wave"]').click();
    const alert = page.getByRole('alert');
    await alert.getByText('ne peut plus être réglé').waitFor();
    await page.getByRole('button', { name: 'Actualiser la page' }).waitFor();
    expect(await page.locator('[data-provider="wave"]').isEnabled()).toBe(true);

    gateway.payReply = {
      status: 429,
      body: { error: { code: 'rate_limited', message: 'Too many requests' } },
      headers: { 'retry-after': '7' },
    };
    await page.locator('[data-provider="orange_money"]').click();
    await alert.getByText('Réessayez dans 7 s.').waitFor();
    expect(await page.getByRole('button', { name: 'Actualiser la page' }).isHidden()).toBe(true);
    expect(gateway.payCalls).toHaveLength(2);
    // The two error responses themselves are logged by Chromium; nothing else may be.
    expect(consoleErrors.filter((text) => !/status of (409|429)/.test(text))).toEqual([]);
  });

  it("is why the sandbox must redirect to the checkout: Chromium's form-action blocks a post that redirects away", async () => {
    gateway.sandboxRedirect = 'merchant';
    await openCheckout();
    await page.locator('[data-provider="wave"]').click();
    await page.waitForURL(/\/sandbox\/wave\//);
    const blocked = page.waitForEvent('console', {
      predicate: (message) => /form-action/.test(message.text()),
    });
    await page.locator('[data-action="approve"]').click();
    // Chromium names the form's own (same-origin) URL, to hide where the redirect pointed; that
    // the post itself went through shows that the redirect is what was blocked.
    expect((await blocked).text()).toContain("form-action 'self'\". The request has been blocked.");
    expect(gateway.view.status).toBe('succeeded');
    expect(page.url()).not.toContain(merchant.origin);
  });
});
