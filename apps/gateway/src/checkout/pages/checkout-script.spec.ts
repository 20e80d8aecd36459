import { Script } from 'node:vm';
import { itKeepsOnlyHttpUrls } from '../../pages/testing/http-url-rule';
import { CHECKOUT_SCRIPT_JS } from './checkout-script';
import { checkoutHelpers } from './testing/checkout-helpers';

const { normalizePhone, isValidPhone, navigableUrl, payErrorMessage } = checkoutHelpers();

describe('the checkout script', () => {
  it('is valid JavaScript', () => {
    expect(() => new Script(CHECKOUT_SCRIPT_JS)).not.toThrow();
  });

  it('cannot end its own script element or open a comment', () => {
    expect(CHECKOUT_SCRIPT_JS).not.toMatch(/<\/script|<!--/i);
  });

  it('declares nothing global: everything lives in one function', () => {
    expect(CHECKOUT_SCRIPT_JS.trim()).toMatch(
      /^\(function \(\) \{\n'use strict';[\s\S]*\}\)\(\);$/,
    );
  });
});

describe('normalizePhone', () => {
  it.each([
    ['77 123 45 67', '+221771234567'],
    ['771234567', '+221771234567'],
    ['77.123.45.67', '+221771234567'],
    ['77-123-45-67', '+221771234567'],
    ['+221 77 123 45 67', '+221771234567'],
    ['00221 77 123 45 67', '+221771234567'],
    ['221771234567', '+221771234567'],
    ['\u00a070\u202f000 00 02 ', '+221700000002'],
  ])('%p → %p', (typed, expected) => {
    expect(normalizePhone(typed)).toBe(expected);
    expect(isValidPhone(normalizePhone(typed))).toBe(true);
  });

  it.each(['33 123 45 67', '77 123 45', '+33 6 12 34 56 78', 'abc'])(
    'leaves %p invalid for the pattern',
    (typed) => {
      expect(isValidPhone(normalizePhone(typed))).toBe(false);
    },
  );

  it('turns an empty field into an empty string (no phone is sent)', () => {
    expect(normalizePhone('   ')).toBe('');
  });
});

describe('navigableUrl (safeHttpUrl in the browser)', () => {
  itKeepsOnlyHttpUrls(navigableUrl);
});

describe('payErrorMessage', () => {
  it('explains invalid_state', () => {
    expect(payErrorMessage('invalid_state', 0)).toMatch(/ne peut plus être réglé/);
  });

  it('gives the wait of rate_limited when the API sent Retry-After', () => {
    expect(payErrorMessage('rate_limited', 12)).toBe('Trop de tentatives. Réessayez dans 12 s.');
    expect(payErrorMessage('rate_limited', 0)).toBe(
      'Trop de tentatives. Réessayez dans un instant.',
    );
  });

  it('names an unknown code for support, but only if it looks like a code', () => {
    expect(payErrorMessage('internal_error', 0)).toMatch(/réessayez\. \(code : internal_error\)$/);
    expect(payErrorMessage('<img src=x>', 0)).not.toContain('code');
    expect(payErrorMessage(null, 0)).toBe(
      'Une erreur est survenue. Vérifiez votre connexion puis réessayez.',
    );
  });
});
