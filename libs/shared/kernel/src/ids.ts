import { createHash, randomFillSync } from 'node:crypto';

/** Crockford base32: sortable, no ambiguous letters. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = {
  merchant: 'mer',
  user: 'usr',
  payment: 'pay',
  refund: 're',
  subscription: 'sub',
  invoice: 'in',
  payout: 'po',
  agentWallet: 'aw',
  agentKey: 'agk',
  apiKey: 'key',
  webhookEndpoint: 'we',
  event: 'evt',
  webhookDelivery: 'whd',
  exchange: 'ex',
  exchangeQuote: 'exq',
  /** Names one HTTP request: its `Request-Id` header, and the log line of a failure of ours. */
  request: 'req',
  /** Not shown to clients: names a webhook secret roll so that a retry of it rolls nothing more. */
  webhookSecretRoll: 'whr',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

let lastTime = -1;
let lastRandom: Buffer = Buffer.alloc(10);

/**
 * Random bytes drawn from the CSPRNG a pool at a time (as Node's own randomUUID does): one
 * randomFillSync per 409 ids instead of one per id, which showed as 1% of a payment create.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomTen(): Buffer {
  if (poolOffset + 10 > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  // A copy: the pool's bytes are refilled in place, and an id's are kept in lastRandom.
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 10));
  poolOffset += 10;
  return bytes;
}

/**
 * A ULID: 48 bits of milliseconds then 80 random bits, 26 characters. Within one millisecond the
 * random part is incremented so ids made by one process stay strictly ordered.
 */
export function ulid(now: number = Date.now()): string {
  let random: Buffer;
  if (now === lastTime) {
    random = Buffer.from(lastRandom);
    for (let i = random.length - 1; i >= 0; i--) {
      random[i] = (random[i] + 1) & 0xff;
      if (random[i] !== 0) break;
    }
  } else {
    random = randomTen();
  }
  lastTime = now;
  lastRandom = random;
  let t = now;
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + base32(random);
}

/** The 80 bits of a ULID's random part as its 16 characters. */
function base32(random: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

export function newId(kind: IdKind, now?: number): string {
  return `${ID_PREFIXES[kind]}_${ulid(now)}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`);
}

/**
 * The id that follows `id` when an id must be replaced by one every party can work out again: the
 * same prefix and time, its random part the first 80 bits of a SHA-256 of `id`. The same `id`
 * always gives the same successor, and a successor's successor is another id again.
 */
export function successorId(id: string): string {
  const separator = id.lastIndexOf('_');
  const ulidPart = id.slice(separator + 1);
  if (separator <= 0 || ulidPart.length !== 26) throw new TypeError(`Not a prefixed ULID: ${id}`);
  const hash = createHash('sha256').update(`successor:${id}`).digest().subarray(0, 10);
  return `${id.slice(0, separator + 1)}${ulidPart.slice(0, 10)}${base32(hash)}`;
}
