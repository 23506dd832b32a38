//! Embedded wallets and the user's root shares (envelopes only; see `wallets::share_vault`).

use super::challenges::{ChallengeKind, NewChallenge, scope};
use super::users::LinkedAccountRecord;
use super::webhooks::{NewEvent, record_events};
use super::{Db, DbError};

/// The linked-account type of wallets.
pub const WALLET_ACCOUNT_TYPE: &str = "wallet";

/// An embedded wallet as stored (also a `linked_accounts` row with the same id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedWalletRecord {
    /// Shared with its linked account.
    pub id: String,
    /// The app.
    pub app_id: String,
    /// The owner.
    pub user_id: String,
    /// EIP-55 checksummed.
    pub address: String,
    /// `ethereum`.
    pub chain_type: String,
    /// BIP-32 index under the user's entropy.
    pub wallet_index: u32,
    /// `privy`.
    pub recovery_method: String,
    /// Whether the key was imported rather than derived here.
    pub imported: bool,
    /// Unix seconds.
    pub created_at: i64,
}

/// The root share envelopes of one user and chain type (base64 text as stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootShareEnvelopes {
    /// Under the auth-share key.
    pub auth: String,
    /// Under the recovery key.
    pub recovery: String,
    /// The device public key that unlocks the auth share (base64 SEC1 point); `None` for
    /// wallets registered before device keys.
    pub device_public_key: Option<String>,
}

/// A wallet challenge (`wallet_challenges` of migration 0004; `challenges` rows since 0018).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletChallengeRecord {
    /// SHA-256 (hex) of the nonce.
    pub nonce_hash: String,
    /// The user it was issued to.
    pub user_id: String,
    /// The session it was issued to.
    pub session_id: String,
    /// `key_material`, `create` or `replace_shares`.
    pub purpose: String,
    /// Unix seconds; refused from then on.
    pub expires_at: i64,
}

/// A fixed-window limit on one user's wallet action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalletLimit {
    /// The counter's name.
    pub action: &'static str,
    /// Calls allowed per window.
    pub max: i64,
    /// Window length in seconds.
    pub window: i64,
}

/// The outcome of [`Db::take_recovery`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveryGrant {
    /// Granted; the session's allowance and one of the user's recoveries are used.
    Granted,
    /// The session is too old or already recovered.
    SessionNotFresh,
    /// The user reached the recovery cap; nothing was used.
    CapReached,
}

pub(super) type WalletRow = (
    String,
    String,
    String,
    String,
    String,
    i64,
    String,
    i64,
    i64,
);

pub(super) fn wallet(row: WalletRow) -> Option<EmbeddedWalletRecord> {
    let (id, app_id, user_id, address, chain_type, index, recovery_method, imported, created_at) =
        row;
    Some(EmbeddedWalletRecord {
        id,
        app_id,
        user_id,
        address,
        chain_type,
        wallet_index: u32::try_from(index).ok()?,
        recovery_method,
        imported: imported != 0,
        created_at,
    })
}

