import { clientSecretFor, isClientSecretOf } from './client-secret';
import { OTHER_PAYMENT_ID, PAYMENT_ID } from './payment.fixtures';

const KEY = 'test-secret-hash-key';
const OTHER_KEY = 'test-secret-hash-key-2';
const FORMAT = /^(pay_[0-9A-Z]{26})_secret_([A-Za-z0-9_-]+)$/;

const secretPart = (secret: string): string => secret.slice(secret.indexOf('_secret_') + 8);

describe('clientSecretFor', () => {
  it('has the CONTRACT 1 form pay_…_secret_…, on the payment it belongs to', () => {
    const match = FORMAT.exec(clientSecretFor(PAYMENT_ID, KEY));
    expect(match?.[1]).toBe(PAYMENT_ID);
  });

  it('carries at least 128 bits: 32 base64url characters, 24 bytes', () => {
    const part = secretPart(clientSecretFor(PAYMENT_ID, KEY));
    expect(part).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const bytes = Buffer.from(part, 'base64url');
    expect(bytes.length * 8).toBeGreaterThanOrEqual(128);
    expect(bytes.length).toBe(24);
    expect(bytes.toString('base64url')).toBe(part);
  });

  it('is the same for the same payment and key, so it need not be stored', () => {
    expect(clientSecretFor(PAYMENT_ID, KEY)).toBe(clientSecretFor(PAYMENT_ID, KEY));
  });

  // Pinned: a change of derivation would break every checkout_url already handed out.
  it('is derived as it was when the links in flight were made', () => {
    expect(clientSecretFor(PAYMENT_ID, KEY)).toBe(
      'pay_01JD0000000000000000000000_secret_5qocCv7RtPNdjBuP1KidlRdIqe4_d8Ua',
    );
  });

  it('differs per payment and per key', () => {
    const mine = secretPart(clientSecretFor(PAYMENT_ID, KEY));
    expect(secretPart(clientSecretFor(OTHER_PAYMENT_ID, KEY))).not.toBe(mine);
    expect(secretPart(clientSecretFor(PAYMENT_ID, OTHER_KEY))).not.toBe(mine);
  });

  it('never repeats across many payments, even ids one character apart', () => {
    const parts = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const id = `pay_01JD${i.toString().padStart(22, '0')}`;
      parts.add(secretPart(clientSecretFor(id, KEY)));
    }
    expect(parts.size).toBe(5_000);
  });

  it('shows nothing of the key', () => {
    const key = 'a-very-recognisable-hash-key';
    expect(clientSecretFor(PAYMENT_ID, key)).not.toContain(key);
  });
});

describe('isClientSecretOf', () => {
  const secret = clientSecretFor(PAYMENT_ID, KEY);

  it('accepts the secret of this payment under this key', () => {
    expect(isClientSecretOf(PAYMENT_ID, secret, KEY)).toBe(true);
  });

  it('refuses every one-character change, at every position', () => {
    const accepted: string[] = [];
    for (let i = 0; i < secret.length; i++) {
      for (const replacement of ['A', 'z', '0', '_', '-']) {
        if (secret[i] === replacement) continue;
        const candidate = secret.slice(0, i) + replacement + secret.slice(i + 1);
        if (isClientSecretOf(PAYMENT_ID, candidate, KEY)) accepted.push(candidate);
      }
    }
    expect(accepted).toEqual([]);
  });

  it.each([
    ['one character short', secret.slice(0, -1)],
    ['one character more', `${secret}A`],
    ['other case', secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase()],
    ['the secret part alone', secretPart(secret)],
    ['with spaces around', ` ${secret} `],
    ['empty', ''],
    ["another payment's secret", clientSecretFor(OTHER_PAYMENT_ID, KEY)],
    ['the secret made under another key', clientSecretFor(PAYMENT_ID, OTHER_KEY)],
  ])('refuses a near miss: %s', (_, candidate) => {
    expect(isClientSecretOf(PAYMENT_ID, candidate, KEY)).toBe(false);
  });

  it("refuses this payment's secret presented for another payment", () => {
    expect(isClientSecretOf(OTHER_PAYMENT_ID, secret, KEY)).toBe(false);
  });

  it('refuses the right secret checked under another key', () => {
    expect(isClientSecretOf(PAYMENT_ID, secret, OTHER_KEY)).toBe(false);
  });
});
