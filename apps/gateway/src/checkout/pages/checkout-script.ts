import { PHONE_PATTERN } from '@xaalis/kernel';

/**
 * The checkout page's only script, shipped inline under the CSP nonce. Plain ES2015 with promise
 * chains (no optional chaining, no `event.submitter`) so it runs on the older Android browsers
 * still common in Senegal. The page is rendered on the server in every state; this script only
 * enables the method picker, polls while the provider confirms (reloading the page when the state
 * changes, so there is one renderer), and follows the return link once the payment is over.
 */

/** Pure helpers, kept apart so the unit tests can run exactly the code that ships. */
export const CHECKOUT_HELPERS_JS = String.raw`
var PHONE_PATTERN = /${PHONE_PATTERN.source}/;

/* People type "77 123 45 67", "00221…" or "221…"; the API wants +2217XXXXXXXX. */
function normalizePhone(raw) {
  var compact = String(raw).replace(/[\s\u00a0\u202f.()-]/g, '');
  if (/^00221/.test(compact)) return '+' + compact.slice(2);
  if (/^221\d{9}$/.test(compact)) return '+' + compact;
  if (/^7\d{8}$/.test(compact)) return '+221' + compact;
  return compact;
}

function isValidPhone(phone) {
  return PHONE_PATTERN.test(phone);
}

/* Same rule as safeHttpUrl on the server: http(s) or root-relative, nothing a browser rewrites. */
function navigableUrl(url) {
  if (typeof url !== 'string' || url === '' || /[\u0000-\u0020\u007f-\u009f]/.test(url)) return null;
  if (url.charAt(0) === '/') return /^\/[\/\\]/.test(url) ? null : url;
  try {
    var protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:' ? url : null;
  } catch (error) {
    return null;
  }
}

/* The API's messages are English and written for developers; the customer reads French. */
function payErrorMessage(code, retryAfterSeconds) {
  switch (code) {
    case 'invalid_state':
      return 'Ce paiement ne peut plus être réglé ici : il est peut-être déjà en cours, payé ou expiré.';
    case 'rate_limited':
      return retryAfterSeconds > 0
        ? 'Trop de tentatives. Réessayez dans ' + retryAfterSeconds + ' s.'
        : 'Trop de tentatives. Réessayez dans un instant.';
    case 'validation_error':
      return 'Vérifiez le numéro de téléphone : un numéro sénégalais commençant par 7, par exemple 77\u00a0123\u00a045\u00a067.';
    case 'not_found':
      return 'Ce paiement est introuvable. Vérifiez le lien reçu du marchand.';
    case 'authentication_required':
    case 'forbidden':
      return "Ce lien de paiement n'est pas valide. Demandez un nouveau lien au marchand.";
    case 'aggregated_identity_required':
      return "Ce moyen de paiement n'est pas disponible pour ce marchand. Essayez-en un autre.";
    case 'test_mode_disabled':
      return 'Le mode test est désactivé pour ce marchand.';
    case 'unavailable':
      return 'Le service est momentanément indisponible. Réessayez dans un instant.';
    default:
      return 'Une erreur est survenue. Vérifiez votre connexion puis réessayez.' +
        (typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? ' (code : ' + code + ')' : '');
  }
}
`;

