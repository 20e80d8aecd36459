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

/**
 * The cases of `safeHttpUrl`'s rule, for it and for every copy of the rule in a page's script
 * (the checkout's `navigableUrl`), so the server and the browser cannot drift apart.
 */
export function itKeepsOnlyHttpUrls(check: (url: string) => string | null): void {
  it.each(ACCEPTED)('accepts %p as given', (url) => {
    expect(check(url)).toBe(url);
  });

  it.each(REFUSED)('refuses %p', (url) => {
    expect(check(url)).toBeNull();
  });
}
