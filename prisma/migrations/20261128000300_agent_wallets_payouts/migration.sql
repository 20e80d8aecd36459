-- Agent wallets and payouts (payouts context, issue 19): the lists' read models, written by the
-- payouts projection from the `agent-wallet-…` and `payout-…` streams (the truth). One wallet or
-- payout is read from its stream; these tables answer the lists and the wallet a key belongs to.
CREATE TABLE agent_wallets (
  id          TEXT        PRIMARY KEY,
  merchant_id TEXT        NOT NULL,
  mode        TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  -- The wallet as `GET /v1/agent-wallets/{id}` shows it (spec 2.6), at `revision`.
  object      JSONB       NOT NULL,
  revision    BIGINT      NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL
);
-- `GET /v1/agent-wallets`: newest first.
CREATE INDEX agent_wallets_list ON agent_wallets (merchant_id, mode, id DESC);

CREATE TABLE payouts (
  id               TEXT        PRIMARY KEY,
  merchant_id      TEXT        NOT NULL,
  mode             TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  agent_wallet_id  TEXT,
  client_reference TEXT,
  status           TEXT        NOT NULL,
  -- The payout's folded state at `revision`; lists show it as `GET /v1/payouts/{id}` does.
  state            JSONB       NOT NULL,
  revision         BIGINT      NOT NULL,
  created_at       TIMESTAMPTZ NOT NULL
);
-- `GET /v1/agent-wallets/{id}/payouts`: a wallet's payouts, newest first, by client reference.
CREATE INDEX payouts_wallet_list ON payouts (merchant_id, mode, agent_wallet_id, id DESC);
CREATE INDEX payouts_wallet_reference ON payouts (agent_wallet_id, client_reference, id DESC);
