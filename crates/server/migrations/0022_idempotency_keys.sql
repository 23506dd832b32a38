-- `privy-idempotency-key` on the `/v1` API (issue 23): a POST repeated with the same key within 24 h
-- gets the first answer instead of running again. Same rules as 0001: TEXT and BIGINT only.
CREATE TABLE idempotency_keys (
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    -- SHA-256 (hex) of the key as sent.
    key_hash TEXT NOT NULL,
    -- SHA-256 (hex) of the method, path, query and body: the same key with another request is refused.
    request_hash TEXT NOT NULL,
    -- The first answer's status and body; NULL while the first request runs.
    status BIGINT,
    body TEXT,
    -- Unix seconds; the key may be used for another request from then on (the sweeper deletes it).
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (app_id, key_hash)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
