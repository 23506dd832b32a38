-- Aggregations (`/v1/aggregations`, docs/policies.md): a wallet's transaction values summed over a
-- rolling window, which policy conditions `reference` / `aggregation.{id}` compare. The signer keeps
-- the sums (its own state); the server keeps the definitions. Same rules as 0001: TEXT and BIGINT
-- only.
CREATE TABLE aggregations (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- `eth_signTransaction` or `eth_sendTransaction` (both count signed and sent transactions).
    method TEXT NOT NULL,
    -- `{field_source, field, function}` as JSON (`ethereum_transaction`, `value`, `sum`).
    metric TEXT NOT NULL,
    -- The rolling window (3600 to 259200).
    window_seconds BIGINT NOT NULL,
    -- Unix milliseconds (the vendor's unit).
    created_at BIGINT NOT NULL
);
CREATE INDEX aggregations_app ON aggregations (app_id);
