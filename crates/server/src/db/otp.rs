//! One-time login codes, stored as HMACs, one row per (app, channel, subject).
//!
//! Every limit is enforced by a single conditional write on that row, never read-then-write:
//! concurrent requests (on one server or many) cannot slip past a count, because the database
//! serialises the writes to one row and each re-checks its `WHERE` against the latest values.

use super::{Db, DbError};

/// Whose codes: the app, the channel (`email`) and the normalised address.
#[derive(Debug, Clone, Copy)]
pub struct OtpKey<'a> {
    /// The app.
    pub app_id: &'a str,
    /// `email` (later `sms`).
    pub channel: &'a str,
    /// The normalised address or number.
    pub subject: &'a str,
}

/// The limits the code rows enforce (see `docs/server.md`, "Codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtpLimits {
    /// Guesses one client network may check against one code (and the one before it).
    pub max_attempts: i64,
    /// Wrong guesses per (subject, client network) per failure window, whatever codes were sent
    /// meanwhile.
    pub failure_budget: i64,
    /// Seconds of the failure window.
    pub failure_window_s: i64,
    /// Wrong guesses per subject from every network per backstop window (an hour); past it the
    /// subject is locked for [`Self::lock_base_s`], doubling while locks follow each other.
    pub backstop_budget: i64,
    /// Seconds of the backstop window.
    pub backstop_window_s: i64,
    /// The first lock's length.
    pub lock_base_s: i64,
    /// The longest lock.
    pub lock_max_s: i64,
    /// Seconds between two sends to one subject.
    pub send_cooldown_s: i64,
    /// Sends per subject per send window.
    pub sends_per_window: i64,
    /// Seconds of the send window.
    pub send_window_s: i64,
}

/// The codes a reserved guess may be compared with (hashes of unexpired codes only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservedGuess {
    /// Hashes of the newest code and the one before it that may be checked now (during a lock,
    /// only a code sent since it began, to the network guessing).
    pub valid_hashes: Vec<String>,
    /// Guesses this network has left against these codes after this one.
    pub attempts_left: i64,
}

/// Why no guess could be reserved (read after the refusal, only to explain it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuessRefusal {
    /// This network's wrong guesses for the subject are spent until `until`.
    NetworkSpent {
        /// When the network's window ends.
        until: i64,
    },
    /// The subject is locked (wrong guesses from many networks) until `until`; a code sent since
    /// the lock began, typed from the network that asked for it, would still be checked.
    Locked {
        /// When the lock ends.
        until: i64,
    },
    /// This network has used its guesses against the pending codes.
    UsedUp,
    /// No unexpired, unused code.
    Expired,
}

/// A code row as stored, for explaining a refusal (never for deciding one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtpState {
    /// Newest code's expiry (0 once used).
    pub expires_at: i64,
    /// The previous code's expiry (0 when none).
    pub previous_expires_at: i64,
    /// Wrong guesses from every network in the current backstop window.
    pub failures: i64,
    /// Start of the backstop window.
    pub failures_since: i64,
    /// Sends in the current send window.
    pub sends: i64,
    /// Start of the send window.
    pub sends_since: i64,
    /// When the newest code was sent.
    pub sent_at: i64,
    /// When the current (or last) lock ends.
    pub locked_until: i64,
    /// The newest code's number.
    pub code_serial: i64,
}

