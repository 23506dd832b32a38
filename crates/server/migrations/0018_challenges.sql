-- One store for single-use proofs (issue 22 item 4). Same rules as 0001: TEXT and BIGINT only, unix
-- seconds. Wallet sign-in nonces, wallet challenges, passkey challenges, OAuth flows, cross-app codes,
-- account transfer offers and Farcaster nonces each had a table of their own with the same insert,
-- prune and take-once code; they are now rows of `challenges`, told apart by `kind`. A row is used up
-- by one conditional `DELETE … RETURNING` that names its kind, key, app and scope and refuses it once
-- expired; a background sweep deletes expired rows (db/challenges.rs).
--
-- Left in their own tables: OTP codes and failures, MFA tokens (counters: attempts, sign uses),
-- provider tokens (bearer tokens, not single use) and OAuth code bindings (never taken: one binding
-- held by two unique keys).
CREATE TABLE challenges (
    -- wallet_nonce, wallet_challenge, passkey_challenge, oauth_flow, cross_app_code,
    -- account_transfer, farcaster_channel or farcaster_nonce.
    kind TEXT NOT NULL,
    -- SHA-256 (hex) of the secret the caller presents (a Farcaster Mini App nonce is public and is
    -- kept as is, as before).
    key_hash TEXT NOT NULL,
    -- The app it was issued for ('' for wallet challenges: their user and session name the app).
    app_id TEXT NOT NULL,
    -- What a take must name besides the key (the user, session, purpose, address…): parts joined
    -- with '/', the only part that may hold a '/' last.
    scope TEXT NOT NULL,
    -- For kinds with a cap of live rows per (app, scope): which slot of the cap this row holds
    -- (wallet nonces: 0..9; OAuth flows: 0, one per client state). NULL: no cap (NULLs never clash).
    slot BIGINT,
    -- Issue order within (kind, app, scope): the lowest is evicted first from a full cap.
    seq BIGINT NOT NULL DEFAULT 0,
    -- What the kind keeps beyond the key and scope, JSON.
    payload TEXT NOT NULL DEFAULT '{}',
    expires_at BIGINT NOT NULL,
    -- Unix seconds; 0 for rows moved here from the old tables (which did not keep it).
    created_at BIGINT NOT NULL,
    CONSTRAINT challenges_key_unique PRIMARY KEY (kind, key_hash),
    CONSTRAINT challenges_slot_unique UNIQUE (kind, app_id, scope, slot)
);
CREATE INDEX challenges_expiry ON challenges (expires_at);

-- Every row moves, expired ones too (the sweep removes them; a take refuses them). JSON strings are
-- built by escaping '\' and '"' (the values are hashes, ids, URLs and PKCE strings: no control
-- characters).
INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'wallet_nonce', nonce_hash, app_id, chain_type || '/' || address, slot, seq, '{}', expires_at, 0
FROM wallet_nonces;

INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'wallet_challenge', nonce_hash, '', user_id || '/' || session_id || '/' || purpose, NULL, 0,
    '{}', expires_at, 0
FROM wallet_challenges;

-- The ceremony state is JSON already: it is the payload.
INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'passkey_challenge', challenge_hash, app_id, purpose || '/' || user_id, NULL, 0, state,
    expires_at, 0
FROM passkey_challenges;

INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'oauth_flow', upstream_state_hash, app_id, client_state, 0, 0,
    '{"code_challenge":"' || replace(replace(code_challenge, '\', '\\'), '"', '\"')
    || '","provider":"' || replace(replace(provider, '\', '\\'), '"', '\"')
    || '","redirect_to":"' || replace(replace(redirect_to, '\', '\\'), '"', '\"')
    || '","upstream_verifier":"' || replace(replace(upstream_verifier, '\', '\\'), '"', '\"')
    || '","nonce_hash":"' || replace(replace(nonce_hash, '\', '\\'), '"', '\"') || '"}',
    expires_at, 0
FROM oauth_flows;

INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'cross_app_code', code_hash, provider_app_id, '', NULL, 0,
    '{"client_app_id":"' || replace(replace(client_app_id, '\', '\\'), '"', '\"')
    || '","user_id":"' || replace(replace(user_id, '\', '\\'), '"', '\"')
    || '","redirect_uri":"' || replace(replace(redirect_uri, '\', '\\'), '"', '\"')
    || '","code_challenge":"' || replace(replace(code_challenge, '\', '\\'), '"', '\"') || '"}',
    expires_at, 0
FROM cross_app_codes;

INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'account_transfer', nonce_hash, app_id, to_user_id || '/' || account_type || '/' || subject,
    NULL, 0, '{}', expires_at, 0
FROM account_transfers;

-- v1 (a relay channel): found by the channel token's hash, taken with the nonce and the domain.
INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'farcaster_channel', channel_token_hash, app_id, domain || '/' || nonce, NULL, 0,
    '{"nonce":"' || replace(replace(nonce, '\', '\\'), '"', '\"') || '"}', expires_at, 0
FROM farcaster_nonces
WHERE channel_token_hash IS NOT NULL;

-- v2 (a Mini App): taken with the nonce and the domain.
INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
SELECT 'farcaster_nonce', nonce, app_id, domain, NULL, 0, '{}', expires_at, 0
FROM farcaster_nonces
WHERE channel_token_hash IS NULL;

DROP TABLE wallet_nonces;
DROP TABLE wallet_challenges;
DROP TABLE passkey_challenges;
DROP TABLE oauth_flows;
DROP TABLE cross_app_codes;
DROP TABLE account_transfers;
DROP TABLE farcaster_nonces;
