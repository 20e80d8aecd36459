import { DomainError } from '@xaalis/kernel';
import { assertPublicWebhookTarget, isBlockedAddress } from './webhook-target';

const resolvingTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe('webhook targets', () => {
  it('block private, loopback, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isBlockedAddress(address)).toBe(true);
    }
    for (const address of ['8.8.8.8', '41.82.1.1', '2001:4860:4860::8888']) {
      expect(isBlockedAddress(address)).toBe(false);
    }
  });

  it('refuse a host resolving to a private address, even among public ones', async () => {
    const refused = assertPublicWebhookTarget(
      'https://shop.sn/hooks',
      [],
      resolvingTo('41.82.1.1', '10.0.0.5'),
    );
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(refused).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('refuse IP literals without resolving', async () => {
    await expect(
      assertPublicWebhookTarget('https://127.0.0.1/x', [], resolvingTo()),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await expect(
      assertPublicWebhookTarget('https://[::1]/x', [], resolvingTo()),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('accept public targets, allowed hosts, and names that do not resolve yet', async () => {
    await expect(
      assertPublicWebhookTarget('https://shop.sn/hooks', [], resolvingTo('41.82.1.1')),
    ).resolves.toBeUndefined();
    await expect(
      assertPublicWebhookTarget(
        'https://localhost:8443/x',
        ['localhost'],
        resolvingTo('127.0.0.1'),
      ),
    ).resolves.toBeUndefined();
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(
      assertPublicWebhookTarget('https://nowhere.invalid/x', [], failing),
    ).resolves.toBeUndefined();
  });
});
