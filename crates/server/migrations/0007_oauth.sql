-- OAuth flows (issue 10): one row per `/oauth/init`, consumed by the one `/oauth/authenticate`
-- or `/oauth/link` that presents its client state and PKCE verifier. TEXT and BIGINT only.
CREATE TABLE oauth_flows (
    -- SHA-256 of the state we sent the provider: the callback finds the flow by it.
    upstream_state_hash TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    -- The client's state: it goes back to the client in the redirect (`privy_oauth_state`), so
    -- it is kept as sent; it is not a secret (it travels in URLs), the PKCE verifier is.
    client_state TEXT NOT NULL,
    -- base64url(SHA-256(client verifier)): the client proves the flow with the verifier.
    code_challenge TEXT NOT NULL,
    provider TEXT NOT NULL,
    redirect_to TEXT NOT NULL,
    -- Our own PKCE verifier at the provider: needed in clear for the code exchange.
    upstream_verifier TEXT NOT NULL,
    -- SHA-256 of the OpenID nonce ('' for plain OAuth 2.0 providers).
    nonce_hash TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    CONSTRAINT oauth_flows_client_state_unique UNIQUE (app_id, client_state)
);
CREATE INDEX oauth_flows_expiry ON oauth_flows (expires_at);
