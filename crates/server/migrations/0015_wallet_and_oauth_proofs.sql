-- Issue 19: bounds on the proofs of external wallets. TEXT and BIGINT only,
-- unix seconds (as 0001).

-- Sign-in nonces of external wallets, now in at most 10 slots per (app, chain type, address):
-- `/siwe/init` and `/siws/init` write the free or oldest (lowest `seq`) slot with one upsert, so a flood of
-- inits for someone's address evicts older nonces instead of refusing the owner's. The nonces are
-- short-lived (10 minutes) and only their hashes are kept: the old rows are dropped, and a
-- sign-in that was in flight during the upgrade starts again with a new nonce.
DROP TABLE wallet_nonces;
CREATE TABLE wallet_nonces (
    nonce_hash TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- ethereum or solana.
    chain_type TEXT NOT NULL,
    -- Checksummed (ethereum) or base58 (solana), as the server compares it.
    address TEXT NOT NULL,
    -- 0..9: the cap of live nonces per address is the number of slots.
    slot BIGINT NOT NULL CHECK (slot >= 0 AND slot < 10),
    -- Issue order within the address (1 + the highest stored): the lowest is evicted first.
    seq BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    CONSTRAINT wallet_nonces_slot_unique UNIQUE (app_id, chain_type, address, slot)
);
CREATE INDEX wallet_nonces_expiry ON wallet_nonces (expires_at);
