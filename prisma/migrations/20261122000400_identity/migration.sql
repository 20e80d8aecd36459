-- Identity and access (gateway context).
--
-- 1. Read models of the merchant aggregate (stream `merchant-<mer_id>`), written only by the
--    `identity-merchants` projection and rebuildable from the streams at any time.
-- 2. `api_key_usage`: operational, not a projection (see below).
-- 3. The tables better-auth reads and writes for users and sessions.

CREATE TABLE merchants (
  id                       TEXT        PRIMARY KEY,
  name                     TEXT        NOT NULL,
  -- AES-256-GCM under a key derived from SECRET_HASH_KEY; the webhook dispatcher signs with the
  -- secret, so it must be recoverable, but it is never stored in clear.
  webhook_secret_encrypted TEXT        NOT NULL,
  created_at               TIMESTAMPTZ NOT NULL
);

CREATE TABLE merchant_members (
  merchant_id TEXT        NOT NULL,
  user_id     TEXT        NOT NULL,
  role        TEXT        NOT NULL CHECK (role IN ('owner', 'developer')),
  created_at  TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (merchant_id, user_id)
);
CREATE INDEX merchant_members_user ON merchant_members (user_id);

CREATE TABLE api_keys (
  id                  TEXT        PRIMARY KEY,
  merchant_id         TEXT        NOT NULL,
  mode                TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  kind                TEXT        NOT NULL CHECK (kind IN ('secret', 'restricted')),
  -- The granted `resource:access` list of a restricted key; empty for a secret key, which may do
  -- everything (`kind` tells them apart; not NULL so the Prisma list type matches).
  scopes              TEXT[]      NOT NULL DEFAULT '{}',
  -- HMAC-SHA256 of the secret under SECRET_HASH_KEY; the secret itself is never stored.
  secret_hash         TEXT        NOT NULL UNIQUE,
  display_prefix      TEXT        NOT NULL,
  created_at          TIMESTAMPTZ NOT NULL,
  revoked_at          TIMESTAMPTZ,
  scheduled_revoke_at TIMESTAMPTZ
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id, mode, id DESC);

-- One row per merchant and mode once the account has been changed (`PATCH /v1/account`).
CREATE TABLE merchant_accounts (
  merchant_id TEXT        NOT NULL,
  mode        TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  webhook_url TEXT,
  updated_at  TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (merchant_id, mode)
);

-- A merchant's identity at a provider, e.g. Wave's aggregated merchant id for live payments.
CREATE TABLE provider_identities (
  merchant_id            TEXT        NOT NULL,
  mode                   TEXT        NOT NULL CHECK (mode IN ('test', 'live')),
  provider               TEXT        NOT NULL,
  aggregated_merchant_id TEXT        NOT NULL,
  updated_at             TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (merchant_id, mode, provider)
);

-- When an API key was last used, written by the bearer guard at most once a minute per key and
-- process. Not a projection: usage is not a business fact, an event per request would flood the
-- merchant's stream, and a lost or late write is harmless. Kept apart from `api_keys` so a replay
-- (which truncates the projection's tables) does not forget it. No foreign key for the same reason.
CREATE TABLE api_key_usage (
  key_id       TEXT        PRIMARY KEY,
  last_used_at TIMESTAMPTZ NOT NULL
);

-- better-auth's schema, as its own `getMigrations()` prints it for our options (model names
-- `auth_*`, snake_case columns). It validates the schema at first use, so a drift fails loudly.
CREATE TABLE auth_users (
  id             TEXT        NOT NULL PRIMARY KEY,
  name           TEXT        NOT NULL,
  email          TEXT        NOT NULL UNIQUE,
  email_verified BOOLEAN     NOT NULL,
  image          TEXT,
  created_at     TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at     TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE auth_sessions (
  id         TEXT        NOT NULL PRIMARY KEY,
  expires_at TIMESTAMPTZ NOT NULL,
  token      TEXT        NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMPTZ NOT NULL,
  ip_address TEXT,
  user_agent TEXT,
  user_id    TEXT        NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE
);
CREATE INDEX auth_sessions_user_id_idx ON auth_sessions (user_id);

CREATE TABLE auth_accounts (
  id                       TEXT        NOT NULL PRIMARY KEY,
  account_id               TEXT        NOT NULL,
  provider_id              TEXT        NOT NULL,
  user_id                  TEXT        NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  access_token             TEXT,
  refresh_token            TEXT,
  id_token                 TEXT,
  access_token_expires_at  TIMESTAMPTZ,
  refresh_token_expires_at TIMESTAMPTZ,
  scope                    TEXT,
  password                 TEXT,
  created_at               TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at               TIMESTAMPTZ NOT NULL
);
CREATE INDEX auth_accounts_user_id_idx ON auth_accounts (user_id);

CREATE TABLE auth_verifications (
  id         TEXT        NOT NULL PRIMARY KEY,
  identifier TEXT        NOT NULL,
  value      TEXT        NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX auth_verifications_identifier_idx ON auth_verifications (identifier);
