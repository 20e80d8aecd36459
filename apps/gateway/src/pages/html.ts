/** Markup that is already safe to place in a document: built by `markup` or from a trusted constant. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/** What `markup` accepts between `${}`; `null`, `undefined` and `false` render nothing. */
export type HtmlValue =
  SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in text and in quoted attribute values (every attribute here is double-quoted). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

/**
 * Template tag that escapes every interpolated value unless it is already `SafeHtml`, so a page
 * cannot forget to escape: a plain string from the API can only ever become text. Not named
 * `html`: Prettier reformats templates with that tag as HTML, inline script bodies included.
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new SafeHtml(out);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Only for constants written in the page code (the inline CSS, a page's script), never for data. */
export const trusted = (text: string): SafeHtml => new SafeHtml(text);

const SCRIPT_BREAKERS: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON to place inside a `<script>` element. The HTML parser ends a script at `</script` and
 * changes state at `<!--`, whatever JSON quoting says, so `<` and `>` never appear raw; `&` is
 * escaped too so the text reads the same if it ever lands in an attribute; U+2028/2029 are line
 * terminators in older JavaScript engines. All of these are valid JSON escapes, so
 * `JSON.parse` returns the original value.
 */
export function jsonForScript(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.replace(/[<>&\u2028\u2029]/g, (char) => SCRIPT_BREAKERS[char]);
}
