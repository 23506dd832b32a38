-- Passkeys (issue 12). Same rules as 0001: TEXT and BIGINT only, unix seconds.
--
-- A passkey is a `linked_accounts` row (type 'passkey', subject = the credential id in base64url);
-- its public key, sign counter, MFA enrolment and where it was made live in that row's `details`
-- JSON, written with the row (sign-up or link) and changed by compare-and-swap.

-- WebAuthn challenges handed out by the passkey init calls and the MFA passkey prompt, with the
-- ceremony state webauthn-rs finishes from. Only the challenge's SHA-256 is kept. One use:
-- consumed by one conditional DELETE … RETURNING that names the app, the purpose and the user.
CREATE TABLE passkey_challenges (
    challenge_hash TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- register, authenticate, link or mfa.
    purpose TEXT NOT NULL,
    -- The user a link or MFA challenge was issued to; '' for sign-up and login.
    user_id TEXT NOT NULL,
    -- webauthn-rs's registration or authentication state, JSON.
    state TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);
