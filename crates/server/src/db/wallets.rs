//! Embedded wallets and the user's root shares (envelopes only; see `wallets::share_vault`).

use super::users::LinkedAccountRecord;
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

/// What a linked account row carries when it is an embedded wallet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedWalletFields {
    /// `ethereum`.
    pub chain_type: String,
    /// BIP-32 index.
    pub wallet_index: u32,
    /// `privy`.
    pub recovery_method: String,
    /// Imported key.
    pub imported: bool,
}

impl EmbeddedWalletFields {
    /// From the nullable columns of a `LEFT JOIN embedded_wallets` (all set or none).
    pub fn from_columns(
        chain_type: Option<String>,
        wallet_index: Option<i64>,
        recovery_method: Option<String>,
        imported: Option<i64>,
    ) -> Option<Self> {
        Some(Self {
            chain_type: chain_type?,
            wallet_index: u32::try_from(wallet_index?).ok()?,
            recovery_method: recovery_method?,
            imported: imported? != 0,
        })
    }
}

/// The root share envelopes of one user and chain type (base64 text as stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootShareEnvelopes {
    /// Under the auth-share key.
    pub auth: String,
    /// Under the recovery key.
    pub recovery: String,
}

type WalletRow = (
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

fn wallet(row: WalletRow) -> Option<EmbeddedWalletRecord> {
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
    /// one transaction. [`DbError::Conflict`] when the address or the index is taken.
    pub async fn create_embedded_wallet(
        &self,
        wallet: &EmbeddedWalletRecord,
        root_shares: Option<&RootShareEnvelopes>,
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
                "INSERT INTO wallet_auth_shares (user_id, chain_type, envelope, updated_at) VALUES ($1, $2, $3, $4)",
                "INSERT INTO wallet_recovery_shares (user_id, chain_type, envelope, updated_at) VALUES ($1, $2, $3, $4)",
            ]
            .into_iter()
            .zip([&shares.auth, &shares.recovery])
            {
                sqlx::query(insert)
                .bind(&wallet.user_id)
                .bind(&wallet.chain_type)
                .bind(envelope)
                .bind(wallet.created_at)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// The user's root share envelopes for `chain_type`, if both are stored.
    pub async fn root_share_envelopes(
        &self,
        user_id: &str,
        chain_type: &str,
    ) -> Result<Option<RootShareEnvelopes>, DbError> {
        let row: Option<(String, String)> = sqlx::query_as(
            "SELECT a.envelope, r.envelope FROM wallet_auth_shares a
             JOIN wallet_recovery_shares r ON r.user_id = a.user_id AND r.chain_type = a.chain_type
             WHERE a.user_id = $1 AND a.chain_type = $2",
        )
        .bind(user_id)
        .bind(chain_type)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|(auth, recovery)| RootShareEnvelopes { auth, recovery }))
    }

    /// Replaces both root share envelopes in one transaction. False (nothing changed) when the
    /// user has no stored shares for `chain_type`.
    pub async fn replace_root_shares(
        &self,
        user_id: &str,
        chain_type: &str,
        shares: &RootShareEnvelopes,
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.writer().begin().await?;
        let mut updated = 0;
        for (update, envelope) in [
            "UPDATE wallet_auth_shares SET envelope = $3, updated_at = $4 WHERE user_id = $1 AND chain_type = $2",
            "UPDATE wallet_recovery_shares SET envelope = $3, updated_at = $4 WHERE user_id = $1 AND chain_type = $2",
        ]
        .into_iter()
        .zip([&shares.auth, &shares.recovery])
        {
            updated += sqlx::query(update)
            .bind(user_id)
            .bind(chain_type)
            .bind(envelope)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        if updated != 2 {
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }
}

impl LinkedAccountRecord {
    /// Whether this account is an embedded wallet.
    pub fn is_embedded_wallet(&self) -> bool {
        self.account_type == WALLET_ACCOUNT_TYPE && self.wallet.is_some()
    }
}
