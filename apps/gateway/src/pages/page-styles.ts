/**
 * One stylesheet for every page, inline (CSP allows it by nonce) and with system fonts only: a
 * phone on a slow connection in Dakar gets the whole page in one response. Mobile first; tap
 * targets are at least 48 px high. No `style=""` attributes anywhere: the nonce does not cover
 * them, so the CSP would drop them.
 */
export const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;
  padding:16px 12px 24px;background:#f2f4f7;color:#101828;
  font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.card{width:100%;max-width:440px;background:#fff;border-radius:16px;padding:24px 20px;
  box-shadow:0 1px 3px rgba(16,24,40,.1),0 1px 2px rgba(16,24,40,.06)}
.test-banner{margin:-24px -20px 20px;padding:8px 20px;border-radius:16px 16px 0 0;background:#fff4e5;
  color:#7a2e0e;font-size:14px;display:flex;gap:8px;align-items:center}
.badge{display:inline-block;padding:2px 8px;border-radius:6px;background:#b54708;color:#fff;
  font-size:12px;font-weight:700;letter-spacing:.06em}
.eyebrow{margin:0;color:#475467;font-size:14px}
h1{margin:2px 0 0;font-size:20px;line-height:1.3;overflow-wrap:anywhere}
h2{margin:0 0 8px;font-size:20px;line-height:1.3}
.amount{margin:16px 0 4px;font-size:36px;font-weight:700;line-height:1.15;
  font-variant-numeric:tabular-nums;letter-spacing:-.01em}
.description{margin:0;color:#475467;overflow-wrap:anywhere}
.section{margin-top:24px;padding-top:20px;border-top:1px solid #eaecf0}
fieldset{margin:0;padding:0;border:0;min-width:0}
legend{padding:0;margin-bottom:12px;font-weight:600}
label{display:block;font-weight:600;margin-bottom:6px}
.optional{font-weight:400;color:#475467}
input{width:100%;min-height:48px;padding:10px 12px;border:1px solid #98a2b3;border-radius:10px;
  font:inherit;font-size:18px;color:inherit;background:#fff}
input:focus{outline:3px solid #84adff;outline-offset:1px;border-color:#2e5bff}
input[aria-invalid="true"]{border-color:#d92d20}
.hint{margin:6px 0 0;color:#475467;font-size:14px}
.field{margin-bottom:20px}
.field-error{margin:6px 0 0;color:#b42318;font-size:14px;font-weight:600}
.buttons{display:grid;gap:12px}
.button{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:56px;
  padding:12px 16px;border:0;border-radius:12px;font:inherit;font-size:18px;font-weight:700;
  text-align:center;text-decoration:none;cursor:pointer;-webkit-tap-highlight-color:transparent}
.button:focus-visible{outline:3px solid #101828;outline-offset:2px}
.button:disabled{opacity:.55;cursor:default}
.button[aria-busy="true"]{opacity:.8}
.button-wave{background:#1dc8f2;color:#062c43}
.button-orange_money{background:#ff7900;color:#111}
.button-primary{background:#101828;color:#fff}
.button-secondary{background:#fff;color:#101828;border:2px solid #101828}
.button-approve{background:#067647;color:#fff}
.button-decline{background:#fff;color:#b42318;border:2px solid #b42318}
.alert{margin:16px 0 0;padding:12px 14px;border-radius:10px;background:#fef3f2;color:#912018;
  border:1px solid #fecdca}
.alert .button{margin-top:12px;min-height:48px;font-size:16px}
.state{text-align:center}
.state p{margin:0 0 16px;color:#344054}
.icon{width:64px;height:64px;margin:0 auto 12px;display:block}
.icon-succeeded{color:#067647}.icon-failed,.icon-expired{color:#b42318}.icon-refunded{color:#475467}
.icon-message{color:#b54708}
.spinner{width:48px;height:48px;margin:4px auto 16px;border-radius:50%;border:5px solid #eaecf0;
  border-top-color:#101828;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:3s}}
.redirect-note{margin:12px 0 0!important;font-size:14px;color:#475467!important}
.summary{margin:20px 0 0;display:grid;grid-template-columns:auto 1fr;gap:6px 16px}
.summary dt{color:#475467}
.summary dd{margin:0;font-weight:600;overflow-wrap:anywhere;min-width:0}
.sandbox-banner{margin:-24px -20px 20px;padding:10px 20px;border-radius:16px 16px 0 0;color:#fff;
  font-weight:700;letter-spacing:.04em}
.sandbox-wave{background:#0a7ea4}.sandbox-orange_money{background:#b54708}.sandbox-mock{background:#475467}
.actions{display:grid;gap:12px;margin-top:24px}
.actions form{margin:0}
.lead{margin:8px 0 0;color:#475467}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.footer{margin-top:16px;color:#667085;font-size:13px;text-align:center}
@media (min-width:480px){body{padding-top:48px}.card{padding:32px 28px}
  .test-banner,.sandbox-banner{margin:-32px -28px 24px;padding-left:28px;padding-right:28px}}
`;
