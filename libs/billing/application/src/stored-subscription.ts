import type { Subscription } from '@xaalis/billing-domain';

/** A subscription's state as a read model row holds it (JSON: the advance keys as an array). */
export type StoredSubscription = Omit<Subscription, 'advanceKeys'> & { advanceKeys: string[] };

export const toStored = (subscription: Subscription): StoredSubscription => ({
  ...subscription,
  advanceKeys: [...subscription.advanceKeys],
});

export const fromStored = (stored: StoredSubscription): Subscription => ({
  ...stored,
  advanceKeys: new Set(stored.advanceKeys),
});
