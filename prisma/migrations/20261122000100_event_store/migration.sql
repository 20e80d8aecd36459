-- Event store (libs/shared/event-store, PostgresEventStore). After emmett's Postgres store:
-- es_streams holds each stream's current revision (the optimistic-concurrency check is a
-- conditional write on that row); es_messages holds the events.
--
-- Global order is (transaction_id, global_position), not global_position alone: a sequence value
-- is taken before commit, so a transaction that commits late would otherwise land behind a
-- reader's checkpoint and be skipped. Readers only return rows whose transaction is older than
-- every transaction still running (transaction_id < pg_snapshot_xmin(pg_current_snapshot())),
-- so anything committed later sorts after what they have already seen.

CREATE TABLE es_streams (
  stream_name     text        NOT NULL,
  -- revision of the stream's last event (revisions start at 0)
  stream_position bigint      NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT es_streams_pkey PRIMARY KEY (stream_name)
);

CREATE TABLE es_messages (
  stream_name      text        NOT NULL,
  stream_position  bigint      NOT NULL,
  global_position  bigserial   NOT NULL,
  transaction_id   xid8        NOT NULL DEFAULT pg_current_xact_id(),
  message_id       uuid        NOT NULL,
  message_type     text        NOT NULL,
  message_data     jsonb       NOT NULL,
  message_metadata jsonb       NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT es_messages_pkey PRIMARY KEY (stream_name, stream_position),
  CONSTRAINT es_messages_message_id_key UNIQUE (message_id)
);

-- readAll: WHERE (transaction_id, global_position) > checkpoint ORDER BY transaction_id, global_position
CREATE INDEX es_messages_global_order_idx ON es_messages (transaction_id, global_position);

-- Is p_ids (in order) already stored in the stream, i.e. is this append a retry of one that
-- succeeded? Mirrors EventStoreDB: a retry is recognised when the batch's first id is in the
-- stream, every following id sits at the following revision, and the expected revision the
-- caller sent is the one the original append had. Returns no row when the first id is not in
-- the stream, a 'conflict' row when it is but the batch or the expected revision does not match.
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
    SELECT 'conflict'::text, s.stream_position, NULL::xid8, NULL::bigint
      FROM es_streams s WHERE s.stream_name = p_stream_name;
END;
$$;

-- Appends a batch in one call (one round trip, one statement for the client).
-- p_expected_kind: 'any' | 'no_stream' | 'stream_exists' | 'exact' (p_expected_revision then).
-- append_result: 'appended' | 'idempotent' (a retry of an append already stored) | 'conflict'
-- (next_revision is then the stream's current revision, NULL when it does not exist).
-- The revision check is a conditional write on the stream's row, never read-then-write: a
-- concurrent appender blocks on that row and re-evaluates the condition once the first commits.
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
  v_count bigint := cardinality(p_ids);
  v_last  bigint;
  v_tx    xid8;
  v_gp    bigint;
  v_retry record;
BEGIN
  IF v_count IS NULL OR v_count = 0 THEN
    RAISE EXCEPTION 'es_append_to_stream: no events to append' USING ERRCODE = '22023';
  END IF;

  -- With 'any' or 'stream_exists' a retried append would pass the revision check and store its
  -- events twice, so look for it first. 'exact' and 'no_stream' retries fail the check, so they
  -- only pay for the look-up on the conflict path below.
  IF p_expected_kind IN ('any', 'stream_exists') THEN
    SELECT * INTO v_retry
      FROM es_find_retried_append(p_stream_name, p_expected_kind, p_expected_revision, p_ids);
    IF FOUND THEN
      RETURN QUERY SELECT v_retry.append_result, v_retry.next_revision,
                          v_retry.last_transaction_id, v_retry.last_global_position;
      RETURN;
    END IF;
  END IF;

  CASE p_expected_kind
    WHEN 'any' THEN
      INSERT INTO es_streams AS s (stream_name, stream_position)
      VALUES (p_stream_name, v_count - 1)
      ON CONFLICT (stream_name) DO UPDATE SET stream_position = s.stream_position + v_count
      RETURNING s.stream_position INTO v_last;
    WHEN 'no_stream' THEN
      INSERT INTO es_streams AS s (stream_name, stream_position)
      VALUES (p_stream_name, v_count - 1)
      ON CONFLICT (stream_name) DO NOTHING
      RETURNING s.stream_position INTO v_last;
    WHEN 'stream_exists' THEN
      UPDATE es_streams AS s SET stream_position = s.stream_position + v_count
       WHERE s.stream_name = p_stream_name
      RETURNING s.stream_position INTO v_last;
    WHEN 'exact' THEN
      UPDATE es_streams AS s SET stream_position = s.stream_position + v_count
       WHERE s.stream_name = p_stream_name AND s.stream_position = p_expected_revision
      RETURNING s.stream_position INTO v_last;
    ELSE
      RAISE EXCEPTION 'es_append_to_stream: unknown expected revision kind %', p_expected_kind
        USING ERRCODE = '22023';
  END CASE;

  IF v_last IS NULL THEN
    -- Each statement of this (volatile) function takes a fresh snapshot, so a concurrent append
    -- we just waited for is visible here: a retry racing its original is recognised too.
    SELECT * INTO v_retry
      FROM es_find_retried_append(p_stream_name, p_expected_kind, p_expected_revision, p_ids);
    IF FOUND THEN
      RETURN QUERY SELECT v_retry.append_result, v_retry.next_revision,
                          v_retry.last_transaction_id, v_retry.last_global_position;
      RETURN;
    END IF;
    RETURN QUERY
      SELECT 'conflict'::text, (SELECT s.stream_position FROM es_streams s
                                 WHERE s.stream_name = p_stream_name),
             NULL::xid8, NULL::bigint;
    RETURN;
  END IF;

  -- ORDER BY ord: the sequence hands out global positions in batch order.
  WITH inserted AS (
    INSERT INTO es_messages
      (stream_name, stream_position, message_id, message_type, message_data, message_metadata)
    SELECT p_stream_name, v_last - v_count + e.ord, e.id, e.type, e.data, e.metadata
      FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS e(id, type, data, metadata, ord)
     ORDER BY e.ord
    RETURNING global_position
  )
  SELECT max(inserted.global_position) INTO v_gp FROM inserted;
  v_tx := pg_current_xact_id();

  -- Delivered on commit only; the payload is the position of the last event so a listener can
  -- ignore appends it has already read past. A NOTIFY makes the commit take a database-wide lock
  -- until it is flushed, serialising concurrent appenders, so PostgresEventStore passes
  -- p_notify = false and notifies right after the commit instead; an append inside a caller's
  -- transaction keeps the default.
  IF p_notify THEN
    PERFORM pg_notify('es_appended', lpad(v_tx::text, 20, '0') || ':' || lpad(v_gp::text, 20, '0'));
  END IF;

  RETURN QUERY SELECT 'appended'::text, v_last, v_tx, v_gp;
END;
$$;