impl Db {
    /// Stores a new code for `key`, asked for from `network`, if the send limits allow one now:
    /// the previous code stays valid until its own expiry, every network's guess count starts
    /// again, the failure budgets and any lock do not. False (nothing changed) inside the resend
    /// cooldown or past the sends of the window.
    pub async fn store_otp(
        &self,
        key: OtpKey<'_>,
        network: &str,
        code_hash: &str,
        (now, expires_at): (i64, i64),
        limits: &OtpLimits,
    ) -> Result<bool, DbError> {
        let result = sqlx::query(
            "INSERT INTO otp_codes (app_id, channel, subject, code_hash, expires_at, previous_hash,
                previous_expires_at, attempts, failures, failures_since, sends, sends_since, sent_at,
                code_serial, sent_network)
             VALUES ($1, $2, $3, $4, $5, NULL, 0, 0, 0, $6, 1, $6, $6, 1, $10)
             ON CONFLICT (app_id, channel, subject) DO UPDATE SET
                previous_hash = CASE WHEN otp_codes.expires_at > $6 THEN otp_codes.code_hash END,
                previous_expires_at = CASE WHEN otp_codes.expires_at > $6 THEN otp_codes.expires_at ELSE 0 END,
                previous_sent_at = otp_codes.sent_at,
                previous_network = otp_codes.sent_network,
                code_hash = $4,
                expires_at = $5,
                attempts = 0,
                sends = CASE WHEN otp_codes.sends_since + $9 <= $6 THEN 1 ELSE otp_codes.sends + 1 END,
                sends_since = CASE WHEN otp_codes.sends_since + $9 <= $6 THEN $6 ELSE otp_codes.sends_since END,
                sent_at = $6,
                code_serial = otp_codes.code_serial + 1,
                sent_network = $10
             WHERE otp_codes.sent_at + $7 <= $6
               AND (otp_codes.sends < $8 OR otp_codes.sends_since + $9 <= $6)",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(code_hash)
        .bind(expires_at)
        .bind(now)
        .bind(limits.send_cooldown_s)
        .bind(limits.sends_per_window)
        .bind(limits.send_window_s)
        .bind(network)
        .execute(self.writer())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Reserves one guess from `network` before it is checked, in one transaction of two
    /// conditional writes: the address row counts it against the backstop (and locks the address
    /// when it is spent), the network's row against that network's failure budget and its guesses
    /// at the current code. A refused guess changes nothing (the transaction is rolled back) and is
    /// never compared: the caller refuses with the returned reason.
    pub async fn reserve_otp_guess(
        &self,
        key: OtpKey<'_>,
        network: &str,
        now: i64,
        limits: &OtpLimits,
    ) -> Result<Result<ReservedGuess, GuessRefusal>, DbError> {
        type CodeRow = (
            String,
            i64,
            Option<String>,
            i64,
            i64,
            i64,
            String,
            i64,
            i64,
            i64,
            String,
        );
        let mut tx = self.writer().begin().await?;
        // Wrong guesses from every network in the backstop window, this one included.
        macro_rules! count {
            () => {
                "(CASE WHEN failures_since + $6 <= $4 THEN 1 ELSE failures + 1 END)"
            };
        }
        // The next lock: the first after a quiet spell is the base, then each one doubles.
        macro_rules! next {
            () => {
                "(CASE WHEN lock_s = 0 OR locked_until + $9 <= $4 THEN $8
                       WHEN lock_s * 2 >= $9 THEN $9 ELSE lock_s * 2 END)"
            };
        }
        // The guess past the backstop (`count > $7`) locks the address; during a lock only codes
        // sent since it began, to this network, can be guessed at.
        #[rustfmt::skip]
        const SQL: &str = concat!(
            "UPDATE otp_codes SET
                failures = CASE WHEN ", count!(), " > $7 THEN 0 ELSE ", count!(), " END,
                failures_since = CASE WHEN ", count!(), " > $7 OR failures_since + $6 <= $4 THEN $4
                                      ELSE failures_since END,
                locked_at = CASE WHEN ", count!(), " > $7 AND locked_until <= $4 THEN $4
                                 ELSE locked_at END,
                locked_until = CASE WHEN ", count!(), " > $7 THEN $4 + ", next!(), "
                                    ELSE locked_until END,
                lock_s = CASE WHEN ", count!(), " > $7 THEN ", next!(), " ELSE lock_s END
             WHERE app_id = $1 AND channel = $2 AND subject = $3
               AND (expires_at > $4 OR previous_expires_at > $4)
               AND (locked_until <= $4
                    OR (sent_at >= locked_at AND sent_network = $5 AND expires_at > $4)
                    OR (previous_sent_at >= locked_at AND previous_network = $5
                        AND previous_expires_at > $4))
             RETURNING code_hash, expires_at, previous_hash, previous_expires_at, code_serial,
                       sent_at, sent_network, locked_at, locked_until, previous_sent_at,
                       previous_network"
        );
        let row: Option<CodeRow> = sqlx::query_as(SQL)
            .bind(key.app_id)
            .bind(key.channel)
            .bind(key.subject)
            .bind(now)
            .bind(network)
            .bind(limits.backstop_window_s)
            .bind(limits.backstop_budget)
            .bind(limits.lock_base_s)
            .bind(limits.lock_max_s)
            .fetch_optional(&mut *tx)
            .await?;
        let Some((
            hash,
            expires_at,
            previous,
            previous_expires_at,
            serial,
            sent_at,
            sent_network,
            locked_at,
            locked_until,
            previous_sent_at,
            previous_network,
        )) = row
        else {
            tx.rollback().await?;
            return Ok(Err(self.guess_refusal(key, network, now, limits).await?));
        };
        // During a lock a network gets one guess at the code it asked for: the person it was sent to
        // types it once (or asks again); anyone else asking for codes to guess at gets one per mail.
        let locked = locked_until > now;
        let max_attempts = if locked { 1 } else { limits.max_attempts };
        let attempts: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO otp_failures (app_id, channel, subject, network, failures, failures_since,
                attempts, attempts_serial)
             VALUES ($1, $2, $3, $4, 1, $5, 1, $6)
             ON CONFLICT (app_id, channel, subject, network) DO UPDATE SET
                failures = CASE WHEN otp_failures.failures_since + $7 <= $5 THEN 1
                                ELSE otp_failures.failures + 1 END,
                failures_since = CASE WHEN otp_failures.failures_since + $7 <= $5 THEN $5
                                      ELSE otp_failures.failures_since END,
                attempts = CASE WHEN otp_failures.attempts_serial = $6 THEN otp_failures.attempts + 1
                                ELSE 1 END,
                attempts_serial = $6
             WHERE (otp_failures.failures < $8 OR otp_failures.failures_since + $7 <= $5)
               AND (otp_failures.attempts_serial <> $6 OR otp_failures.attempts < $9)
             RETURNING attempts",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(network)
        .bind(now)
        .bind(serial)
        .bind(limits.failure_window_s)
        .bind(limits.failure_budget)
        .bind(max_attempts)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((attempts,)) = attempts else {
            tx.rollback().await?;
            return Ok(Err(self.guess_refusal(key, network, now, limits).await?));
        };
        tx.commit().await?;
        self.forget_old_failures(now, limits).await?;
        // During a lock (including one this very guess began) only the codes sent since the lock
        // began to this network may be checked (the newest, and the one before it: a code asked for
        // by someone else afterwards does not strand the person typing theirs).
        let mut valid_hashes = Vec::with_capacity(2);
        if expires_at > now && (!locked || (sent_at >= locked_at && sent_network == network)) {
            valid_hashes.push(hash);
        }
        let previous_ok = !locked || (previous_sent_at >= locked_at && previous_network == network);
        if previous_ok && let Some(previous) = previous.filter(|_| previous_expires_at > now) {
            valid_hashes.push(previous);
        }
        if valid_hashes.is_empty() {
            return Ok(Err(GuessRefusal::Locked {
                until: locked_until,
            }));
        }
        Ok(Ok(ReservedGuess {
            valid_hashes,
            attempts_left: (max_attempts - attempts).max(0),
        }))
    }

