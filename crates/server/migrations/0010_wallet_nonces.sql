-- External wallets: Sign-In With Ethereum and Solana (issue 11). Same rules as 0001: TEXT and
-- BIGINT only, unix seconds.

-- Nonces handed out by `/siwe/init` and `/siws/init`, each bound to the app, the chain family and
-- the wallet address it was asked for. Only the nonce's SHA-256 is kept; one use: consumed by one
-- conditional DELETE that names all four, so a nonce of another address or app never matches.
CREATE TABLE wallet_nonces (
    nonce_hash TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- ethereum or solana.
    chain_type TEXT NOT NULL,
    -- Checksummed (ethereum) or base58 (solana), as the server compares it.
    address TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX wallet_nonces_expiry ON wallet_nonces (expires_at);
