-- The bus (libs/shared/bus).
--
-- Forwarder checkpoints: how far each forwarder has published the event store's events to the
-- bus. Moved only after the publish was acknowledged, so a restart republishes at most the
-- events after it (at least once, never lost).
CREATE TABLE bus_checkpoints (
  name        TEXT        PRIMARY KEY,
  -- The event store's checkpoint of the last event published (fixed-width, compares as text).
  position    TEXT        NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Messages each consumer has handled. The row is inserted in the same transaction as the
-- consumer's effects, so a redelivered message finds it and is skipped (idempotent consumer).
CREATE TABLE bus_processed_messages (
  consumer      TEXT        NOT NULL,
  message_id    TEXT        NOT NULL,
  processed_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, message_id)
);
