-- One MFA verification covers a short run of signatures (issue 20): with transaction protection on, a
-- token that `POST /mfa/verify` handed out releases the key for up to MFA_SIGNING_USES signatures within
-- MFA_SIGNING_WINDOW_S of `issued_at`, so a second signature a few seconds later does not wait for the
-- next 30-second authenticator code. Export, recovery and factor changes still use a token up at once.
-- Each signing use is one conditional UPDATE of `sign_uses`. Tokens issued before this have issued_at 0:
-- no signing window (they live 5 minutes at most anyway).
ALTER TABLE mfa_tokens ADD COLUMN issued_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mfa_tokens ADD COLUMN sign_uses BIGINT NOT NULL DEFAULT 0;
