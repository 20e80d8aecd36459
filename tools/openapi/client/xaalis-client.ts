import createClient from 'openapi-fetch';
import type { paths } from './generated/schema';

/**
 * What a merchant writing TypeScript would use: openapi-fetch over the types openapi-typescript
 * generates from docs/openapi.json (`npm run openapi` regenerates both), nothing written by hand.
 */
export function xaalisClient(baseUrl: string, secretKey: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${secretKey}` } });
}

export type XaalisClient = ReturnType<typeof xaalisClient>;
