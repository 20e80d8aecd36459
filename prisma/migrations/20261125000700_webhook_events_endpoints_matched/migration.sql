-- Webhooks (webhooks context): how many endpoints wanted each event when it was recorded.
--
-- `endpoints_matched` is written with the event, in the transaction that gives each of those
-- endpoints its delivery, so it always equals the deliveries the event got then. 0 means the
-- event was recorded with no endpoint wanting it: visible as such (and countable), never a
-- silent absence of deliveries. Events recorded before this column have only ever got their
-- deliveries at recording, so counting those fills it in exactly.
ALTER TABLE webhook_events ADD COLUMN endpoints_matched INTEGER;
UPDATE webhook_events e
   SET endpoints_matched = (SELECT count(*) FROM webhook_deliveries d WHERE d.event_id = e.id);
ALTER TABLE webhook_events
  ALTER COLUMN endpoints_matched SET NOT NULL,
  ADD CONSTRAINT webhook_events_endpoints_matched CHECK (endpoints_matched >= 0);