    /// Deletes the network rows whose failure window has ended (their counts start over anyway).
    async fn forget_old_failures(&self, now: i64, limits: &OtpLimits) -> Result<(), DbError> {
        sqlx::query("DELETE FROM otp_failures WHERE failures_since <= $1")
            .bind(now - limits.failure_window_s)
            .execute(self.writer())
            .await?;
        Ok(())
    }

    /// Why a guess was refused, read after the refusal (which was decided by the writes alone).
    async fn guess_refusal(
        &self,
        key: OtpKey<'_>,
        network: &str,
        now: i64,
        limits: &OtpLimits,
    ) -> Result<GuessRefusal, DbError> {
        let ours: Option<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT failures, failures_since, attempts, attempts_serial FROM otp_failures
             WHERE app_id = $1 AND channel = $2 AND subject = $3 AND network = $4",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(network)
        .fetch_optional(self.writer())
        .await?;
        let code: Option<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT expires_at, previous_expires_at, code_serial, locked_until FROM otp_codes
             WHERE app_id = $1 AND channel = $2 AND subject = $3",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .fetch_optional(self.writer())
        .await?;
        if let Some((failures, since, _, _)) = ours
            && failures >= limits.failure_budget
            && since + limits.failure_window_s > now
        {
            return Ok(GuessRefusal::NetworkSpent {
                until: since + limits.failure_window_s,
            });
        }
        let Some((expires_at, previous_expires_at, serial, locked_until)) = code else {
            return Ok(GuessRefusal::Expired);
        };
        if locked_until > now {
            return Ok(GuessRefusal::Locked {
                until: locked_until,
            });
        }
        let live = expires_at > now || previous_expires_at > now;
        Ok(match ours {
            Some((_, _, attempts, attempts_serial))
                if live && attempts_serial == serial && attempts >= limits.max_attempts =>
            {
                GuessRefusal::UsedUp
            }
            _ => GuessRefusal::Expired,
        })
    }

