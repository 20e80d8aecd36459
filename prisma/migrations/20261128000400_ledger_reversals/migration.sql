-- Ledger reversals (payouts context, libs/payouts/ledger): a provider reverses a transfer it had
-- confirmed (a later `reversed` from Wave), and the settled hold's amount and fee come back to
-- merchant_available as one more transaction, `<hold>:reversed`, of kind 'reverse'.
--
-- The hold keeps its status `settled`: the reversal is recorded only as that transaction, whose
-- id makes it happen once, so ledger_holds is unchanged. The kind's CHECK was declared inline in
-- 20261122000510_ledger_transactions, which gave it Postgres's default name.
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind_check
  CHECK (kind IN ('payment', 'hold', 'settle', 'release', 'reverse'));
