-- Key quorums (`/v1/key_quorums`, issue 24): P-256 keys that must sign changes to what they own, and
-- the owner of a policy. Same rules as 0001: TEXT and BIGINT only.
CREATE TABLE key_quorums (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    display_name TEXT,
    -- `[{public_key, display_name}]` as JSON (base64 DER SPKI keys).
    keys TEXT NOT NULL,
    -- How many keys must sign; NULL: all of them.
    threshold BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX key_quorums_app ON key_quorums (app_id);
-- The quorum whose signatures every change of the policy needs (NULL: the app secret is enough).
ALTER TABLE policies ADD COLUMN owner_id TEXT;
