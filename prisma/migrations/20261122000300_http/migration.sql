-- Idempotency keys of the HTTP edge (CONTRACT 3), owned by @xaalis/http (IdempotencyStore).
-- One row per (merchant, mode, key): claimed `running` by the first request with an atomic
-- INSERT ... ON CONFLICT DO NOTHING, then `done` with the exact response bytes to replay.
CREATE TABLE IF NOT EXISTS http_idempotency_keys (
  merchant_id   text        NOT NULL,
  mode          text        NOT NULL CHECK (mode IN ('test', 'live')),
  key           text        NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
  -- Method and route pattern, e.g. 'POST /v1/refunds'.
  operation     text        NOT NULL,
  -- SHA-256 (hex) of the path parameters, query and body.
  request_hash  text        NOT NULL,
  state         text        NOT NULL CHECK (state IN ('running', 'done')),
  status_code   integer,
  -- The response body exactly as first sent ('' for an empty body).
  response_body text,
  -- Owner of a running row; a retry may take the row over once locked_until has passed.
  lock_token    uuid,
  locked_until  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  completed_at  timestamptz,
  PRIMARY KEY (merchant_id, mode, key),
  CHECK (state = 'running' OR (status_code IS NOT NULL AND response_body IS NOT NULL))
);

-- The retention sweep deletes by age.
CREATE INDEX IF NOT EXISTS http_idempotency_keys_created_at_idx ON http_idempotency_keys (created_at);
