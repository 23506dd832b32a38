-- Hardening (issue 7). Same rules as 0001: TEXT and BIGINT only, unix seconds.

-- One-time codes, one row per (app, channel, subject) that outlives its codes, so the limits it
-- carries survive a new code: every limit is one conditional write on this row (docs/server.md).
-- Pending codes are short-lived; dropping the old table only asks users mid-login for a new code.
DROP TABLE otp_codes;
CREATE TABLE otp_codes (
    app_id TEXT NOT NULL,
    -- 'email' (SMS codes will use 'sms').
    channel TEXT NOT NULL,
    -- The normalised address or number.
    subject TEXT NOT NULL,
    -- HMAC of the newest code; '' once used.
    code_hash TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    -- The code sent before it stays valid until its own expiry (a resend never strands a user).
    previous_hash TEXT,
    previous_expires_at BIGINT NOT NULL DEFAULT 0,
    -- Guesses checked against the pending codes; a new code starts again at 0.
    attempts BIGINT NOT NULL DEFAULT 0,
    -- Wrong guesses in the budget window starting at failures_since; a new code does not reset it.
    failures BIGINT NOT NULL DEFAULT 0,
    failures_since BIGINT NOT NULL DEFAULT 0,
    -- Codes sent in the window starting at sends_since.
    sends BIGINT NOT NULL DEFAULT 0,
    sends_since BIGINT NOT NULL DEFAULT 0,
    -- When the newest code was sent (the resend cooldown runs from here).
    sent_at BIGINT NOT NULL,
    PRIMARY KEY (app_id, channel, subject)
);

-- The code HMAC key now derives from the sealing key, which is never in the database.
DELETE FROM server_secrets WHERE name = 'otp_hmac';
