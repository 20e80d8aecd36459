-- Webhooks (webhooks context): merchants' endpoints, the events as delivered and the durable
-- delivery queue.
--
-- 1. `webhook_endpoints`: where a merchant's events go, per mode. The mode's default endpoint
--    (`is_default`, `managed_by = 'account'`) follows `PATCH /v1/account` through `account.updated`.
-- 2. `webhook_events`: each event exactly as it is delivered, for `GET /v1/events`, so every
--    attempt of every delivery of it sends the same bytes.
-- 3. `webhook_deliveries`: one row per (endpoint, event), written in the same transaction as the
--    event, so a restart loses none. The worker leases due rows with FOR UPDATE SKIP LOCKED and
--    pushes `next_attempt_at` past the lease, so a worker that dies mid-send only delays a row.

CREATE TABLE webhook_endpoints (
  id          TEXT        PRIMARY KEY,
  merchant_id TEXT        NOT NULL,
  mode        TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  url         TEXT        NOT NULL,
  event_types TEXT[]      NOT NULL,
  active      BOOLEAN     NOT NULL,
  is_default  BOOLEAN     NOT NULL,
  managed_by  TEXT,
  created_at  TIMESTAMPTZ NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_endpoints_merchant_list ON webhook_endpoints (merchant_id, mode, id DESC);
-- One default endpoint per merchant and mode: `account.updated` upserts it.
CREATE UNIQUE INDEX webhook_endpoints_default ON webhook_endpoints (merchant_id, mode)
  WHERE is_default;

CREATE TABLE webhook_events (
  id          TEXT        PRIMARY KEY,
  merchant_id TEXT        NOT NULL,
  mode        TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  type        TEXT        NOT NULL,
  -- The spec 2.10 payload {id, type, livemode, created_at, data} as the exact bytes every
  -- attempt sends (jsonb would reorder the keys).
  body        TEXT        NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL
);
-- Event ids are derived from the recorded event, not sortable by time: lists order by
-- (created_at, id).
CREATE INDEX webhook_events_merchant_list ON webhook_events (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX webhook_events_merchant_type_list
  ON webhook_events (merchant_id, mode, type, created_at DESC, id DESC);

CREATE TABLE webhook_deliveries (
  id               TEXT        PRIMARY KEY,
  merchant_id      TEXT        NOT NULL,
  mode             TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  endpoint_id      TEXT        NOT NULL REFERENCES webhook_endpoints (id),
  event_id         TEXT        NOT NULL REFERENCES webhook_events (id),
  status           TEXT        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         INTEGER     NOT NULL DEFAULT 0,
  next_attempt_at  TIMESTAMPTZ,
  last_status_code INTEGER,
  last_error       TEXT,
  -- Bumped by every lease: an outcome is written only by the worker holding the latest lease.
  lease            INTEGER     NOT NULL DEFAULT 0,
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_merchant_list ON webhook_deliveries (merchant_id, mode, id DESC);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
