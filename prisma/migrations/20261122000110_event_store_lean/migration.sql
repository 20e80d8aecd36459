-- Lean event store (libs/shared/event-store, PostgresEventStore): es_messages alone.
--
-- An append used to write two rows (the stream's row in es_streams, whose conditional update was
-- the optimistic-concurrency check, and the event) and four index entries, through a plpgsql
-- function. It now writes the event rows only, in one plain INSERT, and the check is
-- es_messages' primary key (stream_name, stream_position):
--
-- * Revisions are dense: every append writes at the stream's head + 1 (0 for a new stream), so a
--   stream is at revision N exactly when its row N exists and its row N + 1 does not, a stream
--   exists when it has an event, and its revision is max(stream_position), one descent of the
--   primary key.
-- * Two appenders writing the same position: the unique index makes the second wait for the
--   first to commit and then fail, so exactly one wins. The loser learns the new head from a
--   fresh snapshot and reports a conflict (or, for 'any', tries at the new head).
-- * A retried append (same event ids) fails on es_messages_message_id_key before writing
--   anything; es_find_retried_append then tells an idempotent retry from a duplicate id.
--
-- es_messages keeps its rows, columns and indexes, so every event stays readable; es_streams only
-- repeated what es_messages holds, and is dropped once that is checked.

DO $$
DECLARE
  v_bad text;
BEGIN
  SELECT s.stream_name INTO v_bad
    FROM es_streams s
    LEFT JOIN LATERAL (
      SELECT max(m.stream_position) AS head, count(*) AS n
        FROM es_messages m WHERE m.stream_name = s.stream_name
    ) m ON true
   WHERE m.head IS DISTINCT FROM s.stream_position OR m.n <> s.stream_position + 1
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'event_store_lean: stream % does not match its events in es_messages', v_bad;
  END IF;
  SELECT m.stream_name INTO v_bad
    FROM es_messages m
   WHERE NOT EXISTS (SELECT 1 FROM es_streams s WHERE s.stream_name = m.stream_name)
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'event_store_lean: stream % has events but no es_streams row', v_bad;
  END IF;
END;
$$;

DROP FUNCTION es_append_to_stream(text, text, bigint, uuid[], text[], jsonb[], jsonb[], boolean);
DROP FUNCTION es_find_retried_append(text, text, bigint, uuid[]);
DROP TABLE es_streams;

