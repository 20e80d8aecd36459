import { type SafeHtml, trusted } from './html';

export type IconName = 'succeeded' | 'failed' | 'expired' | 'refunded' | 'message';

const MARKS: Record<IconName, string> = {
  succeeded: '<path d="M19 33l9 9 17-19"/>',
  failed: '<path d="M23 23l18 18M41 23L23 41"/>',
  expired: '<path d="M32 17v16l10 7"/>',
  refunded: '<path d="M21 29a12 12 0 1 1 3 12"/><path d="M19 19v11h11"/>',
  message: '<path d="M32 17v19"/><path d="M32 46v1"/>',
};

/** Inline SVG, so no image request; decorative, the heading next to it says the same. */
export const icon = (name: IconName): SafeHtml =>
  trusted(
    `<svg class="icon icon-${name}" viewBox="0 0 64 64" aria-hidden="true" focusable="false">` +
      '<circle cx="32" cy="32" r="30" fill="currentColor"/>' +
      `<g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round">${MARKS[name]}</g>` +
      '</svg>',
  );
