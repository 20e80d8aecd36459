-- Subscriptions and invoices (billing context, issue 20): the lists' read models, written by the
-- billing projection from the `subscription-…` streams (the truth; a subscription's stream holds
-- its invoices). One subscription or invoice is read from its stream; these tables answer lists.
CREATE TABLE subscriptions (
  id          TEXT        PRIMARY KEY,
  merchant_id TEXT        NOT NULL,
  mode        TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  status      TEXT        NOT NULL,
  -- The subscription's folded state (its invoices included) at `revision`; lists show it as
  -- `GET /v1/subscriptions/{id}` does.
  state       JSONB       NOT NULL,
  revision    BIGINT      NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL
);
-- `GET /v1/subscriptions?status`: newest first.
CREATE INDEX subscriptions_list ON subscriptions (merchant_id, mode, id DESC);
CREATE INDEX subscriptions_status_list ON subscriptions (merchant_id, mode, status, id DESC);

CREATE TABLE invoices (
  id              TEXT        PRIMARY KEY,
  subscription_id TEXT        NOT NULL,
  merchant_id     TEXT        NOT NULL,
  mode            TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  period_index    INTEGER     NOT NULL CHECK (period_index >= 0),
  status          TEXT        NOT NULL,
  -- The invoice's folded state; lists show it, with its subscription's, as `GET /v1/invoices/{id}`.
  state           JSONB       NOT NULL,
  created_at      TIMESTAMPTZ NOT NULL,
  -- Issue 20: at most one invoice per period of a subscription, held here as well as by the
  -- decider.
  CONSTRAINT invoices_one_per_period UNIQUE (subscription_id, period_index)
);
-- `GET /v1/invoices?subscription&status`: newest first.
CREATE INDEX invoices_list ON invoices (merchant_id, mode, created_at DESC, id DESC);
CREATE INDEX invoices_status_list ON invoices (merchant_id, mode, status, created_at DESC, id DESC);