-- Is p_ids (in order) already stored in the stream, i.e. is this append a retry of one that
-- succeeded? Mirrors EventStoreDB: a retry is recognised when the batch's first id is in the
-- stream, every following id sits at the following revision, and the expected revision the
-- caller sent is the one the original append had. Returns no row when the first id is not in
-- the stream, a 'conflict' row (with the stream's revision) when it is but the batch or the
-- expected revision does not match.
CREATE FUNCTION es_find_retried_append(
  p_stream_name       text,
  p_expected_kind     text,
  p_expected_revision bigint,
  p_ids               uuid[]
) RETURNS TABLE (
  append_result        text,
  next_revision        bigint,
  last_transaction_id  xid8,
  last_global_position bigint
) LANGUAGE plpgsql AS $$
DECLARE
  v_first   bigint;
  v_count   bigint := cardinality(p_ids);
  v_matched bigint;
BEGIN
  SELECT m.stream_position INTO v_first
    FROM es_messages m
   WHERE m.message_id = p_ids[1] AND m.stream_name = p_stream_name;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  SELECT count(*) INTO v_matched
    FROM unnest(p_ids) WITH ORDINALITY AS b(id, ord)
    JOIN es_messages m
      ON m.stream_name = p_stream_name
     AND m.stream_position = v_first + b.ord - 1
     AND m.message_id = b.id;

  IF v_matched = v_count
     AND (p_expected_kind IN ('any', 'stream_exists')
          OR (p_expected_kind = 'no_stream' AND v_first = 0)
          OR (p_expected_kind = 'exact' AND v_first = p_expected_revision + 1)) THEN
    RETURN QUERY
      SELECT 'idempotent'::text, m.stream_position, m.transaction_id, m.global_position
        FROM es_messages m
       WHERE m.stream_name = p_stream_name AND m.stream_position = v_first + v_count - 1;
    RETURN;
  END IF;

  RETURN QUERY
    SELECT 'conflict'::text, max(m.stream_position), NULL::xid8, NULL::bigint
      FROM es_messages m WHERE m.stream_name = p_stream_name;
END;
$$;

-- Appends a batch, whatever happens meanwhile, without failing the caller's transaction on a
-- conflict: the append inside a caller's transaction (appendToStreamIn) and the path
-- PostgresEventStore falls back on when its one-statement INSERT did not go through (a conflict,
-- a retry, a race). Same signature and result as the function it replaces.
-- p_expected_kind: 'any' | 'no_stream' | 'stream_exists' | 'exact' (p_expected_revision then).
-- append_result: 'appended' | 'idempotent' (a retry of an append already stored) | 'conflict'
-- (next_revision is then the stream's current revision, NULL when it does not exist).
CREATE FUNCTION es_append_to_stream(
  p_stream_name       text,
  p_expected_kind     text,
  p_expected_revision bigint,
  p_ids               uuid[],
  p_types             text[],
  p_data              jsonb[],
  p_metadata          jsonb[],
  p_notify            boolean DEFAULT true
) RETURNS TABLE (
  append_result        text,
  next_revision        bigint,
  last_transaction_id  xid8,
  last_global_position bigint
) LANGUAGE plpgsql AS $$
DECLARE
  v_count      bigint := cardinality(p_ids);
  v_head       bigint;
  v_lost_at    bigint;
  v_lost       boolean := false;
  v_matches    boolean;
  v_gp         bigint;
  v_tx         xid8;
  v_constraint text;
  v_retry      record;
BEGIN
  IF v_count IS NULL OR v_count = 0 THEN
    RAISE EXCEPTION 'es_append_to_stream: no events to append' USING ERRCODE = '22023';
  END IF;
  IF p_expected_kind IS NULL OR p_expected_kind NOT IN ('any', 'no_stream', 'stream_exists', 'exact') THEN
    RAISE EXCEPTION 'es_append_to_stream: unknown expected revision kind %', p_expected_kind
      USING ERRCODE = '22023';
  END IF;

  LOOP
    -- Each statement of this (volatile) function takes a fresh snapshot, so after losing a race
    -- the winner's rows are visible here.
    SELECT max(m.stream_position) INTO v_head FROM es_messages m WHERE m.stream_name = p_stream_name;
    IF v_lost AND v_head IS NOT DISTINCT FROM v_lost_at THEN
      -- The position we lost is not visible: the caller's snapshot does not move (REPEATABLE
      -- READ or SERIALIZABLE), as when an UPDATE meets a row updated concurrently.
      RAISE EXCEPTION 'es_append_to_stream: stream % was appended to concurrently', p_stream_name
        USING ERRCODE = '40001';
    END IF;

    v_matches := CASE p_expected_kind
                   WHEN 'any' THEN true
                   WHEN 'no_stream' THEN v_head IS NULL
                   WHEN 'stream_exists' THEN v_head IS NOT NULL
                   ELSE v_head IS NOT DISTINCT FROM p_expected_revision
                 END;
    IF NOT v_matches THEN
      SELECT * INTO v_retry
        FROM es_find_retried_append(p_stream_name, p_expected_kind, p_expected_revision, p_ids);
      IF FOUND THEN
        RETURN QUERY SELECT v_retry.append_result, v_retry.next_revision,
                            v_retry.last_transaction_id, v_retry.last_global_position;
        RETURN;
      END IF;
      RETURN QUERY SELECT 'conflict'::text, v_head, NULL::xid8, NULL::bigint;
      RETURN;
    END IF;

    -- A block with a handler is a subtransaction: a lost race undoes our rows and leaves the
    -- caller's transaction usable.
    BEGIN
      -- ORDER BY ord: the sequence hands out global positions in batch order.
      WITH inserted AS (
        INSERT INTO es_messages
          (stream_name, stream_position, message_id, message_type, message_data, message_metadata)
        SELECT p_stream_name, coalesce(v_head, -1) + e.ord, e.id, e.type, e.data, e.metadata
          FROM unnest(p_ids, p_types, p_data, p_metadata)
               WITH ORDINALITY AS e(id, type, data, metadata, ord)
         ORDER BY e.ord
        RETURNING global_position
      )
      SELECT max(inserted.global_position) INTO v_gp FROM inserted;
      v_tx := pg_current_xact_id();
      -- Delivered on commit only; the payload is the position of the last event so a listener
      -- can ignore appends it has already read past. A NOTIFY makes the commit take a
      -- database-wide lock until it is flushed, so PostgresEventStore passes p_notify = false and
      -- notifies right after its commit instead; an append inside a caller's transaction keeps
      -- the default.
      IF p_notify THEN
        PERFORM pg_notify('es_appended', lpad(v_tx::text, 20, '0') || ':' || lpad(v_gp::text, 20, '0'));
      END IF;
      RETURN QUERY SELECT 'appended'::text, coalesce(v_head, -1) + v_count, v_tx, v_gp;
      RETURN;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint IS DISTINCT FROM 'es_messages_pkey' THEN
        -- An id of the batch is stored: a retry (perhaps of an append that committed while we
        -- waited on it), or the id of another event.
        SELECT * INTO v_retry
          FROM es_find_retried_append(p_stream_name, p_expected_kind, p_expected_revision, p_ids);
        IF FOUND THEN
          RETURN QUERY SELECT v_retry.append_result, v_retry.next_revision,
                              v_retry.last_transaction_id, v_retry.last_global_position;
          RETURN;
        END IF;
        RAISE;
      END IF;
      -- A concurrent append took the position: look at the stream again.
      v_lost := true;
      v_lost_at := v_head;
    END;
  END LOOP;
END;
$$;
