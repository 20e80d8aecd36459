-- Durable jobs of every context (`@xaalis/jobs`): one row per (kind, reference), written in the
-- same transaction as the facts that call for it, so a restart loses none. Runners lease due rows
-- with FOR UPDATE SKIP LOCKED and push `due_at` past the lease, so several runners never run one
-- job at once and a runner that dies mid-run only delays its jobs by the lease.
--
-- Replaces `payment_jobs`. Its rows move here:
--   expire              -> payment.expire     reference <pay_id>
--   reconcile           -> payment.reconcile  reference <pay_id>
--   refund:<re_id>      -> payment.refund     reference <pay_id>:<re_id>
-- Rows of any other kind were deleted unrun by the old worker; they are dropped.

CREATE TABLE jobs (
  -- Names the handler: `<context>.<what>`, e.g. payment.expire.
  kind        TEXT        NOT NULL,
  -- What the job is about, unique within its kind (a payment id, `<pay_id>:<re_id>`…).
  reference   TEXT        NOT NULL,
  due_at      TIMESTAMPTZ NOT NULL,
  -- Runs since it was last scheduled; the retry backoff grows with it.
  attempts    INTEGER     NOT NULL DEFAULT 0,
  last_error  TEXT,
  -- Bumped by every lease and every reschedule: a run's outcome is written only while the row
  -- still holds the lease it ran under.
  lease       INTEGER     NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, reference)
);
CREATE INDEX jobs_due ON jobs (due_at);

INSERT INTO jobs (kind, reference, due_at, attempts, last_error)
SELECT CASE
         WHEN kind = 'expire' THEN 'payment.expire'
         WHEN kind = 'reconcile' THEN 'payment.reconcile'
         ELSE 'payment.refund'
       END,
       CASE
         WHEN kind LIKE 'refund:%' THEN payment_id || ':' || substr(kind, length('refund:') + 1)
         ELSE payment_id
       END,
       due_at, attempts, last_error
  FROM payment_jobs
 WHERE kind IN ('expire', 'reconcile') OR kind LIKE 'refund:%';

DROP TABLE payment_jobs;
