//! Sign In With Farcaster nonces (migration 0008): issued with a relay channel (v1) or alone for
//! a Mini App (v2), used once.

use super::{Db, DbError};

/// A nonce as issued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FarcasterNonce<'a> {
    /// The nonce the signed message must carry.
    pub nonce: &'a str,
    /// The app it was issued for.
    pub app_id: &'a str,
    /// SHA-256 (hex) of the relay channel token; `None` for a Mini App nonce.
    pub channel_token_hash: Option<&'a str>,
    /// The SIWE domain the message must name.
    pub domain: &'a str,
    /// Unix seconds; refused from then on.
    pub expires_at: i64,
}

impl Db {
    /// Stores a fresh nonce (and drops the expired ones).
    pub async fn insert_farcaster_nonce(
        &self,
        nonce: &FarcasterNonce<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query("DELETE FROM farcaster_nonces WHERE expires_at <= $1")
            .bind(now)
            .execute(self.writer())
            .await?;
        sqlx::query(
            "INSERT INTO farcaster_nonces (nonce, app_id, channel_token_hash, domain, expires_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(nonce.nonce)
        .bind(nonce.app_id)
        .bind(nonce.channel_token_hash)
        .bind(nonce.domain)
        .bind(nonce.expires_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// The nonce of the app's live channel with this token hash.
    pub async fn farcaster_channel_nonce(
        &self,
        app_id: &str,
        channel_token_hash: &str,
        now: i64,
    ) -> Result<Option<String>, DbError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT nonce FROM farcaster_nonces
             WHERE channel_token_hash = $1 AND app_id = $2 AND expires_at > $3",
        )
        .bind(channel_token_hash)
        .bind(app_id)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|(nonce,)| nonce))
    }

    /// Uses up the app's live `nonce` for `domain`, issued with this channel (v1) or without one
    /// (v2): one conditional DELETE, so of concurrent uses exactly one gets true.
    pub async fn take_farcaster_nonce(
        &self,
        app_id: &str,
        nonce: &str,
        domain: &str,
        channel_token_hash: Option<&str>,
        now: i64,
    ) -> Result<bool, DbError> {
        let query = match channel_token_hash {
            Some(hash) => sqlx::query(
                "DELETE FROM farcaster_nonces WHERE nonce = $1 AND app_id = $2 AND domain = $3
                 AND expires_at > $4 AND channel_token_hash = $5",
            )
            .bind(nonce)
            .bind(app_id)
            .bind(domain)
            .bind(now)
            .bind(hash),
            None => sqlx::query(
                "DELETE FROM farcaster_nonces WHERE nonce = $1 AND app_id = $2 AND domain = $3
                 AND expires_at > $4 AND channel_token_hash IS NULL",
            )
            .bind(nonce)
            .bind(app_id)
            .bind(domain)
            .bind(now),
        };
        Ok(query.execute(self.writer()).await?.rows_affected() == 1)
    }
}
