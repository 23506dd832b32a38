//! Sign-in nonces of external wallets (migrations 0010, 0015): issued by `/siwe/init` and
//! `/siws/init` for one address, at most [`MAX_LIVE_NONCES_PER_ADDRESS`] kept per address, used
//! once.

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

/// Live nonces kept per (app, chain type, address): the slots of migration 0015. A flood of
/// inits for one address evicts the oldest instead of refusing anyone, so the owner's fresh init
/// always gets a nonce; it stays live until 9 more inits for the address come in before its
/// sign-in (then the owner asks again).
pub const MAX_LIVE_NONCES_PER_ADDRESS: usize = 10;

/// One statement: the nonce goes into the address's free slot or, all slots taken, the one
/// holding the oldest nonce (lowest `seq`: issue order, one more than the address's highest),
/// replacing it. The slot's uniqueness keeps the address at most [`MAX_LIVE_NONCES_PER_ADDRESS`]
/// rows under any concurrency: two inits that pick the same slot meet in the upsert and the later
/// one replaces the earlier (Postgres waits for the row, SQLite has one writer). `WHERE true`:
/// SQLite's parser needs a WHERE before ON CONFLICT in INSERT … SELECT.
static INSERT_INTO_SLOT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let slots = (0..MAX_LIVE_NONCES_PER_ADDRESS)
        .map(|slot| format!("({slot})"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "INSERT INTO wallet_nonces (nonce_hash, app_id, chain_type, address, slot, seq, expires_at)
         SELECT $1, $2, $3, $4, slots.column1,
             (SELECT COALESCE(MAX(mine.seq), 0) + 1 FROM wallet_nonces mine
              WHERE mine.app_id = $2 AND mine.chain_type = $3 AND mine.address = $4),
             $5
         FROM (VALUES {slots}) AS slots
         LEFT JOIN wallet_nonces taken ON taken.app_id = $2 AND taken.chain_type = $3
             AND taken.address = $4 AND taken.slot = slots.column1
         WHERE true
         ORDER BY COALESCE(taken.seq, -1), slots.column1
         LIMIT 1
         ON CONFLICT (app_id, chain_type, address, slot) DO UPDATE
         SET nonce_hash = excluded.nonce_hash, seq = excluded.seq,
             expires_at = excluded.expires_at"
    )
});

impl Db {
    /// Stores a fresh nonce in its address's free or oldest slot (see [`INSERT_INTO_SLOT`]), and
    /// drops the expired nonces of every address.
    pub async fn insert_wallet_nonce(
        &self,
        nonce: &WalletNonce<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query("DELETE FROM wallet_nonces WHERE expires_at <= $1")
            .bind(now)
            .execute(self.writer())
            .await?;
        sqlx::query(INSERT_INTO_SLOT.as_str())
            .bind(nonce.nonce_hash)
            .bind(nonce.app_id)
            .bind(nonce.chain_type)
            .bind(nonce.address)
            .bind(nonce.expires_at)
            .execute(self.writer())
            .await?;
        Ok(())
    }

    /// How many nonces are stored for this app, chain type and address (live or not yet purged).
    pub async fn count_wallet_nonces(
        &self,
        app_id: &str,
        chain_type: &str,
        address: &str,
    ) -> Result<i64, DbError> {
        let (count,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM wallet_nonces WHERE app_id = $1 AND chain_type = $2
             AND address = $3",
        )
        .bind(app_id)
        .bind(chain_type)
        .bind(address)
        .fetch_one(self.pool())
        .await?;
        Ok(count)
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
