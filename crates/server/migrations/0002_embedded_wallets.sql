-- Embedded wallets (docs/wallet.md). Same rules as 0001: TEXT and BIGINT only, flags are 0/1.
--
-- Each wallet is also a `linked_accounts` row (type 'wallet', subject = the checksummed address,
-- the same id), so every path that renders a user, the refresh hot path included, lists it; this
-- table adds what only embedded wallets have.
CREATE TABLE embedded_wallets (
    id TEXT PRIMARY KEY REFERENCES linked_accounts (id) ON DELETE CASCADE,
    app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    chain_type TEXT NOT NULL,
    wallet_index BIGINT NOT NULL,
    recovery_method TEXT NOT NULL,
    imported BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    CONSTRAINT embedded_wallets_address_unique UNIQUE (app_id, address),
    CONSTRAINT embedded_wallets_index_unique UNIQUE (user_id, chain_type, wallet_index)
);

-- The user's root shares (those of entropy behind every wallet index), each an AES-256-GCM
-- envelope (base64) under its own server key, which is never stored here. Auth and recovery
-- shares live in separate tables so that no single read returns both.
CREATE TABLE wallet_auth_shares (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    chain_type TEXT NOT NULL,
    envelope TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, chain_type)
);

CREATE TABLE wallet_recovery_shares (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    chain_type TEXT NOT NULL,
    envelope TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, chain_type)
);
