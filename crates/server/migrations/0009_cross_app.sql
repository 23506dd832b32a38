-- Cross-app login (issue 10 §2): this server is the OAuth 2.0 authorization server of a provider
-- app. Same rules as 0001: TEXT and BIGINT only, unix seconds. Secrets are stored as SHA-256.

-- Authorization codes of the consent page: single use (one conditional DELETE), 60 s, bound to
-- the requesting app, its redirect URI and its PKCE challenge.
CREATE TABLE cross_app_codes (
    code_hash TEXT PRIMARY KEY,
    provider_app_id TEXT NOT NULL,
    client_app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX cross_app_codes_expiry ON cross_app_codes (expires_at);

-- Provider tokens: let the requesting app act for the provider app's user (user info, signing
-- requests through the provider's page).
CREATE TABLE cross_app_tokens (
    token_hash TEXT PRIMARY KEY,
    provider_app_id TEXT NOT NULL,
    client_app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);
CREATE INDEX cross_app_tokens_expiry ON cross_app_tokens (expires_at);
