-- Policies in the vendor's rule format (`/v1/policies`, issue 24): what a signature made for a host's
-- back end must pass. Same rules as 0001: TEXT and BIGINT only.
CREATE TABLE policies (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    chain_type TEXT NOT NULL,
    version TEXT NOT NULL,
    -- The rules as JSON (`[PolicyRule]`): a policy and its rules change together, in one transaction
    -- that holds the row.
    rules TEXT NOT NULL,
    -- Counts the changes.
    revision BIGINT NOT NULL,
    -- Unix milliseconds (the vendor's unit for policies).
    created_at BIGINT NOT NULL
);
CREATE INDEX policies_app ON policies (app_id, created_at);
