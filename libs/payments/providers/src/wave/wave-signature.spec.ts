import { DomainError } from '@xaalis/kernel';
import { parseWaveSignatureHeader, verifyWaveSignature, waveSignature } from './wave-signature';

// Computed outside this code base: printf '%s' "$T$BODY" | openssl dgst -sha256 -hmac "$SECRET"
const SECRET = 'wave_sn_WHS_test';
const T = 1639081943;
const BODY = '{"id":"EV_1","type":"checkout.session.completed"}';
const EXPECTED = 'eee65e7c17e0e37655d2b2ffa59f8153d4cba051f74f68efec09ccde68002148';
const AT_T = new Date(T * 1000);
const OTHER = 'a'.repeat(64);

function verify(header: string | undefined, rawBody = BODY, now = AT_T): void {
  verifyWaveSignature({ header, rawBody, secret: SECRET, now });
}

function authError(run: () => void): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('authentication_required');
    return (error as DomainError).message;
  }
  throw new Error('expected an authentication error');
}

describe('waveSignature', () => {
  it('is the HMAC-SHA256 hex of the timestamp directly followed by the raw body', () => {
    expect(waveSignature(SECRET, T, BODY)).toBe(EXPECTED);
  });
});

describe('parseWaveSignatureHeader', () => {
  it('reads the timestamp and every v1, in order', () => {
    expect(parseWaveSignatureHeader(`t=${T},v1=${OTHER},v1=${EXPECTED}`)).toEqual({
      timestamp: T,
      signatures: [OTHER, EXPECTED],
    });
  });

  it('tolerates spaces and ignores unknown schemes', () => {
    expect(parseWaveSignatureHeader(` t=${T}, v0=abc , v1=${EXPECTED.toUpperCase()} `)).toEqual({
      timestamp: T,
      signatures: [EXPECTED],
    });
  });

  it.each([
    ['no timestamp', `v1=${EXPECTED}`],
    ['a timestamp that is not a number', `t=12a,v1=${EXPECTED}`],
    ['no signature', `t=${T}`],
    ['an empty header', ''],
    ['garbage', 'sha256=abc'],
  ])('refuses %s', (_case, header) => {
    expect(parseWaveSignatureHeader(header)).toBeNull();
  });
});

describe('verifyWaveSignature', () => {
  it('accepts the signature Wave computes', () => {
    expect(() => verify(`t=${T},v1=${EXPECTED}`)).not.toThrow();
  });

  it('accepts a header with two v1 where only the second matches (secret rotation)', () => {
    expect(() => verify(`t=${T},v1=${OTHER},v1=${EXPECTED}`)).not.toThrow();
  });

  it('refuses a wrong signature', () => {
    expect(authError(() => verify(`t=${T},v1=${OTHER}`))).toMatch(/does not match/);
  });

  it('refuses a tampered body', () => {
    const tampered = BODY.replace('EV_1', 'EV_2');
    expect(authError(() => verify(`t=${T},v1=${EXPECTED}`, tampered))).toMatch(/does not match/);
  });

  it('refuses the right signature moved to another timestamp', () => {
    expect(authError(() => verify(`t=${T + 1},v1=${EXPECTED}`))).toMatch(/does not match/);
  });

  it('accepts a timestamp 300 s away and refuses one 301 s away, either side', () => {
    expect(() => verify(`t=${T},v1=${EXPECTED}`, BODY, new Date((T + 300) * 1000))).not.toThrow();
    expect(() => verify(`t=${T},v1=${EXPECTED}`, BODY, new Date((T - 300) * 1000))).not.toThrow();
    expect(
      authError(() => verify(`t=${T},v1=${EXPECTED}`, BODY, new Date((T + 301) * 1000))),
    ).toMatch(/too old/);
    expect(
      authError(() => verify(`t=${T},v1=${EXPECTED}`, BODY, new Date((T - 301) * 1000))),
    ).toMatch(/too old/);
  });

  it('refuses a missing or malformed header', () => {
    expect(authError(() => verify(undefined))).toMatch(/Missing or malformed/);
    expect(authError(() => verify(`v1=${EXPECTED}`))).toMatch(/Missing or malformed/);
  });
});
