/**
 * Real values the harness has seen (ids of the objects it seeded, client secrets), by a plain
 * name: `payment`, `refund`, `apikey`, `webhookendpoint`… A path parameter or body field finds its
 * pool by its own name (`merchantId`, `payment`, `cs`) or, for a bare `{id}`, by the path segment
 * before it (`/v1/refunds/{id}`), so routes added later reach real objects with nothing registered.
 */
export type Pools = Record<string, readonly string[]>;

/** `merchantId` → `merchant`, `webhook-deliveries` → `webhookdelivery`, `api-keys` → `apikey`. */
export function poolKey(name: string): string {
  const plain = name
    .replace(/(?<=[a-z0-9])Id$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  if (plain.endsWith('ies')) return `${plain.slice(0, -3)}y`;
  if (plain.endsWith('ses')) return plain.slice(0, -2);
  // Not `cs` (a client secret) or other short names: only words are plurals.
  if (plain.length > 3 && plain.endsWith('s') && !plain.endsWith('ss')) return plain.slice(0, -1);
  return plain;
}

/** The pool for a parameter: by its name, else (a bare `id`) by the segment before it. */
export function poolFor(pools: Pools, name: string, previousSegment?: string): readonly string[] {
  const own = pools[poolKey(name)];
  if (own && own.length > 0) return own;
  if (previousSegment !== undefined && /^id$/i.test(name)) {
    const bySegment = pools[poolKey(previousSegment)];
    if (bySegment && bySegment.length > 0) return bySegment;
  }
  return [];
}

/**
 * Every real value of every pool: a right-looking id of the wrong kind is a test too. Repeats stay
 * (a pool padded to its size): how many values there are must not depend on which they are.
 */
export function allValues(pools: Pools): string[] {
  return Object.values(pools).flat();
}
