import { displayPrefix, hashSecret, randomToken, type Mode } from '@xaalis/kernel';

export type BearerKeyType = 'secret' | 'restricted' | 'agent';

const PREFIX: Record<BearerKeyType, string> = { secret: 'sk', restricted: 'rk', agent: 'ak' };
const TYPE_BY_PREFIX: Record<string, BearerKeyType> = {
  sk: 'secret',
  rk: 'restricted',
  ak: 'agent',
};

/** Shape check before any lookup: anything else is answered like an unknown key. */
const BEARER = /^(sk|rk|ak)_(test|live)_([0-9A-Za-z]{24,128})$/;

export interface NewSecret {
  secret: string;
  secretHash: string;
  displayPrefix: string;
}

/** 32 base62 characters (about 190 bits). Only the keyed hash and a display prefix are kept. */
export function newApiKeySecret(kind: BearerKeyType, mode: Mode, hashKey: string): NewSecret {
  const secret = `${PREFIX[kind]}_${mode}_${randomToken(32)}`;
  return { secret, secretHash: hashSecret(secret, hashKey), displayPrefix: displayPrefix(secret) };
}

export function parseBearerSecret(token: string): { type: BearerKeyType; mode: Mode } | null {
  const match = BEARER.exec(token);
  if (!match) return null;
  return { type: TYPE_BY_PREFIX[match[1]], mode: match[2] as Mode };
}
