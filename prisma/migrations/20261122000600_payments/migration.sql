-- Payments (payments context), written only by the `payments` projection from the
-- `payment-<pay_id>` streams and rebuildable from them at any time.
--
-- 1. `payments`: one row per payment holding the folded state (the API views are computed from
--    it, so the client secret in `checkout_url` is derived on read and never stored).
-- 2. `payment_jobs`: the durable schedule (expiry at `expires_at`, refund settlement,
--    reconciliation of unknown provider outcomes). A job is written in the same transaction as
--    the event that calls for it, so a restart loses none; the worker leases due jobs with
--    FOR UPDATE SKIP LOCKED, so several workers never run one job at once.

CREATE TABLE payments (
  id               TEXT        PRIMARY KEY,
  merchant_id      TEXT        NOT NULL,
  mode             TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  status           TEXT        NOT NULL,
  client_reference TEXT,
  state            JSONB       NOT NULL,
  -- Stream revision of the last event applied: an event at or below it is not applied again.
  revision         BIGINT      NOT NULL,
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL
);
-- Lists are newest first per merchant and mode; ids are ULIDs, so id order is creation order.
CREATE INDEX payments_merchant_list ON payments (merchant_id, mode, id DESC);
CREATE INDEX payments_merchant_status_list ON payments (merchant_id, mode, status, id DESC);

CREATE TABLE payment_jobs (
  payment_id  TEXT        NOT NULL,
  -- expire | reconcile | refund:<re_id>
  kind        TEXT        NOT NULL,
  due_at      TIMESTAMPTZ NOT NULL,
  attempts    INTEGER     NOT NULL DEFAULT 0,
  last_error  TEXT,
  PRIMARY KEY (payment_id, kind)
);
CREATE INDEX payment_jobs_due ON payment_jobs (due_at);
