import { signingSecrets } from './signing-secrets';

describe('signingSecrets', () => {
  const expiresAt = new Date('2026-11-23T10:00:00.000Z');
  const rolled = { current: 'v1.new', previous: { encrypted: 'v1.old', expiresAt } };
  const before = (ms: number) => new Date(expiresAt.getTime() - ms);

  it('is the current secret alone when nothing was rolled, or rolled without overlap', () => {
    expect(signingSecrets({ current: 'v1.only', previous: null }, expiresAt)).toEqual(['v1.only']);
  });

  it('is the new secret then the previous one while the overlap runs', () => {
    expect(signingSecrets(rolled, before(24 * 3_600_000))).toEqual(['v1.new', 'v1.old']);
    expect(signingSecrets(rolled, before(1))).toEqual(['v1.new', 'v1.old']);
  });

  it('drops the previous secret from its expiry on', () => {
    expect(signingSecrets(rolled, expiresAt)).toEqual(['v1.new']);
    expect(signingSecrets(rolled, before(-1))).toEqual(['v1.new']);
  });
});
