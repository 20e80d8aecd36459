-- Agent keys (payouts context): ids `agk_…`, secrets `ak_test_…` / `ak_live_…` (CONTRACT 1), each
-- belonging to one agent wallet (`aw_…`). The read model the gateway's bearer guard asks through
-- `payouts.agent_key.find`; written by the agent-wallet projection, whose revoke also sends
-- `pg_notify('xaalis_api_key_changed', id)` in the same transaction (`announceApiKeyChanged`).
CREATE TABLE agent_keys (
  id              TEXT        PRIMARY KEY,
  merchant_id     TEXT        NOT NULL,
  mode            TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  agent_wallet_id TEXT        NOT NULL,
  -- HMAC-SHA256 of the secret under SECRET_HASH_KEY; the secret itself is never stored.
  secret_hash     TEXT        NOT NULL UNIQUE,
  created_at      TIMESTAMPTZ NOT NULL,
  revoked_at      TIMESTAMPTZ
);
-- `GET /v1/agent-wallets/{id}/keys`: a wallet's keys, newest first.
CREATE INDEX agent_keys_wallet ON agent_keys (merchant_id, mode, agent_wallet_id, id DESC);
