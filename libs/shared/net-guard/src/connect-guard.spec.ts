import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  BLOCKED_ADDRESS,
  BlockedAddressError,
  checkConnectTarget,
  guardedLookup,
} from './connect-guard';
import type { Resolve } from './resolve';

interface LookupAnswer {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}

/** Calls a lookup the way net.connect does and collects its one answer. */
const ask = (lookup: LookupFunction, host: string, options: LookupOptions) =>
  new Promise<LookupAnswer>((done) =>
    lookup(host, options, (error, address, family) => done({ error, address, family })),
  );

const resolvingTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses;

describe('checkConnectTarget', () => {
  it('refuses blocked IP literals and localhost names', () => {
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '::ffff:7f00:1',
      '169.254.169.254',
      '0.0.0.0',
      'localhost',
      'localhost.',
      'a.localhost',
    ]) {
      expect(() => checkConnectTarget(host, [])).toThrow(BlockedAddressError);
    }
  });

  it('lets public literals, other names (checked at lookup) and allowed hosts through', () => {
    for (const host of ['8.8.8.8', '[2001:4860:4860::8888]', 'shop.sn', 'rebind.example']) {
      expect(() => checkConnectTarget(host, [])).not.toThrow();
    }
    expect(() => checkConnectTarget('127.0.0.1', ['127.0.0.1'])).not.toThrow();
    expect(() => checkConnectTarget('localhost', ['localhost'])).not.toThrow();
  });

  it('says what was refused without the resolved address', () => {
    const error = new BlockedAddressError('hooks.shop.sn', '10.0.0.7');
    expect(error.code).toBe(BLOCKED_ADDRESS);
    expect(error.message).toBe(
      'blocked: hooks.shop.sn resolves to a private, loopback or link-local address',
    );
    expect(error.message).not.toContain('10.0.0.7');
  });
});

describe('guardedLookup', () => {
  it('answers with the checked addresses, in the shape net asks for', async () => {
    const lookup = guardedLookup([], resolvingTo('41.82.1.1', '2c0f:f4c0::1'));
    await expect(ask(lookup, 'shop.sn', { all: true })).resolves.toEqual({
      error: null,
      address: [
        { address: '41.82.1.1', family: 4 },
        { address: '2c0f:f4c0::1', family: 6 },
      ],
      family: undefined,
    });
    await expect(ask(lookup, 'shop.sn', {})).resolves.toEqual({
      error: null,
      address: '41.82.1.1',
      family: 4,
    });
    await expect(ask(lookup, 'shop.sn', { family: 6 })).resolves.toMatchObject({
      address: '2c0f:f4c0::1',
      family: 6,
    });
  });

  it('refuses the connection when any answer is blocked', async () => {
    const lookup = guardedLookup([], resolvingTo('41.82.1.1', '10.0.0.7'));
    const { error } = await ask(lookup, 'shop.sn', { all: true });
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error).toMatchObject({ code: BLOCKED_ADDRESS, host: 'shop.sn', address: '10.0.0.7' });
  });

  it('closes the rebinding gap: the answer checked is the answer connected to', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const rebinding: Resolve = async () => answers.shift() ?? [];
    const lookup = guardedLookup([], rebinding);
    await expect(ask(lookup, 'rebind.example', {})).resolves.toMatchObject({
      address: '93.184.216.34',
    });
    const second = await ask(lookup, 'rebind.example', {});
    expect(second.error).toBeInstanceOf(BlockedAddressError);
  });

  it('refuses localhost names before resolving them', async () => {
    const lookup = guardedLookup([], async (host) => {
      throw new Error(`resolved ${host}`);
    });
    const { error } = await ask(lookup, 'localhost.', { all: true });
    expect(error).toMatchObject({ code: BLOCKED_ADDRESS, host: 'localhost' });
  });

  it('resolves allowed hosts without judging their addresses', async () => {
    const lookup = guardedLookup(['localhost'], resolvingTo('127.0.0.1'));
    await expect(ask(lookup, 'localhost', { all: true })).resolves.toMatchObject({
      error: null,
      address: [{ address: '127.0.0.1', family: 4 }],
    });
  });

  it('passes resolver errors on, and reports no usable address as ENOTFOUND', async () => {
    const failing: Resolve = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN shop.sn'), { code: 'EAI_AGAIN' });
    };
    await expect(ask(guardedLookup([], failing), 'shop.sn', {})).resolves.toMatchObject({
      error: { code: 'EAI_AGAIN' },
    });
    await expect(
      ask(guardedLookup([], resolvingTo('41.82.1.1')), 'shop.sn', { family: 6 }),
    ).resolves.toMatchObject({
      error: { code: 'ENOTFOUND' },
    });
  });
});
