-- One schema for SQLite and Postgres: only TEXT and BIGINT columns (unix seconds; flags are 0/1,
-- since sqlx's Any driver cannot decode SQLite booleans).

CREATE TABLE apps (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    disable_plus_emails BIGINT NOT NULL DEFAULT 0,
    require_users_accept_terms BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE app_origins (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    origin TEXT NOT NULL,
    PRIMARY KEY (app_id, origin)
);
CREATE INDEX app_origins_origin ON app_origins (origin);

CREATE TABLE app_client_ids (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    PRIMARY KEY (app_id, client_id)
);

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    has_accepted_terms BIGINT NOT NULL DEFAULT 0,
    is_guest BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE linked_accounts (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_type TEXT NOT NULL,
    subject TEXT NOT NULL,
    first_verified_at BIGINT NOT NULL,
    latest_verified_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT linked_accounts_subject_unique UNIQUE (app_id, account_type, subject)
);
CREATE INDEX linked_accounts_user ON linked_accounts (user_id);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);

-- Only hashes are stored. A row with rotated_at set has been exchanged for a child token.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    parent_hash TEXT,
    created_at BIGINT NOT NULL,
    rotated_at BIGINT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

CREATE TABLE otp_codes (
    app_id TEXT NOT NULL,
    email TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (app_id, email)
);

CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY,
    algorithm TEXT NOT NULL,
    private_key TEXT NOT NULL,
    public_x TEXT NOT NULL,
    public_y TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    retired_at BIGINT
);

CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
