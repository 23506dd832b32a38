//! Idempotency keys of the `/v1` API (migration 0022): the first request with a key claims it, and
//! its answer is kept for the key's lifetime.

use super::{Db, DbError};

/// Seconds a key is kept (the vendor's 24 hours).
pub const IDEMPOTENCY_TTL_S: i64 = 24 * 60 * 60;

/// What a claim found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key was free (or expired): this request runs.
    Claimed,
    /// The key is taken by a request with this hash, answered with `status` and `body` once it
    /// finished (`None` while it runs).
    Taken {
        /// SHA-256 (hex) of the request that took it.
        request_hash: String,
        /// Its answer, when it has one.
        answer: Option<(u16, String)>,
    },
}

impl Db {
    /// Claims `key_hash` of `app_id` for the request `request_hash`: one conditional upsert that
    /// takes a free or expired key, so of concurrent requests with one key exactly one runs.
    pub async fn claim_idempotency_key(
        &self,
        app_id: &str,
        key_hash: &str,
        request_hash: &str,
        now: i64,
    ) -> Result<Claim, DbError> {
        let claimed: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO idempotency_keys (app_id, key_hash, request_hash, status, body, expires_at)
             VALUES ($1, $2, $3, NULL, NULL, $4)
             ON CONFLICT (app_id, key_hash) DO UPDATE
             SET request_hash = $3, status = NULL, body = NULL, expires_at = $4
             WHERE idempotency_keys.expires_at <= $5
             RETURNING expires_at",
        )
        .bind(app_id)
        .bind(key_hash)
        .bind(request_hash)
        .bind(now + IDEMPOTENCY_TTL_S)
        .bind(now)
        .fetch_optional(self.writer())
        .await?;
        if claimed.is_some() {
            return Ok(Claim::Claimed);
        }
        let taken: Option<(String, Option<i64>, Option<String>)> = sqlx::query_as(
            "SELECT request_hash, status, body FROM idempotency_keys WHERE app_id = $1 AND key_hash = $2",
        )
        .bind(app_id)
        .bind(key_hash)
        .fetch_optional(self.writer())
        .await?;
        // Gone between the two statements (swept at its expiry): nobody holds it now.
        let Some((request_hash, status, body)) = taken else {
            return Ok(Claim::Claimed);
        };
        let answer = match (status, body) {
            (Some(status), body) => Some((
                u16::try_from(status).unwrap_or(500),
                body.unwrap_or_default(),
            )),
            (None, _) => None,
        };
        Ok(Claim::Taken {
            request_hash,
            answer,
        })
    }

    /// Keeps the answer of the request that claimed the key.
    pub async fn finish_idempotency_key(
        &self,
        app_id: &str,
        key_hash: &str,
        status: u16,
        body: &str,
    ) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE idempotency_keys SET status = $3, body = $4 WHERE app_id = $1 AND key_hash = $2",
        )
        .bind(app_id)
        .bind(key_hash)
        .bind(i64::from(status))
        .bind(body)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Frees a key whose request failed on the server's side, so a retry runs again.
    pub async fn release_idempotency_key(
        &self,
        app_id: &str,
        key_hash: &str,
    ) -> Result<(), DbError> {
        sqlx::query(
            "DELETE FROM idempotency_keys WHERE app_id = $1 AND key_hash = $2 AND status IS NULL",
        )
        .bind(app_id)
        .bind(key_hash)
        .execute(self.writer())
        .await?;
        Ok(())
    }
}
