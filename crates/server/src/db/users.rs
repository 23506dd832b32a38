//! Users and their linked accounts.

use super::webhooks::{NewEvent, record_events};
use super::{Db, DbError};
use sqlx::{FromRow, Row};

/// A user as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    /// `did:privy:…`.
    pub id: String,
    /// The app the user belongs to.
    pub app_id: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Whether the user accepted the app's terms.
    pub has_accepted_terms: bool,
    /// Guest users.
    pub is_guest: bool,
    /// The host's custom metadata, a JSON object as stored.
    pub custom_metadata: Option<String>,
}

/// A linked account as stored; `subject` is normalised (emails trimmed and lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedAccountRecord {
    /// The account's id (an embedded wallet's id).
    pub id: String,
    /// `email`, `wallet`, …
    pub account_type: String,
    /// The normalised identifier.
    pub subject: String,
    /// Unix seconds.
    pub first_verified_at: i64,
    /// Unix seconds.
    pub latest_verified_at: i64,
    /// Set when the account is an embedded wallet.
    pub wallet: Option<EmbeddedWalletFields>,
    /// What the method stored beyond the subject (JSON; OAuth names, cross-app wallets).
    pub details: Option<String>,
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
    /// Delegated to the app's signers (a row in `delegations`).
    pub delegated: bool,
}

impl EmbeddedWalletFields {
    /// From the nullable columns of a `LEFT JOIN embedded_wallets` (all set or none).
    pub fn from_columns(
        chain_type: Option<String>,
        wallet_index: Option<i64>,
        recovery_method: Option<String>,
        imported: Option<i64>,
        delegated_at: Option<i64>,
    ) -> Option<Self> {
        Some(Self {
            chain_type: chain_type?,
            wallet_index: u32::try_from(wallet_index?).ok()?,
            recovery_method: recovery_method?,
            imported: imported? != 0,
            delegated: delegated_at.is_some(),
        })
    }
}

type UserRow = (String, String, i64, i64, i64, Option<String>);

/// A linked account joined with its embedded-wallet columns (null for other accounts).
type AccountRow = (
    String,
    String,
    String,
    i64,
    i64,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<String>,
);

fn account(row: AccountRow) -> LinkedAccountRecord {
    let (
        id,
        account_type,
        subject,
        first,
        latest,
        chain,
        index,
        recovery,
        imported,
        delegated,
        details,
    ) = row;
    LinkedAccountRecord {
        id,
        account_type,
        subject,
        first_verified_at: first,
        latest_verified_at: latest,
        wallet: EmbeddedWalletFields::from_columns(chain, index, recovery, imported, delegated),
        details,
    }
}

/// `SELECT` of an account's columns in `AccountRow`'s order, then its owner's id, and `$rest`
/// (joining `linked_accounts a` and `embedded_wallets w`).
macro_rules! select_owned_account {
    ($rest:literal) => {
        concat!(
            "SELECT a.id, a.account_type, a.subject, a.first_verified_at, a.latest_verified_at,
                    w.chain_type, w.wallet_index, w.recovery_method, w.imported, d.created_at,
                    a.details, a.user_id ",
            $rest
        )
    };
}

/// A row of [`select_owned_account!`]: the owner's id and the account.
fn owned_account(row: &sqlx::any::AnyRow) -> Result<(String, LinkedAccountRecord), DbError> {
    let user_id: String = row.try_get(11)?;
    Ok((user_id, account(AccountRow::from_row(row)?)))
}

fn user(row: UserRow) -> UserRecord {
    let (id, app_id, created_at, has_accepted_terms, is_guest, custom_metadata) = row;
    UserRecord {
        id,
        app_id,
        created_at,
        has_accepted_terms: has_accepted_terms != 0,
        is_guest: is_guest != 0,
        custom_metadata,
    }
}

