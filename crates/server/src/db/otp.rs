//! Pending one-time codes, one per (app, email); stored as HMACs.

use super::{Db, DbError};

/// A pending code as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtpRecord {
    /// HMAC of the code, hex.
    pub code_hash: String,
    /// Wrong tries so far.
    pub attempts: i64,
    /// Unix seconds.
    pub expires_at: i64,
}

impl Db {
    /// Stores a code, replacing any pending code for the address.
    pub async fn replace_otp(
        &self,
        app_id: &str,
        email: &str,
        code_hash: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO otp_codes (app_id, email, code_hash, attempts, expires_at, created_at)
             VALUES ($1, $2, $3, 0, $4, $5)
             ON CONFLICT (app_id, email) DO UPDATE SET code_hash = $3, attempts = 0, expires_at = $4, created_at = $5",
        )
        .bind(app_id)
        .bind(email)
        .bind(code_hash)
        .bind(expires_at)
        .bind(now)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// The pending code for the address.
    pub async fn find_otp(&self, app_id: &str, email: &str) -> Result<Option<OtpRecord>, DbError> {
        let row: Option<(String, i64, i64)> =
            sqlx::query_as("SELECT code_hash, attempts, expires_at FROM otp_codes WHERE app_id = $1 AND email = $2")
                .bind(app_id)
                .bind(email)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.map(|(code_hash, attempts, expires_at)| OtpRecord {
            code_hash,
            attempts,
            expires_at,
        }))
    }

    /// Counts a wrong try against the pending code.
    pub async fn record_otp_failure(&self, app_id: &str, email: &str) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE otp_codes SET attempts = attempts + 1 WHERE app_id = $1 AND email = $2",
        )
        .bind(app_id)
        .bind(email)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Deletes the code if it is still the one with `code_hash`; false when a concurrent
    /// request consumed or replaced it (codes are single use).
    pub async fn consume_otp(
        &self,
        app_id: &str,
        email: &str,
        code_hash: &str,
    ) -> Result<bool, DbError> {
        let result = sqlx::query(
            "DELETE FROM otp_codes WHERE app_id = $1 AND email = $2 AND code_hash = $3",
        )
        .bind(app_id)
        .bind(email)
        .bind(code_hash)
        .execute(self.writer())
        .await?;
        Ok(result.rows_affected() == 1)
    }
}
