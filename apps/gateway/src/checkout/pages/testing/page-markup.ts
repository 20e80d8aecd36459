import { runInNewContext } from 'node:vm';
import { CHECKOUT_HELPERS_JS } from '../checkout-script';

export interface Tag {
  name: string;
  attrs: Record<string, string>;
}

const decode = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The document with the bodies of `<script>` and `<style>` emptied: only markup is left. */
export const markupOnly = (html: string): string =>
  html.replace(/(<(script|style)\b[^>]*>)[\s\S]*?(<\/\2>)/gi, '$1$3');

/** Every start tag of the markup, attribute values decoded. */
export function startTags(html: string): Tag[] {
  return [...markupOnly(html).matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>/g)].map(
    ([, name, rest]) => ({
      name: name.toLowerCase(),
      attrs: Object.fromEntries(
        [...rest.matchAll(/([^\s="'/]+)(?:="([^"]*)")?/g)].map(([, key, value]) => [
          key.toLowerCase(),
          decode(value ?? ''),
        ]),
      ),
    }),
  );
}

export const tagsWhere = (html: string, predicate: (tag: Tag) => boolean): Tag[] =>
  startTags(html).filter(predicate);

/** The text inside `<script type="application/json" id=…>`, parsed. */
export function dataBlock(html: string, id: string): unknown {
  const match = new RegExp(
    `<script type="application/json" id="${id}"[^>]*>([\\s\\S]*?)</script>`,
  ).exec(html);
  if (!match) throw new Error(`no data block ${id}`);
  return JSON.parse(match[1]);
}

/** Visible text of the markup, tags dropped, entities decoded, ASCII white space collapsed. */
export const textOf = (html: string): string =>
  decode(markupOnly(html).replace(/<[^>]*>/g, ' '))
    .replace(/[ \t\r\n]+/g, ' ')
    .trim();

export interface CheckoutHelpers {
  normalizePhone(raw: string): string;
  isValidPhone(phone: string): boolean;
  navigableUrl(url: unknown): string | null;
  payErrorMessage(code: unknown, retryAfterSeconds: number): string;
}

/** The helpers exactly as the browser gets them, run in a fresh context. */
export const checkoutHelpers = (): CheckoutHelpers =>
  runInNewContext(
    `${CHECKOUT_HELPERS_JS}\n({ normalizePhone, isValidPhone, navigableUrl, payErrorMessage })`,
    { URL },
  ) as CheckoutHelpers;
