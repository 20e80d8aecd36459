import { assertCspNonce } from './content-security-policy';
import { markup, jsonForScript, type SafeHtml, trusted } from './html';
import { PAGE_CSS } from './page-styles';

export interface DocumentParts {
  title: string;
  nonce: string;
  main: SafeHtml;
  /** Trusted script bodies or data blocks, each already wrapped by `script` or `dataScript`. */
  scripts?: SafeHtml[];
}

/**
 * The whole document. `no-referrer` repeats the response header for the case where a page is
 * served without it: the URL holds a secret (the checkout's `cs`). `noindex`: a hosted page is nobody's landing page.
 */
export function renderDocument({ title, nonce, main, scripts = [] }: DocumentParts): string {
  assertCspNonce(nonce);
  return markup`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light">
<title>${title}</title>
<style nonce="${nonce}">${trusted(PAGE_CSS)}</style>
</head>
<body>
${main}
<footer class="footer">Paiement opéré par Xaalis</footer>
${scripts}
</body>
</html>
`.value;
}

/** An inline script from a constant of the page code; the nonce is what lets it run. */
export const script = (nonce: string, code: string): SafeHtml =>
  markup`<script nonce="${nonce}">${trusted(code)}</script>\n`;

/** A JSON data block: never executed, but it carries the nonce like every other script element. */
export const dataScript = (nonce: string, id: string, value: unknown): SafeHtml =>
  markup`<script type="application/json" id="${id}" nonce="${nonce}">${trusted(jsonForScript(value))}</script>\n`;
