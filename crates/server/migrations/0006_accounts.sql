-- The accounts core (issue 9). Same rules as 0001: TEXT and BIGINT only, unix seconds.

-- App settings an operator changes with `symbolon apps …` (login methods, sign-up, allowlist,
-- user limit, custom auth, SMS): one JSON document, so a new setting needs no migration.
ALTER TABLE apps ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
-- Users of the app, kept by the same transaction that creates or deletes one, so the user limit
-- is one conditional write on this row.
ALTER TABLE apps ADD COLUMN user_count BIGINT NOT NULL DEFAULT 0;
UPDATE apps SET user_count = (SELECT COUNT(*) FROM users WHERE users.app_id = apps.id);

-- What a login method knows about an account beyond its subject (an OAuth name, a wallet's
-- connector), as JSON; later methods add a type, not a column.
ALTER TABLE linked_accounts ADD COLUMN details TEXT;

-- Offers to move an account from its owner to the user who just verified it
-- (`account_transfer_required`). Only the nonce's hash is stored; one use.
CREATE TABLE account_transfers (
    nonce_hash TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    account_type TEXT NOT NULL,
    subject TEXT NOT NULL,
    -- The user who may take it.
    to_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_transfers_expiry ON account_transfers (expires_at);
