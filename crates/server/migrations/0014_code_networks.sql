-- Issue 19: the wrong-code budget is kept per (address, client network) so that one network cannot
-- lock an address out of code sign-in; the address row keeps only a larger, short backstop. Same
-- rules as 0001: TEXT and BIGINT only, unix seconds.

-- Wrong guesses per (app, channel, address, network) in the hour starting at `failures_since`
-- (`network` is the client's IPv4 /24 or IPv6 /64), and the guesses this network has made against
-- the address's current code (`attempts`, counted for the code numbered `attempts_serial`). Rows
-- whose hour has ended are deleted as new guesses come in.
CREATE TABLE otp_failures (
    app_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    subject TEXT NOT NULL,
    network TEXT NOT NULL,
    failures BIGINT NOT NULL DEFAULT 0,
    failures_since BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    attempts_serial BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (app_id, channel, subject, network)
);
CREATE INDEX otp_failures_since ON otp_failures (failures_since);

-- The address row: `failures` / `failures_since` now count the backstop (wrong guesses from every
-- network in a short window). Past it the address is locked from `locked_at` to `locked_until`;
-- `lock_s` is the length of the last lock (it doubles while locks follow each other). During a lock
-- only codes sent since the lock began are checked, only for the network that asked for them
-- (`sent_network`, `previous_network` for the code before the newest), and once. `code_serial`
-- numbers the codes sent (per-network attempts follow it).
ALTER TABLE otp_codes ADD COLUMN code_serial BIGINT NOT NULL DEFAULT 0;
ALTER TABLE otp_codes ADD COLUMN sent_network TEXT NOT NULL DEFAULT '';
ALTER TABLE otp_codes ADD COLUMN previous_sent_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE otp_codes ADD COLUMN previous_network TEXT NOT NULL DEFAULT '';
ALTER TABLE otp_codes ADD COLUMN locked_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE otp_codes ADD COLUMN locked_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE otp_codes ADD COLUMN lock_s BIGINT NOT NULL DEFAULT 0;
-- The old hourly per-address counts do not carry over into the short backstop window.
UPDATE otp_codes SET failures = 0;
