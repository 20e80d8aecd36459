-- Issue 16: the ids of what a keyed request creates are fixed when its key is claimed, so a
-- retry after the first run died (after its append, before its outcome was stored) finds the
-- first run's object instead of making a second one. The ULID body of those ids; null on rows
-- claimed before this column existed (a takeover gives them one).
ALTER TABLE http_idempotency_keys ADD COLUMN IF NOT EXISTS object_ulid text;
