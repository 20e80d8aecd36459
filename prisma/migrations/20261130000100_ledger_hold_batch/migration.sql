-- A batch of ledger holds in one call (libs/payouts/ledger, `postHolds`): a merchant's holds take
-- turns on its balance rows, and a turn used to last five round trips to a busy process (BEGIN,
-- the jobs, the records, the balances, COMMIT). As one statement, a turn is one round trip: with
-- one hot merchant, agent payouts accepted per second rose by about a quarter (`npm run bench`).
--
-- What it writes is what the batch wrote before, in the same order, as one transaction (the
-- caller's statement): the holds' due jobs (the upsert of `scheduleJobs`, libs/shared/jobs);
-- each hold's transaction, entries, hold row and missing balance rows; then every balance row's
-- move, in (merchant, mode, account) order, the one order every posting locks balance rows in.
-- It fails, and writes nothing, when one of the holds was posted before (P0001) or when the
-- balance does not cover the batch (ledger_available_not_negative): the caller then posts each
-- hold alone, where a repeat and a refusal are told apart.
CREATE FUNCTION ledger_post_holds(
  p_holds   jsonb, -- [{txn_id, merchant_id, mode, amount, fee}]
  p_entries jsonb, -- [{txn_id, account, amount}]
  p_moves   jsonb, -- [{merchant_id, mode, account, amount}]: one per balance row, summed
  p_jobs    jsonb  -- [{kind, reference, due_at}]
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_recorded integer;
BEGIN
  INSERT INTO jobs (kind, reference, due_at)
  SELECT kind, reference, due_at
    FROM jsonb_to_recordset(p_jobs) AS r(kind text, reference text, due_at timestamptz)
   ORDER BY kind, reference
  ON CONFLICT (kind, reference) DO UPDATE
    SET due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL, lease = jobs.lease + 1;

  WITH input AS (
    SELECT * FROM jsonb_to_recordset(p_holds)
      AS r(txn_id text, merchant_id text, mode text, amount bigint, fee bigint)
  ), txn AS (
    INSERT INTO ledger_transactions (txn_id, merchant_id, mode, kind)
    SELECT txn_id, merchant_id, mode, 'hold' FROM input ORDER BY txn_id
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
    SELECT input.txn_id, input.amount, input.fee FROM input JOIN txn USING (txn_id)
  )
  SELECT count(*) INTO v_recorded FROM txn;
  IF v_recorded <> jsonb_array_length(p_holds) THEN
    RAISE EXCEPTION 'A hold of the batch was posted before: each goes alone';
  END IF;

  -- The rows exist (opened above), so each takes the update; the inserted 0 is only what
  -- Postgres checks the CHECK on before it looks for the conflict (see ledger.store.ts, MOVE).
  WITH moves AS (
    SELECT * FROM jsonb_to_recordset(p_moves)
      AS m(merchant_id text, mode text, account text, amount bigint)
  )
  INSERT INTO ledger_balances AS b (merchant_id, mode, account, balance)
  SELECT merchant_id, mode, account, 0 FROM moves ORDER BY merchant_id, mode, account
  ON CONFLICT (merchant_id, mode, account) DO UPDATE
  SET balance = b.balance + (SELECT m.amount FROM moves m
                              WHERE m.merchant_id = b.merchant_id AND m.mode = b.mode
                                AND m.account = b.account);
END;
$$;
