-- Per-network budgets shared by every server instance over this database (issue 22 item 4), used
-- when `SYMBOLON_RATE_LIMIT_STORE=database` (rate_limit.rs, DatabaseLimiter). Same rules as 0001:
-- TEXT and BIGINT only.
CREATE TABLE rate_limits (
    -- Which budget (email, sms, oauth, authenticate, …).
    budget TEXT NOT NULL,
    -- The client network (IPv4 /24, IPv6 /64).
    key TEXT NOT NULL,
    -- The generic cell rate algorithm's theoretical arrival time, unix milliseconds: the budget is
    -- whole again then, and the row is worth nothing after it (the expiry sweeper deletes it).
    tat_ms BIGINT NOT NULL,
    PRIMARY KEY (budget, key)
);
CREATE INDEX rate_limits_tat ON rate_limits (tat_ms);
