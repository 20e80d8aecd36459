import { givenWhenThen } from '@xaalis/kernel/testing';
import type { MerchantCommand } from './merchant.commands';
import { merchantDecider } from './merchant.decide';
import type { MerchantEvent } from './merchant.events';
import {
  apiKeyIssued,
  DEV_ID,
  issuedKey,
  MERCHANT_ID,
  merchantCreated,
  newKeyMaterial,
  OWNER_ID,
  rollKey,
  rollWebhookSecret,
  SECRET_AT_CREATION,
  T0,
  webhookSecretRolled,
} from './merchant.fixtures';

const HOUR = 3_600_000;

const { given, stateOf } = givenWhenThen(merchantDecider);

const createMerchant: MerchantCommand = {
  type: 'CreateMerchant',
  data: {
    merchantId: MERCHANT_ID,
    name: 'Boutique Ndiaye',
    ownerUserId: OWNER_ID,
    webhookSecretEncrypted: 'v1.iv.tag.cipher',
    now: T0,
  },
};

const KEY = issuedKey();

describe('merchant decider', () => {
  describe('CreateMerchant', () => {
    it('creates the merchant with its owner', () => {
      given([]).when(createMerchant).then([merchantCreated()]);
    });

    it('refuses to create it twice', () => {
      given([merchantCreated()]).when(createMerchant).thenRefuses('invalid_state');
    });
  });

  describe('AddMember', () => {
    const addDeveloper: MerchantCommand = {
      type: 'AddMember',
      data: { userId: DEV_ID, role: 'developer', now: T0 },
    };

    it('adds a member with a role', () => {
      given([merchantCreated()])
        .when(addDeveloper)
        .then([
          {
            type: 'MemberAdded',
            data: {
              merchantId: MERCHANT_ID,
              userId: DEV_ID,
              role: 'developer',
              addedAt: T0.toISOString(),
            },
          },
        ]);
    });

    it('refuses a member already present', () => {
      const added: MerchantEvent = {
        type: 'MemberAdded',
        data: {
          merchantId: MERCHANT_ID,
          userId: DEV_ID,
          role: 'developer',
          addedAt: T0.toISOString(),
        },
      };
      given([merchantCreated(), added]).when(addDeveloper).thenRefuses('invalid_state');
    });

    it('refuses the owner as a second member', () => {
      given([merchantCreated()])
        .when({ type: 'AddMember', data: { userId: OWNER_ID, role: 'developer', now: T0 } })
        .thenRefuses('invalid_state');
    });

    it('refuses an unknown merchant', () => {
      given([]).when(addDeveloper).thenRefuses('not_found');
    });
  });

  describe('UpdateAccount', () => {
    it('sets the webhook URL of one mode', () => {
      given([merchantCreated()])
        .when({
          type: 'UpdateAccount',
          data: { mode: 'live', webhookUrl: 'https://shop.sn/hooks', now: T0 },
        })
        .then([
          {
            type: 'AccountUpdated',
            data: {
              merchantId: MERCHANT_ID,
              mode: 'live',
              webhookUrl: 'https://shop.sn/hooks',
              updatedAt: T0.toISOString(),
            },
          },
        ]);
    });

    it('refuses a URL that is not https', () => {
      given([merchantCreated()])
        .when({
          type: 'UpdateAccount',
          data: { mode: 'test', webhookUrl: 'http://shop.sn/hooks', now: T0 },
        })
        .thenRefuses('validation_error');
    });

    it('refuses an unknown merchant', () => {
      given([])
        .when({
          type: 'UpdateAccount',
          data: { mode: 'test', webhookUrl: 'https://shop.sn/hooks', now: T0 },
        })
        .thenRefuses('not_found');
    });
  });

  describe('SetWaveIdentity', () => {
    it('records the aggregated merchant id', () => {
      given([merchantCreated()])
        .when({ type: 'SetWaveIdentity', data: { aggregatedMerchantId: 'am-123', now: T0 } })
        .then([
          {
            type: 'WaveIdentitySet',
            data: {
              merchantId: MERCHANT_ID,
              aggregatedMerchantId: 'am-123',
              setAt: T0.toISOString(),
            },
          },
        ]);
    });

    it('refuses an empty id', () => {
      given([merchantCreated()])
        .when({ type: 'SetWaveIdentity', data: { aggregatedMerchantId: '  ', now: T0 } })
        .thenRefuses('validation_error');
    });

    it('refuses an unknown merchant', () => {
      given([])
        .when({ type: 'SetWaveIdentity', data: { aggregatedMerchantId: 'am-1', now: T0 } })
        .thenRefuses('not_found');
    });
  });

  describe('IssueApiKey', () => {
    const issue = (
      overrides: Partial<Extract<MerchantCommand, { type: 'IssueApiKey' }>['data']> = {},
    ): MerchantCommand => ({
      type: 'IssueApiKey',
      data: { ...KEY, now: T0, ...overrides },
    });

    it('issues a secret key, keeping only the hash and display prefix', () => {
      given([merchantCreated()])
        .when(issue())
        .then([apiKeyIssued(KEY)]);
    });

    it('issues a restricted key with its scopes, duplicates folded', () => {
      const restricted = issuedKey({
        kind: 'restricted',
        scopes: ['payments:read', 'refunds:write'],
      });
      given([merchantCreated()])
        .when(
          issue({
            kind: 'restricted',
            scopes: ['payments:read', 'refunds:write', 'payments:read'],
          }),
        )
        .then([apiKeyIssued(restricted)]);
    });

    it('refuses an unknown scope, naming it', () => {
      const error = given([merchantCreated()])
        .when(issue({ kind: 'restricted', scopes: ['payments:read', 'payments:delete'] }))
        .thenRefuses('validation_error');
      expect(error.details).toEqual([
        { field: 'scopes[1]', issue: 'unknown scope "payments:delete"' },
      ]);
    });

    it('refuses a restricted key without scopes', () => {
      given([merchantCreated()])
        .when(issue({ kind: 'restricted', scopes: [] }))
        .thenRefuses('validation_error');
    });

    it('refuses scopes on a secret key', () => {
      given([merchantCreated()])
        .when(issue({ scopes: ['payments:read'] }))
        .thenRefuses('validation_error');
    });

    it("on a retry whose first run issued the key (the id is the idempotency key's), gives it a new secret", () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(issue({ secretHash: 'c'.repeat(64), displayPrefix: 'sk_test_IjKl…MnOp' }))
        .then([
          {
            type: 'ApiKeySecretReissued',
            data: {
              merchantId: MERCHANT_ID,
              keyId: KEY.keyId,
              secretHash: 'c'.repeat(64),
              displayPrefix: 'sk_test_IjKl…MnOp',
              reissuedAt: T0.toISOString(),
            },
          },
        ]);
    });

    it('refuses a key id already used by a key of another kind or mode, or revoked', () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(issue({ kind: 'restricted', scopes: ['payments:read'] }))
        .thenRefuses('invalid_state');
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(issue({ mode: 'live' }))
        .thenRefuses('invalid_state');
      const revoked: MerchantEvent = {
        type: 'ApiKeyRevoked',
        data: { merchantId: MERCHANT_ID, keyId: KEY.keyId, revokedAt: T0.toISOString() },
      };
      given([merchantCreated(), apiKeyIssued(KEY), revoked])
        .when(issue())
        .thenRefuses('invalid_state');
    });

    it('refuses an unknown merchant', () => {
      given([]).when(issue()).thenRefuses('not_found');
    });
  });

  describe('RollApiKey', () => {
    it('issues a replacement of the same kind and schedules the old key grace_hours later', () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(rollKey(KEY.keyId, { graceHours: 24 }))
        .then([
          {
            type: 'ApiKeyRolled',
            data: {
              merchantId: MERCHANT_ID,
              previousKeyId: KEY.keyId,
              scheduledRevokeAt: new Date(T0.getTime() + 24 * HOUR).toISOString(),
              newKey: { ...newKeyMaterial(), mode: 'test', kind: 'secret', scopes: null },
              rolledAt: T0.toISOString(),
            },
          },
        ]);
    });

    it('with no grace, stops the old key at once', () => {
      const [event] = merchantDecider.decide(
        rollKey(KEY.keyId),
        stateOf([merchantCreated(), apiKeyIssued(KEY)]),
      );
      expect(event.type === 'ApiKeyRolled' && event.data.scheduledRevokeAt).toBe(T0.toISOString());
    });

    it('keeps the scopes of a restricted key', () => {
      const restricted = issuedKey({ kind: 'restricted', scopes: ['balance:read'] });
      const [event] = merchantDecider.decide(
        rollKey(restricted.keyId, { kind: 'restricted' }),
        stateOf([merchantCreated(), apiKeyIssued(restricted)]),
      );
      expect(event.type === 'ApiKeyRolled' && event.data.newKey.scopes).toEqual(['balance:read']);
    });

    it('refuses a revoked key', () => {
      const revoked: MerchantEvent = {
        type: 'ApiKeyRevoked',
        data: { merchantId: MERCHANT_ID, keyId: KEY.keyId, revokedAt: T0.toISOString() },
      };
      given([merchantCreated(), apiKeyIssued(KEY), revoked])
        .when(rollKey(KEY.keyId))
        .thenRefuses('invalid_state');
    });

    it('refuses a key already rolled, during its grace and after it', () => {
      const rolled = merchantDecider.decide(
        rollKey(KEY.keyId, { graceHours: 2 }),
        stateOf([merchantCreated(), apiKeyIssued(KEY)]),
      );
      const history = [merchantCreated(), apiKeyIssued(KEY), ...rolled];
      const again = (now: Date) =>
        rollKey(KEY.keyId, { newKey: newKeyMaterial('key_01JD0000000000000000000030'), now });
      given(history)
        .when(again(new Date(T0.getTime() + HOUR)))
        .thenRefuses('invalid_state');
      given(history)
        .when(again(new Date(T0.getTime() + 3 * HOUR)))
        .thenRefuses('invalid_state');
    });

    it('on a retry whose first run rolled (same replacement id), gives the replacement a new secret', () => {
      const rolled = merchantDecider.decide(
        rollKey(KEY.keyId, { graceHours: 2 }),
        stateOf([merchantCreated(), apiKeyIssued(KEY)]),
      );
      const retry = rollKey(KEY.keyId, {
        graceHours: 2,
        newKey: { ...newKeyMaterial(), secretHash: 'd'.repeat(64) },
        now: new Date(T0.getTime() + 60_000),
      });
      given([merchantCreated(), apiKeyIssued(KEY), ...rolled])
        .when(retry)
        .then([
          {
            type: 'ApiKeySecretReissued',
            data: {
              merchantId: MERCHANT_ID,
              keyId: newKeyMaterial().keyId,
              secretHash: 'd'.repeat(64),
              displayPrefix: newKeyMaterial().displayPrefix,
              reissuedAt: new Date(T0.getTime() + 60_000).toISOString(),
            },
          },
        ]);
    });

    it("refuses a replacement id already used by a key that is not this roll's", () => {
      const other = issuedKey({ keyId: newKeyMaterial().keyId });
      given([merchantCreated(), apiKeyIssued(KEY), apiKeyIssued(other)])
        .when(rollKey(KEY.keyId))
        .thenRefuses('invalid_state');
    });

    it('refuses an unknown key, and a key of the other mode', () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(rollKey('key_01JD0000000000000000000099'))
        .thenRefuses('not_found');
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(rollKey(KEY.keyId, { mode: 'live' }))
        .thenRefuses('not_found');
    });

    it('refuses a grace outside 0..720 hours or not whole', () => {
      for (const graceHours of [-1, 721, 1.5]) {
        given([merchantCreated(), apiKeyIssued(KEY)])
          .when(rollKey(KEY.keyId, { graceHours }))
          .thenRefuses('validation_error');
      }
    });

    it('refuses a replacement of another kind', () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(rollKey(KEY.keyId, { kind: 'restricted' }))
        .thenRefuses('invalid_state');
    });
  });

  describe('RevokeApiKey', () => {
    const revoke = (keyId: string, now = T0, mode: 'test' | 'live' = 'test'): MerchantCommand => ({
      type: 'RevokeApiKey',
      data: { keyId, mode, now },
    });
    const revoked: MerchantEvent = {
      type: 'ApiKeyRevoked',
      data: { merchantId: MERCHANT_ID, keyId: KEY.keyId, revokedAt: T0.toISOString() },
    };

    it('revokes a key at once', () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(revoke(KEY.keyId))
        .then([revoked]);
    });

    it('cuts a roll grace short', () => {
      const rolled = merchantDecider.decide(
        rollKey(KEY.keyId, { graceHours: 5 }),
        stateOf([merchantCreated(), apiKeyIssued(KEY)]),
      );
      given([merchantCreated(), apiKeyIssued(KEY), ...rolled])
        .when(revoke(KEY.keyId))
        .then([revoked]);
    });

    it('refuses revoking a revoked key', () => {
      given([merchantCreated(), apiKeyIssued(KEY), revoked])
        .when(revoke(KEY.keyId))
        .thenRefuses('invalid_state');
    });

    it('refuses a rolled key whose grace is over', () => {
      const rolled = merchantDecider.decide(
        rollKey(KEY.keyId),
        stateOf([merchantCreated(), apiKeyIssued(KEY)]),
      );
      given([merchantCreated(), apiKeyIssued(KEY), ...rolled])
        .when(revoke(KEY.keyId))
        .thenRefuses('invalid_state');
    });

    it('refuses an unknown key and a key of the other mode', () => {
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(revoke('key_01JD0000000000000000000099'))
        .thenRefuses('not_found');
      given([merchantCreated(), apiKeyIssued(KEY)])
        .when(revoke(KEY.keyId, T0, 'live'))
        .thenRefuses('not_found');
    });

    it('refuses an unknown merchant', () => {
      given([]).when(revoke(KEY.keyId)).thenRefuses('not_found');
    });
  });

  describe('RollWebhookSecret', () => {
    const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
    const S1 = 'v1.iv2.tag2.cipher2';
    const S2 = 'v1.iv3.tag3.cipher3';
    /** A roll after the one in the history (a roll of the same id is its retry). */
    const SECOND_ROLL = { webhookSecretEncrypted: S2, rollId: 'whr_01JD0000000000000000000031' };

    it('signs with the new secret and keeps the current one until the overlap ends', () => {
      given([merchantCreated()])
        .when(rollWebhookSecret({ webhookSecretEncrypted: S1, overlapHours: 24 }))
        .then([
          webhookSecretRolled(S1, {
            webhookSecretEncrypted: SECRET_AT_CREATION,
            expiresAt: at(24),
          }),
        ]);
    });

    it('with no overlap, retires the current secret at once', () => {
      given([merchantCreated()])
        .when(rollWebhookSecret({ webhookSecretEncrypted: S1, overlapHours: 0 }))
        .then([webhookSecretRolled(S1, null)]);
    });

    it('takes the bounds 0 and 168 hours', () => {
      given([merchantCreated()])
        .when(rollWebhookSecret({ webhookSecretEncrypted: S1, overlapHours: 168 }))
        .then([
          webhookSecretRolled(S1, {
            webhookSecretEncrypted: SECRET_AT_CREATION,
            expiresAt: at(168),
          }),
        ]);
    });

    it('during an overlap, keeps the current secret and retires the older one', () => {
      const firstRoll = webhookSecretRolled(S1, {
        webhookSecretEncrypted: SECRET_AT_CREATION,
        expiresAt: at(24),
      });
      given([merchantCreated(), firstRoll])
        .when(rollWebhookSecret({ ...SECOND_ROLL, overlapHours: 2, now: at(1) }))
        .then([
          webhookSecretRolled(
            S2,
            { webhookSecretEncrypted: S1, expiresAt: at(3) },
            at(1),
            SECOND_ROLL.rollId,
          ),
        ]);
    });

    it('after an overlap has ended, replaces the current secret like a first roll', () => {
      const firstRoll = webhookSecretRolled(S1, {
        webhookSecretEncrypted: SECRET_AT_CREATION,
        expiresAt: at(24),
      });
      given([merchantCreated(), firstRoll])
        .when(rollWebhookSecret({ ...SECOND_ROLL, overlapHours: 0, now: at(30) }))
        .then([webhookSecretRolled(S2, null, at(30), SECOND_ROLL.rollId)]);
    });

    it('after a roll without overlap, names the rolled-in secret as the previous one', () => {
      given([merchantCreated(), webhookSecretRolled(S1, null)])
        .when(rollWebhookSecret({ ...SECOND_ROLL, overlapHours: 1, now: at(5) }))
        .then([
          webhookSecretRolled(
            S2,
            { webhookSecretEncrypted: S1, expiresAt: at(6) },
            at(5),
            SECOND_ROLL.rollId,
          ),
        ]);
    });

    it('refuses an overlap outside 0..168 hours or not whole, naming overlap_hours', () => {
      for (const overlapHours of [-1, 169, 1.5, Number.NaN]) {
        const error = given([merchantCreated()])
          .when(rollWebhookSecret({ overlapHours }))
          .thenRefuses('validation_error');
        expect(error.details).toEqual([
          { field: 'overlap_hours', issue: 'must be an integer from 0 to 168' },
        ]);
      }
    });

    it('refuses the current secret as its own replacement', () => {
      given([merchantCreated(), webhookSecretRolled(S1, null)])
        .when(rollWebhookSecret({ webhookSecretEncrypted: S1, rollId: SECOND_ROLL.rollId }))
        .thenRefuses('invalid_state');
    });

    it('rolls nothing more on a retry of the latest roll (same roll id), and rolls again for another', () => {
      given([merchantCreated(), webhookSecretRolled(S1, null)])
        .when(rollWebhookSecret({ webhookSecretEncrypted: S2 }))
        .then([]);
      given([merchantCreated(), webhookSecretRolled(S1, null)])
        .when(rollWebhookSecret(SECOND_ROLL))
        .then([
          webhookSecretRolled(
            S2,
            { webhookSecretEncrypted: S1, expiresAt: at(24) },
            T0,
            SECOND_ROLL.rollId,
          ),
        ]);
    });

    it('refuses an unknown merchant', () => {
      given([]).when(rollWebhookSecret()).thenRefuses('not_found');
    });
  });
});
