import { DomainError } from '@xaalis/kernel';
import { assertPublicWebhookTarget } from './public-target';
import type { Resolve } from './resolve';

const resolvingTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses;

/** For IP literals and names refused by name: reaching DNS would be the bug. */
const neverResolve: Resolve = async (host) => {
  throw new Error(`resolved ${host}`);
};

const refusal = async (url: string, resolve: Resolve = neverResolve, allowed: string[] = []) => {
  try {
    await assertPublicWebhookTarget(url, allowed, resolve);
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('assertPublicWebhookTarget', () => {
  it.each([
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0x7f.1/',
    'https://0x7f.0x0.0x0.0x1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://127.0.0.1./',
    'https://0/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[2002:a00:1::]/',
    'https://localhost/',
    'https://localhost./',
    'https://admin.localhost/',
    'https://ｌｏｃａｌｈｏｓｔ/',
  ])('sees through %s without asking DNS', async (url) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'validation_error',
      details: [
        {
          field: 'webhook_url',
          issue: 'must not point to a private, loopback or link-local address',
        },
      ],
    });
  });

  it('reads the host the way the sender will: normalising decimal, hex, octal and short IPv4', () => {
    for (const url of [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://127.1/',
    ]) {
      expect(new URL(url).hostname).toBe('127.0.0.1');
    }
    expect(new URL('https://0/').hostname).toBe('0.0.0.0');
    expect(new URL('https://[0:0:0:0:0:ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it('refuses other schemes, credentials and unparseable text with their own issue', async () => {
    await expect(refusal('http://shop.sn/hooks')).resolves.toMatchObject({
      details: [{ field: 'webhook_url', issue: 'must use https://' }],
    });
    await expect(refusal('ftp://shop.sn/')).resolves.toMatchObject({
      details: [{ issue: 'must use https://' }],
    });
    await expect(refusal('https://shop.sn@127.0.0.1/')).resolves.toMatchObject({
      details: [{ issue: 'must not contain credentials' }],
    });
    await expect(refusal('https://user:pw@shop.sn/')).resolves.toMatchObject({
      details: [{ issue: 'must not contain credentials' }],
    });
    await expect(refusal('not a url')).resolves.toMatchObject({
      details: [{ issue: 'must be an absolute https:// URL' }],
    });
  });

  it('refuses a name when any of its addresses is blocked, and names the given field', async () => {
    await expect(
      refusal('https://shop.sn/hooks', resolvingTo('41.82.1.1', '::ffff:10.0.0.5')),
    ).resolves.toMatchObject({ code: 'validation_error' });
    await expect(
      assertPublicWebhookTarget('https://x.sn/', [], resolvingTo('fd00::1'), 'url'),
    ).rejects.toMatchObject({ details: [{ field: 'url' }] });
  });

  it('accepts public names, allowed hosts in any spelling, and names that do not resolve yet', async () => {
    await expect(
      refusal('https://shop.sn/hooks', resolvingTo('41.82.1.1', '2c0f:f4c0::1')),
    ).resolves.toBeUndefined();
    await expect(
      refusal('https://localhost.:8443/x', neverResolve, ['LOCALHOST']),
    ).resolves.toBeUndefined();
    await expect(refusal('https://[::1]:8443/x', neverResolve, ['::1'])).resolves.toBeUndefined();
    await expect(refusal('https://127.1/', neverResolve, ['127.0.0.1'])).resolves.toBeUndefined();
    await expect(refusal('https://nowhere.invalid/', neverResolve)).resolves.toBeUndefined();
    await expect(refusal('https://8.8.8.8/')).resolves.toBeUndefined();
  });

  it('still requires https for an allowed host', async () => {
    await expect(refusal('http://localhost/', neverResolve, ['localhost'])).resolves.toMatchObject({
      details: [{ issue: 'must use https://' }],
    });
  });
});
