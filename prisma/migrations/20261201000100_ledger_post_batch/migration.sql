-- A batch of any ledger postings in one call (libs/payouts/ledger, `postBatch`): holds, as
-- `ledger_post_holds` did (migration 20261130000100_ledger_hold_batch), and now payment credits.
-- A merchant's postings take turns on its balance rows, and a credit in its own transaction held
-- them across two round trips to a busy process (its balance move, then COMMIT): with every
-- payment of one merchant succeeding at once, the credits queued 50-60 ms each on those rows
-- (pg_stat_statements, `BENCH_ONLY=webhooks`), and the forwarder, which waits for every consumer,
-- with them. As one statement, a turn lasts as long as the statement runs.
--
-- What it writes is what the postings wrote one by one, in the same order, as one transaction
-- (the caller's statement): the batch's due jobs (the upsert of `scheduleJobs`, libs/shared/jobs);
-- each new posting's transaction, entries and missing balance rows, and the hold row of those
-- that are holds; then every balance row's move by the new postings' entries, in (merchant, mode,
-- account) order, the one order every posting locks balance rows in. A transaction posted before
-- is left as it is and left out of the answer, the ids of the transactions this call posted: the
-- caller posts it again alone, where a repeat is told from a conflicting one. The ids must differ
-- within a batch. It fails, and writes nothing, when the balance does not cover the batch
-- (ledger_available_not_negative): the caller then posts each alone, where a refusal is one
-- posting's. `ledger_post_holds` is no longer called; it stays until no running release calls it.
CREATE FUNCTION ledger_post_batch(
  p_transactions jsonb, -- [{txn_id, merchant_id, mode, kind}]
  p_entries      jsonb, -- [{txn_id, account, amount}]
  p_holds        jsonb, -- [{ref, amount, fee}]: the transactions that are holds (ref = txn_id)
  p_jobs         jsonb  -- [{kind, reference, due_at}]
) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  v_posted text[];
BEGIN
  INSERT INTO jobs (kind, reference, due_at)
  SELECT kind, reference, due_at
    FROM jsonb_to_recordset(p_jobs) AS r(kind text, reference text, due_at timestamptz)
   ORDER BY kind, reference
  ON CONFLICT (kind, reference) DO UPDATE
    SET due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL, lease = jobs.lease + 1;

  WITH input AS (
    SELECT * FROM jsonb_to_recordset(p_transactions)
      AS r(txn_id text, merchant_id text, mode text, kind text)
  ), txn AS (
    INSERT INTO ledger_transactions (txn_id, merchant_id, mode, kind)
    SELECT txn_id, merchant_id, mode, kind FROM input ORDER BY txn_id
    ON CONFLICT (txn_id) DO NOTHING
    RETURNING txn_id, merchant_id, mode
  ), entry AS (
    SELECT * FROM jsonb_to_recordset(p_entries) AS e(txn_id text, account text, amount bigint)
  ), written AS (
    INSERT INTO ledger_entries (txn_id, merchant_id, mode, account, amount)
    SELECT txn.txn_id, txn.merchant_id, txn.mode, entry.account, entry.amount
      FROM txn JOIN entry USING (txn_id)
  ), opened AS (
    INSERT INTO ledger_balances (merchant_id, mode, account, balance)
    SELECT DISTINCT txn.merchant_id, txn.mode, entry.account, 0::bigint
      FROM txn JOIN entry USING (txn_id)
     ORDER BY 1, 2, 3
    ON CONFLICT (merchant_id, mode, account) DO NOTHING
  ), held AS (
    INSERT INTO ledger_holds (ref, amount, fee)
    SELECT h.ref, h.amount, h.fee
      FROM jsonb_to_recordset(p_holds) AS h(ref text, amount bigint, fee bigint)
      JOIN txn ON txn.txn_id = h.ref
  )
  SELECT coalesce(array_agg(txn_id), '{}') INTO v_posted FROM txn;

  -- The rows exist (opened above), so each takes the update; the inserted 0 is only what
  -- Postgres checks the CHECK on before it looks for the conflict (see ledger.store.ts, MOVE).
  WITH moves AS (
    SELECT t.merchant_id, t.mode, e.account, sum(e.amount)::bigint AS amount
      FROM jsonb_to_recordset(p_transactions) AS t(txn_id text, merchant_id text, mode text)
      JOIN jsonb_to_recordset(p_entries) AS e(txn_id text, account text, amount bigint)
        USING (txn_id)
     WHERE t.txn_id = ANY (v_posted)
     GROUP BY 1, 2, 3
  )
  INSERT INTO ledger_balances AS b (merchant_id, mode, account, balance)
  SELECT merchant_id, mode, account, 0 FROM moves ORDER BY merchant_id, mode, account
  ON CONFLICT (merchant_id, mode, account) DO UPDATE
  SET balance = b.balance + (SELECT m.amount FROM moves m
                              WHERE m.merchant_id = b.merchant_id AND m.mode = b.mode
                                AND m.account = b.account);

  RETURN QUERY SELECT unnest(v_posted);
END;
$$;
