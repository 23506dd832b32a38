-- Fresh sign-ins (issue 19). Same rules as 0001: TEXT and BIGINT only, unix seconds.
--
-- When a session's sign-in was proven by a fresh proof (a single-use code, nonce, challenge or OAuth
-- code: the sign-in time; a dated replayable proof such as Telegram's `auth_date` or a JWT's `iat`: that
-- date), else NULL (a guest credential or another replayable proof that did not create the user). Only
-- this counts for what a recent sign-in allows: account changes, the root wallet, the recovery share.
-- Sessions from before this migration count as not fresh: their holders sign in again for those.
ALTER TABLE sessions ADD COLUMN fresh_since BIGINT;
