-- Issue 19: bounds on the proofs of external wallets and OAuth providers. TEXT and BIGINT only,
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

-- The provider authorization codes our OAuth callback received, each bound to the one flow
-- (the state we sent the provider) whose callback received it: `/oauth/authenticate` and
-- `/oauth/link` exchange a code only for that flow. A code is received by one flow only and a
-- flow receives one code, kept (hashed) for an hour, longer than providers let codes live, and
-- after the flow is used up, so a leaked code cannot be handed to another flow.
CREATE TABLE oauth_codes (
    -- SHA-256 (hex) of the code.
    code_hash TEXT PRIMARY KEY,
    -- oauth_flows.upstream_state_hash of the flow whose callback received it.
    upstream_state_hash TEXT NOT NULL UNIQUE,
    expires_at BIGINT NOT NULL
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);
