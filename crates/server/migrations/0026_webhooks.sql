-- Webhooks (issue 23): endpoints per app, and an outbox. An event and its deliveries are written in
-- the same transaction as the change they report, so a process that dies after the change still
-- delivers them. Same rules as 0001: TEXT and BIGINT only.
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    -- The kinds it hears: '*' for all, else ',user.created,mfa.enabled,' (commas around each, so
    -- one LIKE finds a kind).
    events TEXT NOT NULL,
    -- The Svix signing secret (`whsec_…`), sealed under the sealing key for this app and endpoint.
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_app ON webhook_endpoints (app_id);

CREATE TABLE webhook_events (
    -- `msg_…`: the `svix-id` of every delivery of the event (receivers dedupe by it).
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    -- The user the event is about (no foreign key: `user.deleted` outlives them).
    user_id TEXT NOT NULL,
    -- What the change knew (JSON object); the user's current form is added when it is first sent.
    body TEXT NOT NULL,
    -- The exact body sent, set once, so every attempt and every endpoint gets the same bytes.
    payload TEXT,
    created_at BIGINT NOT NULL
);

CREATE TABLE webhook_deliveries (
    -- `<event id>.<endpoint id>`.
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    app_id TEXT NOT NULL,
    -- pending, delivered, failed (out of attempts), skipped (nothing to send).
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    -- Unix seconds: when it is next due.
    next_attempt_at BIGINT NOT NULL,
    -- Unix seconds: a worker holds it until then (a worker that died lets it go at that time).
    claimed_until BIGINT NOT NULL,
    last_response BIGINT,
    last_error TEXT,
    delivered_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_app ON webhook_deliveries (app_id, created_at);

-- Every attempt of a delivery, for `symbolon webhooks deliveries`.
CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt BIGINT NOT NULL,
    at BIGINT NOT NULL,
    response_status BIGINT,
    error TEXT,
    duration_ms BIGINT NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
