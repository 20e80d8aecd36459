/**
 * The gateway's page kit: the document, its styles and CSP, escaping, and the pieces every hosted
 * page shows (amounts, icons, links, the message page). The pages themselves live with their
 * routes (`checkout/pages`).
 */
export { contentSecurityPolicy, htmlPageHeaders, newCspNonce } from './content-security-policy';
export { formatXof } from './format-xof';
export { escapeHtml, type HtmlValue, jsonForScript, markup, SafeHtml, trusted } from './html';
export { icon, type IconName } from './icons';
export { renderMessagePage, type MessagePageInput } from './message-page';
export { dataScript, type DocumentParts, renderDocument, script } from './page-layout';
export { safeHttpUrl } from './safe-url';
export { sendPage } from './send-page';
