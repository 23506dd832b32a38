-- Wallet proofs and step-up (docs/wallet.md "Device key and recovery"). Same rules as 0001:
-- TEXT and BIGINT only, flags are 0/1, unix seconds.

-- When this session was given the recovery share (once per session, only within 10 minutes of
-- its sign-in); NULL until then.
ALTER TABLE sessions ADD COLUMN recovery_used_at BIGINT;

-- The wallet frame's device public key (base64 of the 65-byte uncompressed P-256 point), stored
-- beside the auth share it unlocks; replaced with the shares on recovery. NULL for wallets made
-- before device keys: their next unlock goes through recovery.
ALTER TABLE wallet_auth_shares ADD COLUMN device_public_key TEXT;

-- Single-use nonces for signed wallet calls, keyed by SHA-256 (hex) of the nonce; bound to the
-- user, the session and a purpose; consumed by one conditional DELETE.
CREATE TABLE wallet_challenges (
    nonce_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    purpose TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX wallet_challenges_expiry ON wallet_challenges (expires_at);

-- Every replaced pair of root share envelopes (and the device key beside them), so an operator
-- can undo a bad replace (docs/wallet.md "Undoing a share replace").
CREATE TABLE wallet_share_history (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    chain_type TEXT NOT NULL,
    auth_envelope TEXT NOT NULL,
    recovery_envelope TEXT NOT NULL,
    device_public_key TEXT,
    replaced_at BIGINT NOT NULL,
    replaced_by_session TEXT NOT NULL
);
CREATE INDEX wallet_share_history_user ON wallet_share_history (user_id, chain_type, replaced_at);

-- Fixed-window counters per user and action (key material calls, recoveries, challenges),
-- bumped with one upsert so concurrent calls cannot both pass the limit.
CREATE TABLE wallet_limits (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    hits BIGINT NOT NULL,
    PRIMARY KEY (user_id, action)
);
