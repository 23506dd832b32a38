-- App secrets (issue 23): the password a host back end sends, with the app id, as Basic auth on the
-- `/v1` API. Several may be live at once so a secret can be rotated without downtime. Same rules as
-- 0001: TEXT and BIGINT only.
CREATE TABLE api_secrets (
    -- The public part of the secret (it starts the secret, so a check finds its row in one read);
    -- shown by `symbolon apps secret list`.
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- Argon2id PHC string of the whole secret: a copy of the database does not give the secret.
    hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- Unix seconds of the last accepted use, written at most once a minute.
    last_used_at BIGINT,
    -- Set when revoked; a revoked secret is refused at once.
    revoked_at BIGINT
);
CREATE INDEX api_secrets_app ON api_secrets (app_id);
