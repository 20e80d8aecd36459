import fc from 'fast-check';
import type { AuthKind } from './openapi-routes';

/** Every kind of caller the harness plays; the world holds a current secret for each. */
export const CREDENTIAL_KINDS = [
  'none',
  'secret_test',
  'secret_live',
  'restricted_test',
  'restricted_live',
  'revoked_key',
  'unknown_key',
  'other_merchant_key',
  'payment_client_secret',
  'agent_key',
  'session_owner',
  'session_developer',
  'session_stranger',
  'session_ended',
] as const;

export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export const isSessionKind = (kind: CredentialKind): boolean => kind.startsWith('session_');

/** How the credential is put on the request: right, or wrong in one of the ways clients are. */
export const CREDENTIAL_STYLES = [
  'canonical',
  'lowercase_scheme',
  'no_scheme',
  'basic',
  'altered',
  'padded',
  'duplicate',
  'both',
] as const;

export type CredentialStyle = (typeof CREDENTIAL_STYLES)[number];

export interface CredentialChoice {
  kind: CredentialKind;
  style: CredentialStyle;
}

/**
 * What a route's declared security calls for, the usual caller first (weighted): a bearer route is
 * mostly called with the test secret key, but also with the live one, restricted ones and agent
 * keys, which it must refuse cleanly when they do not fit.
 */
const FITTING: Record<AuthKind | 'public', Array<[CredentialKind, number]>> = {
  bearer: [
    ['secret_test', 6],
    ['secret_live', 1],
    ['restricted_test', 1],
    ['restricted_live', 1],
    ['agent_key', 1],
  ],
  session: [
    ['session_owner', 5],
    ['session_developer', 1],
  ],
  other: [['none', 1]],
  public: [['none', 1]],
};

/** A caller the route is meant for, put on the request the right way. */
export function fittingCredentialArbitrary(
  auth: AuthKind[],
  available: readonly CredentialKind[],
): fc.Arbitrary<CredentialChoice> {
  const fitting = (
    auth.length === 0 ? FITTING.public : auth.flatMap((kind) => FITTING[kind])
  ).filter(([kind]) => available.includes(kind));
  const kinds: Array<[CredentialKind, number]> = fitting.length > 0 ? fitting : [['none', 1]];
  return fc.record({
    kind: fc.oneof(...kinds.map(([kind, weight]) => ({ weight, arbitrary: fc.constant(kind) }))),
    style: fc.constant('canonical' as const),
  });
}

/** Any kind of caller (each route meets every one), put on the request rightly or wrongly. */
export function anyCredentialArbitrary(
  available: readonly CredentialKind[],
): fc.Arbitrary<CredentialChoice> {
  return fc.record({
    kind: fc.constantFrom(...available),
    style: fc.oneof(
      { weight: 3, arbitrary: fc.constant('canonical' as const) },
      { weight: 2, arbitrary: fc.constantFrom(...CREDENTIAL_STYLES) },
    ),
  });
}

export interface CredentialValues {
  /** The current secret of a kind (a key, a session cookie's value), if the world has one. */
  valueOf(kind: CredentialKind): string | undefined;
  sessionCookieName: string;
}

/** The headers that carry a credential choice. */
export function credentialHeaders(
  choice: CredentialChoice,
  values: CredentialValues,
): Array<[string, string]> {
  const value = values.valueOf(choice.kind) ?? '';
  if (choice.kind === 'none') return noneHeaders(choice.style, values.sessionCookieName);
  const session = isSessionKind(choice.kind);
  const put = (secret: string, scheme = 'Bearer'): [string, string] =>
    session
      ? ['cookie', `${values.sessionCookieName}=${secret}`]
      : ['authorization', `${scheme} ${secret}`];
  switch (choice.style) {
    case 'canonical':
      return [put(value)];
    case 'lowercase_scheme':
      return session
        ? [['cookie', `${values.sessionCookieName.toUpperCase()}=${value}`]]
        : [put(value, 'bearer')];
    case 'no_scheme':
      return session ? [['cookie', value]] : [['authorization', value]];
    case 'basic':
      return session
        ? [['cookie', `${values.sessionCookieName}="${value}"`]]
        : [['authorization', `Basic ${Buffer.from(`${value}:`).toString('base64')}`]];
    case 'altered':
      return [put(alter(value))];
    case 'padded':
      return session
        ? [['cookie', `; ;${values.sessionCookieName}=${value};;`]]
        : [['authorization', `Bearer   ${value}  `]];
    case 'duplicate':
      return [put(value), put(alter(value))];
    case 'both': {
      // A session and a key together: the service must pick one rule, not mix them.
      const other = session ? values.valueOf('secret_test') : values.valueOf('session_owner');
      return [
        put(value),
        session
          ? ['authorization', `Bearer ${other ?? ''}`]
          : ['cookie', `${values.sessionCookieName}=${other ?? ''}`],
      ];
    }
    default: {
      const unknownStyle: never = choice.style;
      return unknownStyle;
    }
  }
}

function noneHeaders(style: CredentialStyle, cookieName: string): Array<[string, string]> {
  switch (style) {
    case 'canonical':
      return [];
    case 'no_scheme':
    case 'padded':
      return [['authorization', 'Bearer ']];
    case 'lowercase_scheme':
      return [['authorization', 'bearer']];
    case 'basic':
      return [['authorization', 'Basic Og==']];
    case 'altered':
    case 'duplicate':
      return [['cookie', `${cookieName}=`]];
    case 'both':
      return [
        ['authorization', 'Bearer'],
        ['cookie', `${cookieName}=; other=1`],
      ];
    default: {
      const unknownStyle: never = style;
      return unknownStyle;
    }
  }
}

/** The same secret with its last character changed: right shape, wrong value. */
function alter(secret: string): string {
  if (secret.length === 0) return 'x';
  const last = secret[secret.length - 1]!;
  return `${secret.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}
