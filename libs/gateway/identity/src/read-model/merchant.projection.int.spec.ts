import { createPrismaClient, type PrismaClient } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import {
  apiKeyIssued,
  DEV_ID,
  issuedKey,
  MERCHANT_ID,
  merchantCreated,
  OWNER_ID,
  SECRET_AT_CREATION,
  T0,
  webhookSecretRolled,
} from '@xaalis/identity-domain/testing';
import type { MerchantEvent } from '@xaalis/identity-domain';
import { merchantProjection } from './merchant.projection';

let position = 0;
const recorded = (event: MerchantEvent): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(++position).padStart(12, '0')}`,
  streamName: `merchant-${MERCHANT_ID}`,
  type: event.type,
  data: event.data,
  metadata: {},
  revision: BigInt(position),
  position: String(position).padStart(20, '0'),
  createdAt: T0,
});

const at = (hours: number) => new Date(T0.getTime() + hours * 3_600_000);

describeWithPostgres('merchant projection', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  /** Applies each event in its own transaction, twice: the projection must be idempotent. */
  const project = async (...events: MerchantEvent[]) => {
    for (const event of events) {
      const record = recorded(event);
      for (let i = 0; i < 2; i++)
        await prisma.$transaction((tx) => merchantProjection.apply(record, tx));
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.pool);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  beforeEach(async () => {
    await prisma.$transaction((tx) => merchantProjection.reset(tx));
  });

  it('MerchantCreated: the merchant, its encrypted secret and its owner', async () => {
    await project(merchantCreated());
    expect(await prisma.merchant.findMany()).toEqual([
      {
        id: MERCHANT_ID,
        name: 'Boutique Ndiaye',
        webhookSecretEncrypted: SECRET_AT_CREATION,
        previousWebhookSecretEncrypted: null,
        previousWebhookSecretExpiresAt: null,
        createdAt: T0,
      },
    ]);
    expect(await prisma.merchantMember.findMany()).toEqual([
      { merchantId: MERCHANT_ID, userId: OWNER_ID, role: 'owner', createdAt: T0 },
    ]);
  });

  it('MemberAdded: a member with a role', async () => {
    await project(merchantCreated(), {
      type: 'MemberAdded',
      data: {
        merchantId: MERCHANT_ID,
        userId: DEV_ID,
        role: 'developer',
        addedAt: at(1).toISOString(),
      },
    });
    expect(
      await prisma.merchantMember.findUnique({
        where: { merchantId_userId: { merchantId: MERCHANT_ID, userId: DEV_ID } },
      }),
    ).toEqual({
      merchantId: MERCHANT_ID,
      userId: DEV_ID,
      role: 'developer',
      createdAt: at(1),
    });
  });

  it('AccountUpdated: the webhook URL of that mode only', async () => {
    await project(
      merchantCreated(),
      {
        type: 'AccountUpdated',
        data: {
          merchantId: MERCHANT_ID,
          mode: 'test',
          webhookUrl: 'https://a.sn/1',
          updatedAt: at(1).toISOString(),
        },
      },
      {
        type: 'AccountUpdated',
        data: {
          merchantId: MERCHANT_ID,
          mode: 'test',
          webhookUrl: 'https://a.sn/2',
          updatedAt: at(2).toISOString(),
        },
      },
    );
    expect(await prisma.merchantAccount.findMany()).toEqual([
      { merchantId: MERCHANT_ID, mode: 'test', webhookUrl: 'https://a.sn/2', updatedAt: at(2) },
    ]);
  });

  it('WaveIdentitySet: the live Wave identity', async () => {
    await project(merchantCreated(), {
      type: 'WaveIdentitySet',
      data: { merchantId: MERCHANT_ID, aggregatedMerchantId: 'am-42', setAt: at(1).toISOString() },
    });
    expect(await prisma.providerIdentity.findMany()).toEqual([
      {
        merchantId: MERCHANT_ID,
        mode: 'live',
        provider: 'wave',
        aggregatedMerchantId: 'am-42',
        updatedAt: at(1),
      },
    ]);
  });

  it('ApiKeyIssued: hash and prefix only; scopes for restricted keys', async () => {
    const restricted = issuedKey({
      keyId: 'key_01JD0000000000000000000011',
      kind: 'restricted',
      scopes: ['balance:read'],
      secretHash: 'c'.repeat(64),
    });
    await project(merchantCreated(), apiKeyIssued(), apiKeyIssued(restricted));
    const rows = await prisma.apiKey.findMany({ orderBy: { id: 'asc' } });
    expect(rows).toEqual([
      {
        id: issuedKey().keyId,
        merchantId: MERCHANT_ID,
        mode: 'test',
        kind: 'secret',
        scopes: [],
        secretHash: 'a'.repeat(64),
        displayPrefix: 'sk_test_AbCd…WxYz',
        createdAt: T0,
        revokedAt: null,
        scheduledRevokeAt: null,
      },
      expect.objectContaining({
        id: restricted.keyId,
        kind: 'restricted',
        scopes: ['balance:read'],
      }),
    ]);
  });

  it('ApiKeyRolled: the replacement, and the old key scheduled', async () => {
    await project(merchantCreated(), apiKeyIssued(), {
      type: 'ApiKeyRolled',
      data: {
        merchantId: MERCHANT_ID,
        previousKeyId: issuedKey().keyId,
        scheduledRevokeAt: at(24).toISOString(),
        newKey: issuedKey({ keyId: 'key_01JD0000000000000000000020', secretHash: 'b'.repeat(64) }),
        rolledAt: at(1).toISOString(),
      },
    });
    const old = await prisma.apiKey.findUnique({ where: { id: issuedKey().keyId } });
    const replacement = await prisma.apiKey.findUnique({
      where: { id: 'key_01JD0000000000000000000020' },
    });
    expect(old).toMatchObject({ scheduledRevokeAt: at(24), revokedAt: null });
    expect(replacement).toMatchObject({
      secretHash: 'b'.repeat(64),
      createdAt: at(1),
      scheduledRevokeAt: null,
    });
  });

  it('ApiKeyRevoked: revoked_at', async () => {
    await project(merchantCreated(), apiKeyIssued(), {
      type: 'ApiKeyRevoked',
      data: { merchantId: MERCHANT_ID, keyId: issuedKey().keyId, revokedAt: at(3).toISOString() },
    });
    expect(await prisma.apiKey.findUnique({ where: { id: issuedKey().keyId } })).toMatchObject({
      revokedAt: at(3),
    });
  });

  describe('WebhookSecretRolled', () => {
    const secrets = () =>
      prisma.merchant.findUnique({
        where: { id: MERCHANT_ID },
        select: {
          webhookSecretEncrypted: true,
          previousWebhookSecretEncrypted: true,
          previousWebhookSecretExpiresAt: true,
        },
      });

    it('the new secret, and the one it replaced with its expiry', async () => {
      await project(
        merchantCreated(),
        webhookSecretRolled(
          'v1.new',
          { webhookSecretEncrypted: SECRET_AT_CREATION, expiresAt: at(25) },
          at(1),
        ),
      );
      expect(await secrets()).toEqual({
        webhookSecretEncrypted: 'v1.new',
        previousWebhookSecretEncrypted: SECRET_AT_CREATION,
        previousWebhookSecretExpiresAt: at(25),
      });
    });

    it('a second roll keeps only the newest two', async () => {
      await project(
        merchantCreated(),
        webhookSecretRolled(
          'v1.second',
          { webhookSecretEncrypted: SECRET_AT_CREATION, expiresAt: at(25) },
          at(1),
        ),
        webhookSecretRolled(
          'v1.third',
          { webhookSecretEncrypted: 'v1.second', expiresAt: at(4) },
          at(2),
        ),
      );
      expect(await secrets()).toEqual({
        webhookSecretEncrypted: 'v1.third',
        previousWebhookSecretEncrypted: 'v1.second',
        previousWebhookSecretExpiresAt: at(4),
      });
    });

    it('without overlap, no previous secret, even when one was still signing', async () => {
      await project(
        merchantCreated(),
        webhookSecretRolled(
          'v1.second',
          { webhookSecretEncrypted: SECRET_AT_CREATION, expiresAt: at(25) },
          at(1),
        ),
        webhookSecretRolled('v1.third', null, at(2)),
      );
      expect(await secrets()).toEqual({
        webhookSecretEncrypted: 'v1.third',
        previousWebhookSecretEncrypted: null,
        previousWebhookSecretExpiresAt: null,
      });
    });
  });

  it('reset empties the read models but keeps key usage', async () => {
    await project(merchantCreated(), apiKeyIssued());
    await prisma.apiKeyUsage.create({ data: { keyId: issuedKey().keyId, lastUsedAt: T0 } });
    await prisma.$transaction((tx) => merchantProjection.reset(tx));
    expect(await prisma.merchant.count()).toBe(0);
    expect(await prisma.apiKey.count()).toBe(0);
    expect(await prisma.merchantMember.count()).toBe(0);
    expect(await prisma.apiKeyUsage.count()).toBe(1);
  });

  it('ignores event types it does not know', async () => {
    await prisma.$transaction((tx) =>
      merchantProjection.apply(
        { ...recorded(merchantCreated()), type: 'SomethingNew', data: {} },
        tx,
      ),
    );
    expect(await prisma.merchant.count()).toBe(0);
  });
});