const CHECKOUT_MAIN_JS = String.raw`
var POLL_MS = 2000;
var RETRY_MS = 5000;
var RETURN_AFTER_SECONDS = 3;
var TERMINAL = ['succeeded', 'failed', 'expired', 'refunded'];

var data = JSON.parse(document.getElementById('checkout-data').textContent);
var status = data.view.status;

/* Back from the provider, a page restored from the back-forward cache would show a stale state. */
window.addEventListener('pageshow', function (event) {
  if (event.persisted) location.reload();
});

if (status === 'requires_payment_method') setUpPicker();
else if (status === 'processing') startPolling();
else if (TERMINAL.indexOf(status) !== -1) scheduleReturn();

function byId(id) {
  return document.getElementById(id);
}

function retryAfter(response) {
  var seconds = Number(response.headers.get('retry-after'));
  return seconds > 0 ? seconds : 0;
}

function setUpPicker() {
  var form = byId('pay-form');
  if (!form) return;
  var fields = byId('pay-fields');
  var phone = byId('phone');
  var phoneError = byId('phone-error');
  var alertBox = byId('pay-error');
  var alertText = byId('pay-error-text');
  var refresh = byId('pay-refresh');
  var busy = false;

  /* The picker is disabled in the markup: without this script it could not work anyway. */
  fields.disabled = false;
  form.addEventListener('submit', function (event) {
    event.preventDefault();
  });
  refresh.addEventListener('click', function () {
    location.reload();
  });
  phone.addEventListener('input', function () {
    phone.removeAttribute('aria-invalid');
    phoneError.hidden = true;
  });
  /* A click on the button, not the form's submit event: the event does not say which button
     submitted in older browsers. Pressing Enter in the phone field clicks the first button. */
  Array.prototype.forEach.call(form.querySelectorAll('button[data-provider]'), function (button) {
    button.addEventListener('click', function (event) {
      event.preventDefault();
      if (!busy) pay(button);
    });
  });

  function pay(button) {
    alertBox.hidden = true;
    var number = normalizePhone(phone.value);
    if (number !== '') {
      phone.value = number;
      if (!isValidPhone(number)) {
        phone.setAttribute('aria-invalid', 'true');
        phoneError.hidden = false;
        phoneError.textContent = 'Numéro invalide : saisissez un numéro sénégalais, par exemple 77\u00a0123\u00a045\u00a067.';
        phone.focus();
        return;
      }
    }
    var body = { provider: button.getAttribute('data-provider') };
    if (number !== '') body.phone = number;
    setBusy(button, true);
    fetch(data.payUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store'
    })
      .then(function (response) {
        return response.json().catch(function () { return null; }).then(function (json) {
          if (response.ok && json) {
            var next = json.next_action ? navigableUrl(json.next_action.url) : null;
            /* Stay busy while the browser leaves for the provider. */
            if (next) location.assign(next);
            else location.reload();
            return;
          }
          showError(json && json.error ? json.error.code : null, retryAfter(response));
          setBusy(button, false);
        });
      })
      .catch(function () {
        showError(null, 0);
        setBusy(button, false);
      });
  }

  function setBusy(button, on) {
    busy = on;
    fields.disabled = on;
    if (on) {
      button.setAttribute('data-label', button.textContent);
      button.setAttribute('aria-busy', 'true');
      button.textContent = 'Patientez…';
    } else if (button.hasAttribute('data-label')) {
      button.textContent = button.getAttribute('data-label');
      button.removeAttribute('aria-busy');
    }
  }

  function showError(code, retryAfterSeconds) {
    alertBox.hidden = false;
    alertText.textContent = payErrorMessage(code, retryAfterSeconds);
    refresh.hidden = code !== 'invalid_state';
  }
}

function startPolling() {
  var timer = null;
  var done = false;

  function schedule(ms) {
    clearTimeout(timer);
    if (!done) timer = setTimeout(poll, ms);
  }

  function poll() {
    fetch(data.statusUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) return schedule(retryAfter(response) * 1000 || RETRY_MS);
        return response.json().then(function (latest) {
          if (latest && typeof latest.status === 'string' && latest.status !== status) {
            done = true;
            location.reload();
          } else {
            schedule(POLL_MS);
          }
        });
      })
      .catch(function () {
        schedule(RETRY_MS);
      });
  }

  /* Back from the provider's app, the customer should not wait for the next tick. */
  document.addEventListener('visibilitychange', function () {
    if (!document.hidden) schedule(0);
  });
  schedule(POLL_MS);
}

function scheduleReturn() {
  var link = document.querySelector('a[data-action="return"]');
  var target = link ? navigableUrl(link.getAttribute('href')) : null;
  if (!target) return;
  var seconds = RETURN_AFTER_SECONDS;
  var counter = byId('redirect-seconds');
  byId('redirect-note').hidden = false;
  var tick = setInterval(function () {
    seconds -= 1;
    if (seconds > 0) {
      counter.textContent = String(seconds);
      return;
    }
    clearInterval(tick);
    /* replace: Back from the merchant's site must not land here and be sent away again. */
    location.replace(target);
  }, 1000);
}
`;

export const CHECKOUT_SCRIPT_JS = `(function () {\n'use strict';\n${CHECKOUT_HELPERS_JS}\n${CHECKOUT_MAIN_JS}\n})();\n`;
