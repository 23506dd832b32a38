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

/// The limits the code rows enforce (see `docs/server.md`, "One-time codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtpLimits {
    /// Guesses checked against one code (and the one before it) before both are dead.
    pub max_attempts: i64,
    /// Wrong guesses per subject per failure window, whatever codes were sent meanwhile.
    pub failure_budget: i64,
    /// Seconds of the failure window.
    pub failure_window_s: i64,
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
    /// Hashes of the newest code and the one before it that are still valid.
    pub valid_hashes: Vec<String>,
    /// Guesses left after this one.
    pub attempts_left: i64,
}

/// A code row as stored, for explaining a refusal (never for deciding one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtpState {
    /// Newest code's expiry (0 once used).
    pub expires_at: i64,
    /// The previous code's expiry (0 when none).
    pub previous_expires_at: i64,
    /// Guesses checked against the pending codes.
    pub attempts: i64,
    /// Wrong guesses in the current failure window.
    pub failures: i64,
    /// Start of the failure window.
    pub failures_since: i64,
    /// Sends in the current send window.
    pub sends: i64,
    /// Start of the send window.
    pub sends_since: i64,
    /// When the newest code was sent.
    pub sent_at: i64,
}

impl Db {
    /// Stores a new code for `key` if the send limits allow one now: the previous code stays
    /// valid until its own expiry, the guess count starts again, the failure budget does not.
    /// False (nothing changed) inside the resend cooldown or past the sends of the window.
    pub async fn store_otp(
        &self,
        key: OtpKey<'_>,
        code_hash: &str,
        now: i64,
        expires_at: i64,
        limits: &OtpLimits,
    ) -> Result<bool, DbError> {
        let result = sqlx::query(
            "INSERT INTO otp_codes (app_id, channel, subject, code_hash, expires_at, previous_hash,
                previous_expires_at, attempts, failures, failures_since, sends, sends_since, sent_at)
             VALUES ($1, $2, $3, $4, $5, NULL, 0, 0, 0, $6, 1, $6, $6)
             ON CONFLICT (app_id, channel, subject) DO UPDATE SET
                previous_hash = CASE WHEN otp_codes.expires_at > $6 THEN otp_codes.code_hash END,
                previous_expires_at = CASE WHEN otp_codes.expires_at > $6 THEN otp_codes.expires_at ELSE 0 END,
                code_hash = $4,
                expires_at = $5,
                attempts = 0,
                sends = CASE WHEN otp_codes.sends_since + $9 <= $6 THEN 1 ELSE otp_codes.sends + 1 END,
                sends_since = CASE WHEN otp_codes.sends_since + $9 <= $6 THEN $6 ELSE otp_codes.sends_since END,
                sent_at = $6
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
        .execute(self.writer())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Reserves one guess before it is checked: counts it against the codes' attempts and the
    /// subject's failure budget in one conditional write. `None` when no guess may be checked now
    /// (no unexpired code, attempts used up, or budget spent): the caller must refuse without
    /// comparing anything.
    pub async fn reserve_otp_guess(
        &self,
        key: OtpKey<'_>,
        now: i64,
        limits: &OtpLimits,
    ) -> Result<Option<ReservedGuess>, DbError> {
        let row: Option<(String, i64, Option<String>, i64, i64)> = sqlx::query_as(
            "UPDATE otp_codes SET
                attempts = attempts + 1,
                failures = CASE WHEN failures_since + $6 <= $4 THEN 1 ELSE failures + 1 END,
                failures_since = CASE WHEN failures_since + $6 <= $4 THEN $4 ELSE failures_since END
             WHERE app_id = $1 AND channel = $2 AND subject = $3
               AND (expires_at > $4 OR previous_expires_at > $4)
               AND attempts < $5
               AND (failures < $7 OR failures_since + $6 <= $4)
             RETURNING code_hash, expires_at, previous_hash, previous_expires_at, attempts",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(now)
        .bind(limits.max_attempts)
        .bind(limits.failure_window_s)
        .bind(limits.failure_budget)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(
            |(hash, expires_at, previous, previous_expires_at, attempts)| {
                let mut valid_hashes = Vec::with_capacity(2);
                if expires_at > now {
                    valid_hashes.push(hash);
                }
                if let Some(previous) = previous.filter(|_| previous_expires_at > now) {
                    valid_hashes.push(previous);
                }
                ReservedGuess {
                    valid_hashes,
                    attempts_left: (limits.max_attempts - attempts).max(0),
                }
            },
        ))
    }

    /// Marks the codes used if `code_hash` is still one of them, and gives back the failure
    /// budget the right guess had reserved. False when a concurrent request used them first
    /// (codes are single use).
    pub async fn consume_otp(&self, key: OtpKey<'_>, code_hash: &str) -> Result<bool, DbError> {
        let result = sqlx::query(
            "UPDATE otp_codes SET code_hash = '', expires_at = 0, previous_hash = NULL,
                previous_expires_at = 0, attempts = 0, failures = 0
             WHERE app_id = $1 AND channel = $2 AND subject = $3
               AND code_hash <> '' AND (code_hash = $4 OR previous_hash = $4)",
        )
        .bind(key.app_id)
        .bind(key.channel)
        .bind(key.subject)
        .bind(code_hash)
        .execute(self.writer())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// The row as stored, to tell the user why a send or a guess was refused.
    pub async fn otp_state(&self, key: OtpKey<'_>) -> Result<Option<OtpState>, DbError> {
        type Row = (i64, i64, i64, i64, i64, i64, i64, i64);
        let row: Option<Row> = sqlx::query_as(
            "SELECT expires_at, previous_expires_at, attempts, failures, failures_since, sends,
                    sends_since, sent_at
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
                attempts,
                failures,
                failures_since,
                sends,
                sends_since,
                sent_at,
            )| OtpState {
                expires_at,
                previous_expires_at,
                attempts,
                failures,
                failures_since,
                sends,
                sends_since,
                sent_at,
            },
        ))
    }
}
