/**
 * The URL as given if a browser would open it over http(s), else null. Root-relative paths
 * (`/sandbox/…`) are accepted: they resolve against the page's own https origin. Whitespace and
 * control characters are refused outright because browsers strip some of them while parsing,
 * which can turn `/\t/evil.example` into the protocol-relative `//evil.example`.
 */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url || /[\u0000-\u0020\u007f-\u009f]/.test(url)) return null;
  if (url.startsWith('/')) return /^\/[/\\]/.test(url) ? null : url;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}
