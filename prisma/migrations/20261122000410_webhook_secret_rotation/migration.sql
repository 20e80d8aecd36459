-- Webhook secret rotation (gateway context, projection `identity-merchants`).
--
-- After a roll the secret it replaced keeps signing deliveries beside the new one until
-- `previous_webhook_secret_expires_at` (a second `v1` in Xaalis-Signature, spec 6 rule 5). Both
-- columns are NULL when there is no such secret; whether it still signs is decided on the
-- application clock at read time, so nothing has to clear them when the overlap ends. Encrypted
-- like `webhook_secret_encrypted`, never in clear.
ALTER TABLE merchants
  ADD COLUMN previous_webhook_secret_encrypted  TEXT,
  ADD COLUMN previous_webhook_secret_expires_at TIMESTAMPTZ,
  ADD CONSTRAINT merchants_previous_webhook_secret_expiry
    CHECK ((previous_webhook_secret_encrypted IS NULL) = (previous_webhook_secret_expires_at IS NULL));
