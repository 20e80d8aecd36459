import { existsSync } from 'node:fs';
import { describeNeeding } from '@xaalis/pg-testing';

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
