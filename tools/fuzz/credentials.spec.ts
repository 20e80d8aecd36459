import fc from 'fast-check';
import {
  anyCredentialArbitrary,
  credentialHeaders,
  fittingCredentialArbitrary,
  type CredentialKind,
  type CredentialValues,
} from './credentials';

const current: Partial<Record<CredentialKind, string>> = {
  secret_test: 'sk_test_abc',
  session_owner: 'tok.sig',
};
const secrets: CredentialValues = {
  sessionCookieName: 'better-auth.session_token',
  valueOf: (kind) => current[kind],
};

describe('credentials on the request', () => {
  it('puts a key in Authorization and a session in its cookie', () => {
    expect(credentialHeaders({ kind: 'secret_test', style: 'canonical' }, secrets)).toEqual([
      ['authorization', 'Bearer sk_test_abc'],
    ]);
    expect(credentialHeaders({ kind: 'session_owner', style: 'canonical' }, secrets)).toEqual([
      ['cookie', 'better-auth.session_token=tok.sig'],
    ]);
    expect(credentialHeaders({ kind: 'none', style: 'canonical' }, secrets)).toEqual([]);
  });

  it('puts them on wrongly in the ways clients do', () => {
    expect(credentialHeaders({ kind: 'secret_test', style: 'altered' }, secrets)).toEqual([
      ['authorization', 'Bearer sk_test_abA'],
    ]);
    expect(credentialHeaders({ kind: 'secret_test', style: 'duplicate' }, secrets)).toHaveLength(2);
    expect(credentialHeaders({ kind: 'secret_test', style: 'both' }, secrets)).toEqual([
      ['authorization', 'Bearer sk_test_abc'],
      ['cookie', 'better-auth.session_token=tok.sig'],
    ]);
    expect(credentialHeaders({ kind: 'none', style: 'padded' }, secrets)).toEqual([
      ['authorization', 'Bearer '],
    ]);
  });

  it('calls a route with the callers it is meant for, and only those the world has', () => {
    const available: CredentialKind[] = ['none', 'secret_test', 'secret_live', 'session_owner'];
    const bearer = fc.sample(fittingCredentialArbitrary(['bearer'], available), {
      seed: 1,
      numRuns: 200,
    });
    expect(new Set(bearer.map((choice) => choice.kind))).toEqual(
      new Set(['secret_test', 'secret_live']),
    );
    expect(bearer.every((choice) => choice.style === 'canonical')).toBe(true);
    expect(fc.sample(fittingCredentialArbitrary([], available), { seed: 1, numRuns: 20 })).toEqual(
      new Array(20).fill({ kind: 'none', style: 'canonical' }),
    );
    const any = fc.sample(anyCredentialArbitrary(available), { seed: 1, numRuns: 300 });
    expect(new Set(any.map((choice) => choice.kind))).toEqual(new Set(available));
  });
});
