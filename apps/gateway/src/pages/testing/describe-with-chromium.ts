import { existsSync } from 'node:fs';
import { describeNeeding } from '@xaalis/pg-testing';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The system Chromium, or null: playwright-core ships no browser of its own. */
export const chromiumPath = (): string | null =>
  CANDIDATES.find((path) => existsSync(path)) ?? null;

/**
 * `describe` for suites that drive a real browser. Without Chromium the suite is skipped with a
 * warning, or fails when XAALIS_REQUIRE_SERVICES=true (CI must not go green by skipping).
 */
export function describeWithChromium(name: string, fn: (executablePath: string) => void): void {
  const path = chromiumPath();
  const problem = path
    ? undefined
    : `no Chromium at ${CANDIDATES.join(', ')} (Debian/Ubuntu: apt-get install chromium)`;
  describeNeeding('Chromium', problem, name, () => fn(path ?? ''));
}

/** Headless Chromium with the flags these machines need (root, no GPU, no network chatter). */
export const launchChromium = (executablePath: string): Promise<Browser> =>
  chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });

/** A page the size of a phone (390 × 844, touch), collecting what its console reports as errors. */
export async function phonePage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.setDefaultTimeout(20_000);
  return { page, errors };
}
