import { safeHttpUrl } from './safe-url';
import { checkoutHelpers } from './testing/page-markup';

const ACCEPTED = [
  'https://shop.example/merci?order=1&x=2',
  'http://127.0.0.1:3000/success',
  'HTTPS://SHOP.EXAMPLE/',
  '/sandbox/wave/pay_1?cs=pay_1_secret_x',
  '/checkout/pay_1',
];

const REFUSED = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'ftp://files.example/x',
  '//evil.example/x',
  '/\\evil.example/x',
  '/\t/evil.example',
  'https://shop.example/\nx',
  'shop.example/merci',
  '',
];

describe.each([
  ['safeHttpUrl (server)', safeHttpUrl],
  ['navigableUrl (browser script)', (url: string) => checkoutHelpers().navigableUrl(url)],
])('%s', (_name, check) => {
  it.each(ACCEPTED)('accepts %p as given', (url) => {
    expect(check(url)).toBe(url);
  });

  it.each(REFUSED)('refuses %p', (url) => {
    expect(check(url)).toBeNull();
  });
});

it('safeHttpUrl refuses null and undefined', () => {
  expect(safeHttpUrl(null)).toBeNull();
  expect(safeHttpUrl(undefined)).toBeNull();
});
