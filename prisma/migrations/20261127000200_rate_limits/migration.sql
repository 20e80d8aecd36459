-- HTTP edge: rate-limit counters shared by the gateway replicas of the distributed mode, written by
-- rate-limiter-flexible's RateLimiterPostgres (`tableCreated: true`, so it never runs DDL itself).
-- Its own table, column for column: `points` used in the window that ends at `expire` (epoch ms).
-- UNLOGGED: every request writes here, and a counter needs no WAL; a crash empties the table,
-- which only starts every window afresh.
CREATE UNLOGGED TABLE http_rate_limits (
  key    varchar(255) PRIMARY KEY,
  points integer      NOT NULL DEFAULT 0,
  expire bigint
);
