//! Delegated wallets (migration 0027): per wallet, the consent sealed to the signer. Nothing here
//! can be opened by the server.

use super::{Db, DbError};

/// The `SELECT … FROM` of [`ListedRow`].
macro_rules! select_listed_wallet {
    () => {
        "SELECT w.id, w.app_id, w.user_id, w.address, w.chain_type, w.wallet_index,
                w.recovery_method, w.imported, w.created_at, d.signer_ids
         FROM embedded_wallets w LEFT JOIN delegations d ON d.wallet_id = w.id"
    };
}

/// A wallet's delegation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegationRecord {
    /// The wallet (its linked-account id).
    pub wallet_id: String,
    /// The app.
    pub app_id: String,
    /// The user.
    pub user_id: String,
    /// The wallet's address.
    pub address: String,
    /// The consent's id (the signer's).
    pub consent_id: String,
    /// HPKE encapsulated key, base64.
    pub encapsulated_key: String,
    /// HPKE ciphertext, base64.
    pub ciphertext: String,
    /// The consented key quorums' ids, a JSON array.
    pub signer_ids: String,
    /// Unix seconds.
    pub created_at: i64,
}

type Row = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
);

fn record(row: Row) -> DelegationRecord {
    let (
        wallet_id,
        app_id,
        user_id,
        address,
        consent_id,
        encapsulated_key,
        ciphertext,
        signer_ids,
        created_at,
    ) = row;
    DelegationRecord {
        wallet_id,
        app_id,
        user_id,
        address,
        consent_id,
        encapsulated_key,
        ciphertext,
        signer_ids,
        created_at,
    }
}

impl Db {
    /// Stores `delegation`, replacing the wallet's earlier one; returns the replaced consent's id
    /// (for the signer to refuse from now on).
    pub async fn put_delegation(
        &self,
        delegation: &DelegationRecord,
    ) -> Result<Option<String>, DbError> {
        let mut tx = self.writer().begin().await?;
        let replaced: Option<(String,)> =
            sqlx::query_as("SELECT consent_id FROM delegations WHERE wallet_id = $1")
                .bind(&delegation.wallet_id)
                .fetch_optional(&mut *tx)
                .await?;
        sqlx::query("DELETE FROM delegations WHERE wallet_id = $1")
            .bind(&delegation.wallet_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO delegations (wallet_id, app_id, user_id, address, consent_id, encapsulated_key, ciphertext, signer_ids, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&delegation.wallet_id)
        .bind(&delegation.app_id)
        .bind(&delegation.user_id)
        .bind(&delegation.address)
        .bind(&delegation.consent_id)
        .bind(&delegation.encapsulated_key)
        .bind(&delegation.ciphertext)
        .bind(&delegation.signer_ids)
        .bind(delegation.created_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(replaced
            .map(|(id,)| id)
            .filter(|id| *id != delegation.consent_id))
    }

    /// `app_id`'s wallet `wallet_id`'s delegation.
    pub async fn find_delegation(
        &self,
        app_id: &str,
        wallet_id: &str,
    ) -> Result<Option<DelegationRecord>, DbError> {
        let row: Option<Row> = sqlx::query_as(
            "SELECT wallet_id, app_id, user_id, address, consent_id, encapsulated_key, ciphertext, signer_ids, created_at
             FROM delegations WHERE app_id = $1 AND wallet_id = $2",
        )
        .bind(app_id)
        .bind(wallet_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(record))
    }

    /// The ids of `user_id`'s delegated wallets.
    pub async fn delegated_wallet_ids(&self, user_id: &str) -> Result<Vec<String>, DbError> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT wallet_id FROM delegations WHERE user_id = $1")
                .bind(user_id)
                .fetch_all(self.pool())
                .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Deletes every delegation of `user_id` in `app_id` (one statement); returns their
    /// `(consent_id, address)`.
    pub async fn delete_delegations_of_user(
        &self,
        app_id: &str,
        user_id: &str,
    ) -> Result<Vec<(String, String)>, DbError> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "DELETE FROM delegations WHERE app_id = $1 AND user_id = $2 RETURNING consent_id, address",
        )
        .bind(app_id)
        .bind(user_id)
        .fetch_all(self.writer())
        .await?;
        Ok(rows)
    }
}

/// A wallet as the wallet API lists it: the wallet and, when delegated, its signers' ids (JSON).
pub type ListedWallet = (crate::db::wallets::EmbeddedWalletRecord, Option<String>);

/// Filters of the wallet list.
#[derive(Debug, Clone, Default)]
pub struct WalletFilter {
    /// Only this user's.
    pub user_id: Option<String>,
    /// Only this chain's.
    pub chain_type: Option<String>,
    /// Only this address (checksummed).
    pub address: Option<String>,
}

impl Db {
    /// Up to `limit` embedded wallets of `app_id` whose id sorts after `after`, by id, with their
    /// delegations' signers.
    pub async fn list_wallets(
        &self,
        app_id: &str,
        filter: &WalletFilter,
        after: Option<&str>,
        limit: u32,
    ) -> Result<Vec<ListedWallet>, DbError> {
        let rows: Vec<ListedRow> = sqlx::query_as(concat!(
            select_listed_wallet!(),
            " WHERE w.app_id = $1 AND w.id > $2
               AND ($3 = '' OR w.user_id = $3)
               AND ($4 = '' OR w.chain_type = $4)
               AND ($5 = '' OR w.address = $5)
             ORDER BY w.id LIMIT $6"
        ))
        .bind(app_id)
        .bind(after.unwrap_or(""))
        .bind(filter.user_id.as_deref().unwrap_or(""))
        .bind(filter.chain_type.as_deref().unwrap_or(""))
        .bind(filter.address.as_deref().unwrap_or(""))
        .bind(i64::from(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().filter_map(listed).collect())
    }

    /// The app's wallet `wallet_id`, with its delegation's signers.
    pub async fn find_listed_wallet(
        &self,
        app_id: &str,
        wallet_id: &str,
    ) -> Result<Option<ListedWallet>, DbError> {
        let row: Option<ListedRow> = sqlx::query_as(concat!(
            select_listed_wallet!(),
            " WHERE w.app_id = $1 AND w.id = $2"
        ))
        .bind(app_id)
        .bind(wallet_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.and_then(listed))
    }
}

/// A wallet row joined with its delegation's signers.
type ListedRow = (
    String,
    String,
    String,
    String,
    String,
    i64,
    String,
    i64,
    i64,
    Option<String>,
);

fn listed(row: ListedRow) -> Option<ListedWallet> {
    let (
        id,
        app_id,
        user_id,
        address,
        chain_type,
        index,
        recovery_method,
        imported,
        created_at,
        signers,
    ) = row;
    let wallet = super::wallets::wallet((
        id,
        app_id,
        user_id,
        address,
        chain_type,
        index,
        recovery_method,
        imported,
        created_at,
    ))?;
    Some((wallet, signers))
}
