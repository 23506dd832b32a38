-- Sign In With Farcaster (issue 10). Same rules as 0001: TEXT and BIGINT only, unix seconds.

-- Nonces the server handed out: with a relay channel (v1, `channel_token_hash` set; the token is
-- a secret, so only its SHA-256 is kept) or for a Mini App (v2, no channel). The nonce itself is
-- public (it is in the signed message). One use: consumed by one conditional DELETE.
CREATE TABLE farcaster_nonces (
    nonce TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    channel_token_hash TEXT UNIQUE,
    -- The SIWE domain the message must name (the app origin's host).
    domain TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX farcaster_nonces_expiry ON farcaster_nonces (expires_at);

-- Farcaster signers: Ed25519 keys a user asked to add to their fid, through a signed key request
-- (the Farcaster client's `/v2/signed-key-requests` API). One user per key and app.
CREATE TABLE farcaster_signers (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The request's polling token (not a credential: it only reads the request's state).
    request_token TEXT NOT NULL,
    approval_url TEXT NOT NULL,
    -- pending_approval, approved or revoked.
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (app_id, public_key)
);
CREATE INDEX farcaster_signers_user ON farcaster_signers (user_id);
