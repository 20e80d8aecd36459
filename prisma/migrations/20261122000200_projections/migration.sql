-- Projection checkpoints: how far each read model has got in the global event order. The
-- projection runner locks a projection's row, applies a batch of events to its tables and moves
-- the position in one transaction, so a read model and its checkpoint never disagree.
CREATE TABLE projection_checkpoints (
  name        TEXT        PRIMARY KEY,
  -- The event store's checkpoint of the last event applied (fixed-width, compares as text);
  -- NULL: nothing applied yet.
  position    TEXT,
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