impl Db {
    /// The user of `app_id` that owns the account `(account_type, subject)`.
    pub async fn find_user_by_account(
        &self,
        app_id: &str,
        account_type: &str,
        subject: &str,
    ) -> Result<Option<UserRecord>, DbError> {
        let row: Option<UserRow> = sqlx::query_as(
            "SELECT u.id, u.app_id, u.created_at, u.has_accepted_terms, u.is_guest, u.custom_metadata
             FROM users u JOIN linked_accounts a ON a.user_id = u.id
             WHERE a.app_id = $1 AND a.account_type = $2 AND a.subject = $3",
        )
        .bind(app_id)
        .bind(account_type)
        .bind(subject)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(user))
    }

    /// The user of `app_id` whose `account_type` account has `username` in its details (any case):
    /// the provider handles (`twitter_oauth`, `discord_oauth`, `github_oauth`, `telegram`). A scan
    /// of the app's accounts of that type (no index on a JSON field): fine for a back-end lookup.
    pub async fn find_user_by_username(
        &self,
        app_id: &str,
        account_type: &str,
        username: &str,
    ) -> Result<Option<UserRecord>, DbError> {
        let sql = if self.is_postgres() {
            "SELECT u.id, u.app_id, u.created_at, u.has_accepted_terms, u.is_guest, u.custom_metadata
             FROM users u JOIN linked_accounts a ON a.user_id = u.id
             WHERE a.app_id = $1 AND a.account_type = $2
               AND LOWER(a.details::json ->> 'username') = LOWER($3)
             ORDER BY a.created_at LIMIT 1"
        } else {
            "SELECT u.id, u.app_id, u.created_at, u.has_accepted_terms, u.is_guest, u.custom_metadata
             FROM users u JOIN linked_accounts a ON a.user_id = u.id
             WHERE a.app_id = $1 AND a.account_type = $2
               AND LOWER(json_extract(a.details, '$.username')) = LOWER($3)
             ORDER BY a.created_at LIMIT 1"
        };
        let row: Option<UserRow> = sqlx::query_as(sql)
            .bind(app_id)
            .bind(account_type)
            .bind(username)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(user))
    }

    /// The oldest user of `app_id` with an account whose identifier (email, phone number, wallet
    /// address, custom-auth id, provider subject) is `term` in any case, else contains it (when
    /// `substring`). A scan of the app's accounts: a back-office search, not a hot path.
    pub async fn search_user_by_account(
        &self,
        app_id: &str,
        term: &str,
        substring: bool,
    ) -> Result<Option<UserRecord>, DbError> {
        let exact = term.to_lowercase();
        let escaped: String = exact
            .chars()
            .flat_map(|c| match c {
                '%' | '_' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        let pattern = if substring {
            format!("%{escaped}%")
        } else {
            escaped
        };
        let row: Option<UserRow> = sqlx::query_as(
            "SELECT u.id, u.app_id, u.created_at, u.has_accepted_terms, u.is_guest, u.custom_metadata
             FROM users u JOIN linked_accounts a ON a.user_id = u.id
             WHERE a.app_id = $1 AND LOWER(a.subject) LIKE $3 ESCAPE '\\'
             ORDER BY CASE WHEN LOWER(a.subject) = $2 THEN 0 ELSE 1 END, u.created_at, u.id
             LIMIT 1",
        )
        .bind(app_id)
        .bind(&exact)
        .bind(&pattern)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(user))
    }

    /// Whether any app has a user with this id (ids are unique across the server).
    pub async fn user_exists(&self, user_id: &str) -> Result<bool, DbError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT id FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.is_some())
    }

    /// The user with this id in this app.
    pub async fn find_user(
        &self,
        app_id: &str,
        user_id: &str,
    ) -> Result<Option<UserRecord>, DbError> {
        let row: Option<UserRow> = sqlx::query_as(
            "SELECT id, app_id, created_at, has_accepted_terms, is_guest, custom_metadata FROM users WHERE app_id = $1 AND id = $2",
        )
        .bind(app_id)
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(user))
    }

    /// Records a fresh verification of an account, with what its method told this time
    /// (`details`: an OAuth provider's current name and email, a provider app's wallets), and
    /// `events` (a login's `user.authenticated`).
    pub async fn touch_account(
        &self,
        app_id: &str,
        account_type: &str,
        subject: &str,
        details: Option<&str>,
        now: i64,
        events: &[NewEvent],
    ) -> Result<(), DbError> {
        let mut tx = self.writer().begin().await?;
        // New details (what an OAuth provider tells now) replace the old; none keeps them.
        sqlx::query(
            "UPDATE linked_accounts SET latest_verified_at = $4, details = COALESCE($5, details)
             WHERE app_id = $1 AND account_type = $2 AND subject = $3",
        )
        .bind(app_id)
        .bind(account_type)
        .bind(subject)
        .bind(now)
        .bind(details)
        .execute(&mut *tx)
        .await?;
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await
    }

    /// The account `(account_type, subject)` of `app_id` and its owner's id.
    pub async fn find_linked_account(
        &self,
        app_id: &str,
        account_type: &str,
        subject: &str,
    ) -> Result<Option<(String, LinkedAccountRecord)>, DbError> {
        let row = sqlx::query(select_owned_account!(
            "FROM linked_accounts a LEFT JOIN embedded_wallets w ON w.id = a.id
             LEFT JOIN delegations d ON d.wallet_id = w.id
             WHERE a.app_id = $1 AND a.account_type = $2 AND a.subject = $3"
        ))
        .bind(app_id)
        .bind(account_type)
        .bind(subject)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(owned_account).transpose()
    }

    /// Every account of the user, oldest first. Created in the same second, the account the
    /// user signed in with comes before their wallets, and wallets follow their index.
    pub async fn linked_accounts(
        &self,
        user_id: &str,
    ) -> Result<Vec<LinkedAccountRecord>, DbError> {
        let rows: Vec<AccountRow> = sqlx::query_as(
            "SELECT a.id, a.account_type, a.subject, a.first_verified_at, a.latest_verified_at,
                    w.chain_type, w.wallet_index, w.recovery_method, w.imported, d.created_at, a.details
             FROM linked_accounts a LEFT JOIN embedded_wallets w ON w.id = a.id
             LEFT JOIN delegations d ON d.wallet_id = w.id
             WHERE a.user_id = $1 ORDER BY a.created_at, COALESCE(w.wallet_index, -1), a.id",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().map(account).collect())
    }

    /// Up to `limit` users of `app_id` whose id sorts after `after`, by id (the `/v1` list's pages:
    /// an id cursor stays right while users are added or removed).
    pub async fn list_users(
        &self,
        app_id: &str,
        after: Option<&str>,
        limit: u32,
    ) -> Result<Vec<UserRecord>, DbError> {
        let rows: Vec<UserRow> = sqlx::query_as(
            "SELECT id, app_id, created_at, has_accepted_terms, is_guest, custom_metadata FROM users
             WHERE app_id = $1 AND id > $2 ORDER BY id LIMIT $3",
        )
        .bind(app_id)
        .bind(after.unwrap_or(""))
        .bind(i64::from(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().map(user).collect())
    }

    /// The accounts of `app_id`'s users whose ids sort in `(after, last]` (one page of
    /// [`Self::list_users`]), each with its user's id, in each user's order: one query per page
    /// instead of one per user.
    pub async fn linked_accounts_of_id_range(
        &self,
        app_id: &str,
        after: Option<&str>,
        last: &str,
    ) -> Result<Vec<(String, LinkedAccountRecord)>, DbError> {
        let rows = sqlx::query(select_owned_account!(
            "FROM users u JOIN linked_accounts a ON a.user_id = u.id
                  LEFT JOIN embedded_wallets w ON w.id = a.id
             LEFT JOIN delegations d ON d.wallet_id = w.id
             WHERE u.app_id = $1 AND u.id > $2 AND u.id <= $3
             ORDER BY a.user_id, a.created_at, COALESCE(w.wallet_index, -1), a.id"
        ))
        .bind(app_id)
        .bind(after.unwrap_or(""))
        .bind(last)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(owned_account).collect()
    }

    /// Deletes the user of `app_id` and, by the foreign keys' cascades, everything of theirs:
    /// accounts, sessions and refresh tokens, second factors, wallets and their shares, with
    /// `events` (`user.deleted`). False when the app has no such user.
    pub async fn delete_user(
        &self,
        app_id: &str,
        user_id: &str,
        events: &[NewEvent],
        now: i64,
    ) -> Result<bool, DbError> {
        let mut tx = self.writer().begin().await?;
        let deleted = sqlx::query("DELETE FROM users WHERE app_id = $1 AND id = $2")
            .bind(app_id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if deleted {
            sqlx::query("UPDATE apps SET user_count = user_count - 1 WHERE id = $1")
                .bind(app_id)
                .execute(&mut *tx)
                .await?;
        }
        let delivered = deleted && record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(deleted)
    }

    /// Replaces the custom metadata (a JSON object) of the user of `app_id`; false when the app
    /// has no such user.
    pub async fn set_custom_metadata(
        &self,
        app_id: &str,
        user_id: &str,
        metadata: &str,
    ) -> Result<bool, DbError> {
        let done =
            sqlx::query("UPDATE users SET custom_metadata = $3 WHERE app_id = $1 AND id = $2")
                .bind(app_id)
                .bind(user_id)
                .bind(metadata)
                .execute(self.writer())
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks the terms as accepted.
    pub async fn accept_terms(&self, user_id: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE users SET has_accepted_terms = $2 WHERE id = $1")
            .bind(user_id)
            .bind(1i64)
            .execute(self.writer())
            .await?;
        Ok(())
    }
}
