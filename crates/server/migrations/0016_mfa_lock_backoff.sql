-- MFA lock-outs a user can wait out (issue 19): five failed verifications lock the user for a short
-- while that grows with each lock in a row (10 s, 30 s, 60 s, 120 s, then 300 s: MFA_LOCKOUTS_S),
-- instead of one 15-minute window. Same rules as 0001: TEXT and BIGINT only, unix seconds.
--
-- `failures` counts the failures (and verifications in flight) since the last lock; `locks` how many
-- locks in a row the user had (the next one's length); `locked_until` when the current lock ends;
-- `last_failure_at` (was `window_start`) when the last verification was reserved: a user quiet for
-- MFA_FAILURE_MEMORY_S starts again from nothing. Every change is one conditional write.
ALTER TABLE mfa_failures RENAME COLUMN window_start TO last_failure_at;
ALTER TABLE mfa_failures ADD COLUMN locks BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mfa_failures ADD COLUMN locked_until BIGINT NOT NULL DEFAULT 0;
