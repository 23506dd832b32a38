//! Sign-in nonces of external wallets (migration 0010): issued by `/siwe/init` and `/siws/init`
//! for one address, used once.

use super::{Db, DbError};

/// A nonce as issued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletNonce<'a> {
    /// SHA-256 (hex) of the nonce.
    pub nonce_hash: &'a str,
    /// The app it was issued for.
    pub app_id: &'a str,
    /// `ethereum` or `solana`.
    pub chain_type: &'a str,
    /// The address it was issued for, normalised.
    pub address: &'a str,
    /// Unix seconds; refused from then on.
    pub expires_at: i64,
}

impl Db {
    /// Stores a fresh nonce (and drops the expired ones).
    pub async fn insert_wallet_nonce(
        &self,
        nonce: &WalletNonce<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query("DELETE FROM wallet_nonces WHERE expires_at <= $1")
            .bind(now)
            .execute(self.writer())
            .await?;
        sqlx::query(
            "INSERT INTO wallet_nonces (nonce_hash, app_id, chain_type, address, expires_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(nonce.nonce_hash)
        .bind(nonce.app_id)
        .bind(nonce.chain_type)
        .bind(nonce.address)
        .bind(nonce.expires_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Whether the nonce is live for exactly this app, chain type and address (a read: lets a
    /// caller skip costly checks, such as a chain call, for a proof that cannot succeed).
    pub async fn wallet_nonce_live(
        &self,
        nonce: &WalletNonce<'_>,
        now: i64,
    ) -> Result<bool, DbError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT nonce_hash FROM wallet_nonces WHERE nonce_hash = $1 AND app_id = $2
             AND chain_type = $3 AND address = $4 AND expires_at > $5",
        )
        .bind(nonce.nonce_hash)
        .bind(nonce.app_id)
        .bind(nonce.chain_type)
        .bind(nonce.address)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.is_some())
    }

    /// Uses up the live nonce issued for exactly this app, chain type and address: one
    /// conditional DELETE, so of concurrent uses exactly one gets true.
    pub async fn take_wallet_nonce(
        &self,
        nonce: &WalletNonce<'_>,
        now: i64,
    ) -> Result<bool, DbError> {
        let deleted = sqlx::query(
            "DELETE FROM wallet_nonces WHERE nonce_hash = $1 AND app_id = $2 AND chain_type = $3
             AND address = $4 AND expires_at > $5",
        )
        .bind(nonce.nonce_hash)
        .bind(nonce.app_id)
        .bind(nonce.chain_type)
        .bind(nonce.address)
        .bind(now)
        .execute(self.writer())
        .await?;
        Ok(deleted.rows_affected() == 1)
    }
}
