-- Ledger transactions and holds (payouts context, libs/payouts/ledger).
--
-- A ledger transaction is posted exactly once: its id (`payment:<pay_id>`, `refund:<re_id>`,
-- `payout:<po_id>`, `<hold>:settled`, `<hold>:released`) is the primary key, so a redelivered
-- message finds it taken and posts nothing. Nothing wrote ledger_entries before this migration,
-- so no transaction rows need backfilling.
CREATE TABLE ledger_transactions (
  txn_id      TEXT        PRIMARY KEY,
  merchant_id TEXT        NOT NULL,
  mode        TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  kind        TEXT        NOT NULL CHECK (kind IN ('payment', 'hold', 'settle', 'release')),
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- Target of the entries' foreign key below.
  CONSTRAINT ledger_transactions_owner UNIQUE (txn_id, merchant_id, mode)
);

-- Every entry belongs to a recorded transaction, and to that transaction's merchant and mode: a
-- transaction never moves money between merchants or between test and live.
ALTER TABLE ledger_entries
  ADD CONSTRAINT ledger_entries_txn_fkey FOREIGN KEY (txn_id, merchant_id, mode)
  REFERENCES ledger_transactions (txn_id, merchant_id, mode);

-- Money set aside from a merchant's available balance for a refund or a payout in flight. A hold
-- ends once, settled (the money left) or released (it came back); the row lock on `status` is
-- what makes a concurrent settle and release exclude each other.
CREATE TABLE ledger_holds (
  ref         TEXT        PRIMARY KEY REFERENCES ledger_transactions (txn_id),
  amount      BIGINT      NOT NULL CHECK (amount > 0),
  -- Taken with the amount, booked to platform_fees on settle, given back on release.
  fee         BIGINT      NOT NULL DEFAULT 0 CHECK (fee >= 0),
  status      TEXT        NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'settled', 'released')),
  -- Where a settled hold's amount went: customer_refunds or payouts_sent.
  settled_to  TEXT        CHECK (settled_to IN ('customer_refunds', 'payouts_sent')),
  resolved_at TIMESTAMPTZ,
  CONSTRAINT ledger_holds_resolution CHECK (
    (status = 'held' AND settled_to IS NULL AND resolved_at IS NULL)
    OR (status = 'settled' AND settled_to IS NOT NULL AND resolved_at IS NOT NULL)
    OR (status = 'released' AND settled_to IS NULL AND resolved_at IS NOT NULL)
  )
);
