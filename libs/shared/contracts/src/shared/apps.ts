/** The six apps. Each is one consumer group on the bus and the owner of its own request patterns. */
export const APP_NAMES = [
  'gateway',
  'payments',
  'billing',
  'payouts',
  'webhooks',
  'exchange',
] as const;
export type AppName = (typeof APP_NAMES)[number];
