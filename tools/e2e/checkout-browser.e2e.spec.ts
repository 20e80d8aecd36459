import type { Browser } from 'playwright-core';
import { expectLedgerBalanced } from '@xaalis/ledger';
import {
  describeWithChromium,
  launchChromium,
} from '../../apps/gateway/src/pages/testing/describe-with-chromium';
import { startMerchantSite } from '../../apps/gateway/src/checkout/pages/testing/stub-gateway';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import { newTestMerchant } from './support/merchant';

/**
 * Issue 3: the hosted checkout through the real service, in headless Chromium as a phone would
 * show it: pick a provider, approve in the sandbox, land on the merchant's success URL, and the
 * payment is `succeeded` with its net credited.
 */
describeWithChromium('hosted checkout in Chromium, through the service', (executablePath) => {
  let service: InProcessService;
  let browser: Browser;
  let merchantSite: { origin: string; stop: () => Promise<void> };

  beforeAll(async () => {
    service = await startInProcessService();
    merchantSite = await startMerchantSite();
    browser = await launchChromium(executablePath);
  });

  afterAll(async () => {
    await browser?.close();
    await merchantSite?.stop();
    if (service) await expectLedgerBalanced(service.db.pool);
    await service?.close();
  });

  const open = () =>
    browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  it('picks Wave, approves in the sandbox, lands on the success URL, payment succeeded', async () => {
    const merchant = await newTestMerchant(service.http, 'Boutique Keur Awa');
    const created = await service.http.request('POST', '/v1/payments', {
      bearer: merchant.testKey,
      body: {
        amount: 15_000,
        description: 'Panier #42',
        success_url: `${merchantSite.origin}/success`,
        cancel_url: `${merchantSite.origin}/cancel`,
      },
    });
    expect(created.status).toBe(201);
    const page = await open();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.setDefaultTimeout(20_000);

    await page.goto(created.body.checkout_url);
    await expect(page.textContent('body')).resolves.toContain('Boutique Keur Awa');
    await expect(page.textContent('body')).resolves.toMatch(/15\s000\sFCFA/);
    await page.click('[data-provider="wave"]');
    await page.waitForURL(/\/sandbox\/wave\/pay_/);
    await page.click('[data-action="approve"]');
    await page.waitForURL(`${merchantSite.origin}/success`);

    const payment = await service.http.request('GET', `/v1/payments/${created.body.id}`, {
      bearer: merchant.testKey,
    });
    expect(payment.body).toMatchObject({
      status: 'succeeded',
      provider: 'wave',
      fee: 150,
      net: 14_850,
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('declines in the sandbox and lands on the cancel URL, payment failed', async () => {
    const merchant = await newTestMerchant(service.http);
    const created = await service.http.request('POST', '/v1/payments', {
      bearer: merchant.testKey,
      body: { amount: 2_500, cancel_url: `${merchantSite.origin}/cancel` },
    });
    const page = await open();
    page.setDefaultTimeout(20_000);
    await page.goto(created.body.checkout_url);
    await page.click('[data-provider="orange_money"]');
    await page.waitForURL(/\/sandbox\/orange_money\/pay_/);
    await page.click('[data-action="decline"]');
    await page.waitForURL(`${merchantSite.origin}/cancel`);
    const payment = await service.http.request('GET', `/v1/payments/${created.body.id}`, {
      bearer: merchant.testKey,
    });
    expect(payment.body).toMatchObject({ status: 'failed', failure_reason: 'declined' });
    await page.close();
  });
});
