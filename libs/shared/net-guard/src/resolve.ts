import { lookup } from 'node:dns/promises';

/** Every address a name resolves to. Injected so tests can play a DNS that changes its answer. */
export type Resolve = (host: string) => Promise<string[]>;

export const resolveAll: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
