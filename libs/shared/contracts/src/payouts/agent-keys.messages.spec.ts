import { DomainError } from '@xaalis/kernel';
import { validateMessage } from '../shared/validate-message';
import { AgentKeyFindReply, AgentKeyFindRequest } from './agent-keys.messages';

const HASH = 'ab'.repeat(32);
const key = {
  id: 'agk_01JF0000000000000000000001',
  merchant_id: 'mer_01JF0000000000000000000001',
  mode: 'test',
  agent_wallet_id: 'aw_01JF0000000000000000000001',
  secret_hash: HASH,
};

const issues = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error.details;
    throw error;
  }
  return 'accepted';
};

describe('payouts.agent_key.find', () => {
  it('asks by a keyed hash, never by anything else', () => {
    expect(validateMessage(AgentKeyFindRequest, { secret_hash: HASH })).toEqual({
      secret_hash: HASH,
    });
    for (const secret_hash of ['ak_test_abc', HASH.toUpperCase(), HASH.slice(1), undefined]) {
      expect(issues(() => validateMessage(AgentKeyFindRequest, { secret_hash }))).toEqual([
        { field: 'secret_hash', issue: 'secret_hash must be a keyed hash (64 hex digits)' },
      ]);
    }
  });

  it('answers a key or null, and nothing in between', () => {
    expect(validateMessage(AgentKeyFindReply, { key })).toEqual({ key });
    expect(validateMessage(AgentKeyFindReply, { key: null })).toEqual({ key: null });
    expect(issues(() => validateMessage(AgentKeyFindReply, {}))).not.toBe('accepted');
    expect(issues(() => validateMessage(AgentKeyFindReply, { key: 'agk_1' }))).not.toBe('accepted');
    expect(
      issues(() => validateMessage(AgentKeyFindReply, { key: { ...key, agent_wallet_id: null } })),
    ).toEqual([
      {
        field: 'key.agent_wallet_id',
        issue: 'agent_wallet_id must be an agent wallet id (aw_…)',
      },
    ]);
  });
});
