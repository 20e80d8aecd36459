/**
 * Restricted keys carry scopes `resource:read` or `resource:write` (CONTRACT 5). The list is closed:
 * a scope outside it is refused at issuance, so a typo never silently grants nothing (or more).
 */
export const SCOPE_RESOURCES = [
  'payments',
  'refunds',
  'subscriptions',
  'invoices',
  'payouts',
  'agent_wallets',
  'balance',
  'account',
  'events',
  'webhooks',
] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type ScopeAccess = 'read' | 'write';

export const ALL_SCOPES: readonly string[] = SCOPE_RESOURCES.flatMap((resource) => [
  `${resource}:read`,
  `${resource}:write`,
]);

export const isKnownScope = (scope: string): boolean => ALL_SCOPES.includes(scope);

/** `write` implies `read`: a key that may change a resource may also look at it. */
export function scopesAllow(
  scopes: readonly string[],
  resource: ScopeResource,
  access: ScopeAccess,
): boolean {
  if (scopes.includes(`${resource}:write`)) return true;
  return access === 'read' && scopes.includes(`${resource}:read`);
}