impl Db {
    /// The user's embedded wallets of `chain_type`, by index.
    pub async fn embedded_wallets(
        &self,
        user_id: &str,
        chain_type: &str,
    ) -> Result<Vec<EmbeddedWalletRecord>, DbError> {
        let rows: Vec<WalletRow> = sqlx::query_as(
            "SELECT id, app_id, user_id, address, chain_type, wallet_index, recovery_method, imported, created_at
             FROM embedded_wallets WHERE user_id = $1 AND chain_type = $2 ORDER BY wallet_index",
        )
        .bind(user_id)
        .bind(chain_type)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().filter_map(wallet).collect())
    }

    /// The embedded wallet of `app_id` at `address` (checksummed), whoever owns it.
    pub async fn find_embedded_wallet(
        &self,
        app_id: &str,
        address: &str,
    ) -> Result<Option<EmbeddedWalletRecord>, DbError> {
        let row: Option<WalletRow> = sqlx::query_as(
            "SELECT id, app_id, user_id, address, chain_type, wallet_index, recovery_method, imported, created_at
             FROM embedded_wallets WHERE app_id = $1 AND address = $2",
        )
        .bind(app_id)
        .bind(address)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.and_then(wallet))
    }

    /// Stores a wallet, its linked account and, for the root wallet, its two share envelopes, in
    /// one transaction, with `events` (`user.wallet_created`). [`DbError::Conflict`] when the
    /// address or the index is taken.
    pub async fn create_embedded_wallet(
        &self,
        wallet: &EmbeddedWalletRecord,
        root_shares: Option<&RootShareEnvelopes>,
        events: &[NewEvent],
    ) -> Result<(), DbError> {
        let mut tx = self.writer().begin().await?;
        sqlx::query(
            "INSERT INTO linked_accounts
               (id, app_id, user_id, account_type, subject, first_verified_at, latest_verified_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $6, $6)",
        )
        .bind(&wallet.id)
        .bind(&wallet.app_id)
        .bind(&wallet.user_id)
        .bind(WALLET_ACCOUNT_TYPE)
        .bind(&wallet.address)
        .bind(wallet.created_at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO embedded_wallets
               (id, app_id, user_id, address, chain_type, wallet_index, recovery_method, imported, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&wallet.id)
        .bind(&wallet.app_id)
        .bind(&wallet.user_id)
        .bind(&wallet.address)
        .bind(&wallet.chain_type)
        .bind(i64::from(wallet.wallet_index))
        .bind(&wallet.recovery_method)
        .bind(i64::from(wallet.imported))
        .bind(wallet.created_at)
        .execute(&mut *tx)
        .await?;
        if let Some(shares) = root_shares {
            for (insert, envelope) in [
                "INSERT INTO wallet_auth_shares (user_id, chain_type, envelope, updated_at, device_public_key) VALUES ($1, $2, $3, $4, $5)",
                "INSERT INTO wallet_recovery_shares (user_id, chain_type, envelope, updated_at) VALUES ($1, $2, $3, $4)",
            ]
            .into_iter()
            .zip([&shares.auth, &shares.recovery])
            {
                let query = sqlx::query(insert)
                    .bind(&wallet.user_id)
                    .bind(&wallet.chain_type)
                    .bind(envelope)
                    .bind(wallet.created_at);
                let query = if insert.contains("device_public_key") {
                    query.bind(shares.device_public_key.as_deref())
                } else {
                    query
                };
                query.execute(&mut *tx).await?;
            }
        }
        let delivered = record_events(&mut tx, events, wallet.created_at).await?;
        self.commit_with_events(tx, delivered).await
    }

    /// The user's root auth-share envelope for `chain_type` and the device key that unlocks it.
    /// Read apart from the recovery envelope (migration 0002): an unlock never reads both.
    pub async fn auth_share_envelope(
        &self,
        user_id: &str,
        chain_type: &str,
    ) -> Result<Option<(String, Option<String>)>, DbError> {
        Ok(sqlx::query_as(
            "SELECT envelope, device_public_key FROM wallet_auth_shares
             WHERE user_id = $1 AND chain_type = $2",
        )
        .bind(user_id)
        .bind(chain_type)
        .fetch_optional(self.pool())
        .await?)
    }

    /// The user's root recovery-share envelope for `chain_type` (read only for a recovery).
    pub async fn recovery_share_envelope(
        &self,
        user_id: &str,
        chain_type: &str,
    ) -> Result<Option<String>, DbError> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT envelope FROM wallet_recovery_shares WHERE user_id = $1 AND chain_type = $2",
        )
        .bind(user_id)
        .bind(chain_type)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|(envelope,)| envelope))
    }

    /// Replaces both root share envelopes and the device key in one transaction, first copying
    /// the current ones into `wallet_share_history` (under `history_id`). False (nothing
    /// changed) when the user has no stored shares for `chain_type`.
    pub async fn replace_root_shares(
        &self,
        user_id: &str,
        chain_type: &str,
        shares: &RootShareEnvelopes,
        history_id: &str,
        session_id: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.writer().begin().await?;
        let kept = sqlx::query(
            "INSERT INTO wallet_share_history
               (id, user_id, chain_type, auth_envelope, recovery_envelope, device_public_key, replaced_at, replaced_by_session)
             SELECT $1, a.user_id, a.chain_type, a.envelope, r.envelope, a.device_public_key, $4, $5
             FROM wallet_auth_shares a
             JOIN wallet_recovery_shares r ON r.user_id = a.user_id AND r.chain_type = a.chain_type
             WHERE a.user_id = $2 AND a.chain_type = $3",
        )
        .bind(history_id)
        .bind(user_id)
        .bind(chain_type)
        .bind(now)
        .bind(session_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let auth = sqlx::query(
            "UPDATE wallet_auth_shares SET envelope = $3, device_public_key = $4, updated_at = $5
             WHERE user_id = $1 AND chain_type = $2",
        )
        .bind(user_id)
        .bind(chain_type)
        .bind(&shares.auth)
        .bind(shares.device_public_key.as_deref())
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let recovery = sqlx::query(
            "UPDATE wallet_recovery_shares SET envelope = $3, updated_at = $4
             WHERE user_id = $1 AND chain_type = $2",
        )
        .bind(user_id)
        .bind(chain_type)
        .bind(&shares.recovery)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if kept != 1 || auth != 1 || recovery != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores a challenge (a `challenges` row without an app: its user and session name it).
    pub async fn insert_wallet_challenge(
        &self,
        challenge: &WalletChallengeRecord,
        now: i64,
    ) -> Result<(), DbError> {
        let issued = NewChallenge {
            kind: ChallengeKind::WalletChallenge,
            key_hash: &challenge.nonce_hash,
            app_id: "",
            scope: &scope(&[
                &challenge.user_id,
                &challenge.session_id,
                &challenge.purpose,
            ]),
            payload: "{}",
            expires_at: challenge.expires_at,
        };
        self.issue_challenge(&issued, now).await
    }

    /// Consumes the challenge with this nonce hash if it was issued to this user, session and
    /// purpose and has not expired: one conditional DELETE, so of concurrent uses exactly one
    /// gets true. A challenge is gone after any attempt to use it, right or wrong.
    pub async fn consume_wallet_challenge(
        &self,
        nonce_hash: &str,
        user_id: &str,
        session_id: &str,
        purpose: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let taken = self
            .take_challenge(
                ChallengeKind::WalletChallenge,
                nonce_hash,
                "",
                &scope(&[user_id, session_id, purpose]),
                now,
            )
            .await?;
        Ok(taken.is_some())
    }

    /// Counts one call of `limit.action` by the user; false when that passes `limit.max` in the
    /// current window. One upsert, so concurrent calls are counted exactly.
    pub async fn hit_wallet_limit(
        &self,
        user_id: &str,
        limit: WalletLimit,
        now: i64,
    ) -> Result<bool, DbError> {
        let hits = bump_limit(self.writer(), user_id, limit, now).await?;
        Ok(hits <= limit.max)
    }

    /// Gives the recovery share to session `session_id` of `user_id` if the session was created
    /// after `fresh_after` and has not recovered yet, and the user is under `cap`. The session's
    /// allowance is taken with one conditional UPDATE; both changes (and `events`,
    /// `wallet.recovered`) commit together or not at all.
    pub async fn take_recovery(
        &self,
        user_id: &str,
        session_id: &str,
        fresh_after: i64,
        cap: WalletLimit,
        now: i64,
        events: &[NewEvent],
    ) -> Result<RecoveryGrant, DbError> {
        let mut tx = self.writer().begin().await?;
        let taken = sqlx::query(
            "UPDATE sessions SET recovery_used_at = $2
             WHERE id = $1 AND user_id = $3 AND recovery_used_at IS NULL AND revoked_at IS NULL AND fresh_since > $4",
        )
        .bind(session_id)
        .bind(now)
        .bind(user_id)
        .bind(fresh_after)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if taken != 1 {
            tx.rollback().await?;
            return Ok(RecoveryGrant::SessionNotFresh);
        }
        if bump_limit(&mut *tx, user_id, cap, now).await? > cap.max {
            tx.rollback().await?;
            return Ok(RecoveryGrant::CapReached);
        }
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(RecoveryGrant::Granted)
    }

    /// When session `session_id` was given the recovery share, if ever.
    pub async fn session_recovered_at(&self, session_id: &str) -> Result<Option<i64>, DbError> {
        let row: Option<(Option<i64>,)> =
            sqlx::query_as("SELECT recovery_used_at FROM sessions WHERE id = $1")
                .bind(session_id)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.and_then(|(at,)| at))
    }
}

/// The window's hit count after counting one more call (a new window starts at 1).
async fn bump_limit<'e, E>(
    executor: E,
    user_id: &str,
    limit: WalletLimit,
    now: i64,
) -> Result<i64, DbError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let (hits,): (i64,) = sqlx::query_as(
        "INSERT INTO wallet_limits (user_id, action, window_start, hits) VALUES ($1, $2, $3, 1)
         ON CONFLICT (user_id, action) DO UPDATE SET
           hits = CASE WHEN wallet_limits.window_start <= $4 THEN 1 ELSE wallet_limits.hits + 1 END,
           window_start = CASE WHEN wallet_limits.window_start <= $4 THEN $3 ELSE wallet_limits.window_start END
         RETURNING hits",
    )
    .bind(user_id)
    .bind(limit.action)
    .bind(now)
    .bind(now - limit.window)
    .fetch_one(executor)
    .await?;
    Ok(hits)
}

impl LinkedAccountRecord {
    /// Whether this account is an embedded wallet.
    pub fn is_embedded_wallet(&self) -> bool {
        self.account_type == WALLET_ACCOUNT_TYPE && self.wallet.is_some()
    }
}
