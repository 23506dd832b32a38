//! Sign-in nonces of external wallets (migrations 0010, 0015; `challenges` rows since 0018): issued by `/siwe/init` and
//! `/siws/init` for one address, at most [`MAX_LIVE_NONCES_PER_ADDRESS`] kept per address, used
//! once.

use super::challenges::{ChallengeKind, scope};
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

/// Live nonces kept per (app, chain type, address): the slots of migration 0015 (the `slot` of
/// their `challenges` rows since 0018). A flood of
/// inits for one address evicts the oldest instead of refusing anyone, so the owner's fresh init
/// always gets a nonce; it stays live until 9 more inits for the address come in before its
/// sign-in (then the owner asks again).
pub const MAX_LIVE_NONCES_PER_ADDRESS: usize = 10;

/// One statement: the nonce goes into the address's free slot or, all slots taken, the one
/// holding an expired nonce or else the oldest (lowest `seq`: issue order, one more than the
/// address's highest), replacing it. The slot's uniqueness (`challenges_slot_unique`) keeps the
/// address at most [`MAX_LIVE_NONCES_PER_ADDRESS`] rows under any concurrency: two inits that pick
/// the same slot meet in the upsert and the later one replaces the earlier (Postgres waits for the
/// row, SQLite has one writer). `WHERE true`: SQLite's parser needs a WHERE before ON CONFLICT in
/// INSERT … SELECT. $1 nonce hash, $2 app, $3 scope (chain type / address), $4 expiry, $5 now.
static INSERT_INTO_SLOT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let slots = (0..MAX_LIVE_NONCES_PER_ADDRESS)
        .map(|slot| format!("({slot})"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "INSERT INTO challenges (kind, key_hash, app_id, scope, slot, seq, payload, expires_at, created_at)
         SELECT 'wallet_nonce', $1, $2, $3, slots.column1,
             (SELECT COALESCE(MAX(mine.seq), 0) + 1 FROM challenges mine
              WHERE mine.kind = 'wallet_nonce' AND mine.app_id = $2 AND mine.scope = $3),
             '{{}}', $4, $5
         FROM (VALUES {slots}) AS slots
         LEFT JOIN challenges taken ON taken.kind = 'wallet_nonce' AND taken.app_id = $2
             AND taken.scope = $3 AND taken.slot = slots.column1
         WHERE true
         ORDER BY CASE WHEN taken.expires_at > $5 THEN taken.seq ELSE -1 END, slots.column1
         LIMIT 1
         ON CONFLICT (kind, app_id, scope, slot) DO UPDATE
         SET key_hash = excluded.key_hash, seq = excluded.seq,
             expires_at = excluded.expires_at, created_at = excluded.created_at"
    )
});

/// The challenge scope of an address's nonces.
fn address_scope(chain_type: &str, address: &str) -> String {
    scope(&[chain_type, address])
}

impl Db {
    /// Stores a fresh nonce in its address's free, expired or oldest slot (see
    /// [`INSERT_INTO_SLOT`]).
    pub async fn insert_wallet_nonce(
        &self,
        nonce: &WalletNonce<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(INSERT_INTO_SLOT.as_str())
            .bind(nonce.nonce_hash)
            .bind(nonce.app_id)
            .bind(address_scope(nonce.chain_type, nonce.address))
            .bind(nonce.expires_at)
            .bind(now)
            .execute(self.writer())
            .await?;
        Ok(())
    }

    /// How many nonces are stored for this app, chain type and address (live or not yet swept).
    pub async fn count_wallet_nonces(
        &self,
        app_id: &str,
        chain_type: &str,
        address: &str,
    ) -> Result<i64, DbError> {
        let (count,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM challenges WHERE kind = 'wallet_nonce' AND app_id = $1
             AND scope = $2",
        )
        .bind(app_id)
        .bind(address_scope(chain_type, address))
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
        let found = self
            .find_challenge(
                ChallengeKind::WalletNonce,
                nonce.nonce_hash,
                nonce.app_id,
                now,
            )
            .await?;
        Ok(found.is_some_and(|c| c.scope == address_scope(nonce.chain_type, nonce.address)))
    }

    /// Uses up the live nonce issued for exactly this app, chain type and address: one
    /// conditional DELETE, so of concurrent uses exactly one gets true.
    pub async fn take_wallet_nonce(
        &self,
        nonce: &WalletNonce<'_>,
        now: i64,
    ) -> Result<bool, DbError> {
        let taken = self
            .take_challenge(
                ChallengeKind::WalletNonce,
                nonce.nonce_hash,
                nonce.app_id,
                &address_scope(nonce.chain_type, nonce.address),
                now,
            )
            .await?;
        Ok(taken.is_some())
    }
}