    /// Marks the codes used if `code_hash` is still one of them, and gives back the failure the
    /// right guess from `network` had reserved (on the address and the network). False when a
    /// concurrent request used them first (codes are single use).
    pub async fn consume_otp(
        &self,
        key: OtpKey<'_>,
        network: &str,
        code_hash: &str,
    ) -> Result<bool, DbError> {
        let result = sqlx::query(
            "UPDATE otp_codes SET code_hash = '', expires_at = 0, previous_hash = NULL,
                previous_expires_at = 0, attempts = 0,
                failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END
             WHERE app_id = $1 AND channel = $2 AND subject = $3
               AND code_hash <> '' AND (code_hash = $4 OR previous_hash = $4)",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(code_hash)
        .execute(self.writer())
        .await?;
        if result.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query(
            "UPDATE otp_failures SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END
             WHERE app_id = $1 AND channel = $2 AND subject = $3 AND network = $4",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(network)
        .execute(self.writer())
        .await?;
        Ok(true)
    }

    /// The row as stored, to tell the user why a send was refused.
    pub async fn otp_state(&self, key: OtpKey<'_>) -> Result<Option<OtpState>, DbError> {
        type Row = (i64, i64, i64, i64, i64, i64, i64, i64, i64);
        let row: Option<Row> = sqlx::query_as(
            "SELECT expires_at, previous_expires_at, failures, failures_since, sends,
                    sends_since, sent_at, locked_until, code_serial
             FROM otp_codes WHERE app_id = $1 AND channel = $2 AND subject = $3",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(
            |(
                expires_at,
                previous_expires_at,
                failures,
                failures_since,
                sends,
                sends_since,
                sent_at,
                locked_until,
                code_serial,
            )| OtpState {
                expires_at,
                previous_expires_at,
                failures,
                failures_since,
                sends,
                sends_since,
                sent_at,
                locked_until,
                code_serial,
            },
        ))
    }

    /// Whether `network` has used its guesses at the code numbered `serial` (read only to explain).
    pub async fn otp_guesses_used_up(
        &self,
        key: OtpKey<'_>,
        network: &str,
        serial: i64,
        limits: &OtpLimits,
    ) -> Result<bool, DbError> {
        let row: Option<(i64, i64)> = sqlx::query_as(
            "SELECT attempts, attempts_serial FROM otp_failures
             WHERE app_id = $1 AND channel = $2 AND subject = $3 AND network = $4",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(network)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.is_some_and(|(attempts, attempts_serial)| {
            attempts_serial == serial && attempts >= limits.max_attempts
        }))
    }
}
