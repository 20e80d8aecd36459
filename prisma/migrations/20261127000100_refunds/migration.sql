-- Payments (payments context): refunds as resources (CONTRACT 5, `GET /v1/refunds/{id}` and the
-- list). One row per refund, written by the payments projection with its payment's row, from the
-- payment's folded state. Refunds recorded before this table are in those states already: they
-- fill it here, so the projection need not be replayed.
CREATE TABLE refunds (
  id             text        PRIMARY KEY,
  payment_id     text        NOT NULL,
  merchant_id    text        NOT NULL,
  mode           text        NOT NULL CHECK (mode IN ('test', 'live')),
  amount         integer     NOT NULL CHECK (amount > 0),
  status         text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  failure_reason text,
  created_at     timestamptz NOT NULL
);

CREATE INDEX refunds_merchant_list ON refunds (merchant_id, mode, id DESC);
CREATE INDEX refunds_payment_list ON refunds (payment_id, id DESC);

INSERT INTO refunds (id, payment_id, merchant_id, mode, amount, status, failure_reason, created_at)
SELECT r->>'refundId', p.id, p.merchant_id, p.mode, (r->>'amount')::integer, r->>'status',
       r->>'failureReason', (r->>'createdAt')::timestamptz
  FROM payments p, jsonb_array_elements(p.state->'refunds') AS r
ON CONFLICT (id) DO NOTHING;
