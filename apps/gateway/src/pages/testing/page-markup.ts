/** A nonce of CSP's grammar with each of its symbols, so a page that mangles it shows. */
export const TEST_NONCE = 'rAnd0mN0nce+/value_-123';

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
