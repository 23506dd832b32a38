-- Delegated wallets (issue 24, docs/delegation.md): per wallet, the consent the wallet frame sealed
-- to the signer's key. The server cannot open it; the signer opens it to sign. Same rules as 0001:
-- TEXT and BIGINT only.
CREATE TABLE delegations (
    wallet_id TEXT PRIMARY KEY REFERENCES embedded_wallets (id) ON DELETE CASCADE,
    app_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    consent_id TEXT NOT NULL,
    -- HPKE output, base64.
    encapsulated_key TEXT NOT NULL,
    ciphertext TEXT NOT NULL,
    -- The key quorums the user consented to, as a JSON array of ids (for display; the signer
    -- reads its sealed copy).
    signer_ids TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX delegations_user ON delegations (user_id);
