-- Multi-factor authentication (issue 12): the second factors users enrolled, the TOTP secrets, the
-- short-lived MFA tokens and the per-user failure counter. Same rules as 0001: TEXT and BIGINT only,
-- unix seconds.

-- One row per enrolled method of a user: totp, sms (with the number the codes go to) or passkey
-- (which passkeys: the passkey table's own flag). The user's `mfa_methods` are these rows.
CREATE TABLE mfa_methods (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method TEXT NOT NULL,
    -- E.164, for sms only.
    phone_number TEXT,
    verified_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, method)
);

-- The user's TOTP secret, sealed (AES-256-GCM under a key derived from the sealing key, bound to the
-- app and user). `pending_secret` waits for its first code for 10 minutes; `secret` is the enrolled
-- one. `last_step` is the newest 30-second step accepted: each step is used at most once, moved on
-- by one conditional UPDATE (`WHERE last_step < step`).
CREATE TABLE mfa_totp (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret TEXT,
    pending_secret TEXT,
    pending_expires_at BIGINT NOT NULL DEFAULT 0,
    last_step BIGINT NOT NULL DEFAULT 0
);

-- MFA tokens handed to the wallet frame after a verification: only the SHA-256 of the 32 random
-- bytes is kept, bound to the app, user and session (`sid`), 5 minutes, single use (one conditional
-- DELETE that names all of them).
CREATE TABLE mfa_tokens (
    token_hash TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    method TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX mfa_tokens_expiry ON mfa_tokens (expires_at);

-- Failed verifications of a user in the window starting at `window_start`; a verification first
-- reserves one (a conditional upsert that refuses past the limit), a right answer gives it back.
CREATE TABLE mfa_failures (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    failures BIGINT NOT NULL,
    window_start BIGINT NOT NULL
);
