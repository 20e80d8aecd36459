-- The merchant balance ledger (payouts context). Double entry: every ledger transaction is a set
-- of entries whose amounts sum to zero; balances are the running sum per account.
CREATE TABLE ledger_entries (
  id            BIGSERIAL PRIMARY KEY,
  txn_id        TEXT        NOT NULL,
  merchant_id   TEXT        NOT NULL,
  mode          TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  account       TEXT        NOT NULL,
  amount        BIGINT      NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_txn ON ledger_entries (txn_id);
CREATE INDEX ledger_entries_merchant ON ledger_entries (merchant_id, mode, account);

CREATE TABLE ledger_balances (
  merchant_id   TEXT   NOT NULL,
  mode          TEXT   NOT NULL CHECK (mode IN ('test', 'live')),
  account       TEXT   NOT NULL,
  balance       BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (merchant_id, mode, account),
  -- A merchant's available balance never goes below zero, whatever runs concurrently.
  CONSTRAINT ledger_available_not_negative CHECK (account <> 'merchant_available' OR balance >= 0)
);
