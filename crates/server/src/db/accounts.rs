//! The writes behind the account rules (`crate::accounts`): sign up under the user limit, link
//! under the per-type limit, unlink but never the last way in, replace, and transfer.
//!
//! Each limit is decided inside one transaction that first writes the row it counts against
//! (the app's `user_count`, or the user's own row), so concurrent requests queue on that row
//! (Postgres row lock; SQLite has one writer) and cannot both pass a check that only one may.

use sqlx::Any;
use sqlx::Transaction;

use super::challenges::{ChallengeKind, NewChallenge, scope};
use super::users::UserRecord;
use super::webhooks::{NewEvent, record_events};
use super::{Db, DbError};

/// The linked-account type of a guest credential (its subject is the credential's hash).
pub const GUEST_ACCOUNT_TYPE: &str = "guest";

/// An account to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount<'a> {
    /// Random id.
    pub id: &'a str,
    /// `email`, `phone`, `custom_auth`, `guest`, …
    pub account_type: &'a str,
    /// The normalised identifier.
    pub subject: &'a str,
    /// What the method knows beyond the subject, JSON.
    pub details: Option<&'a str>,
}

/// How a sign-up ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignUp {
    /// The user and its account exist.
    Created,
    /// The app has as many users as its limit allows.
    UserLimitReached,
}

/// How a link ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// The account is the user's.
    Linked,
    /// The user already has as many accounts of this type as allowed.
    TypeLimitReached,
}

/// How an unlink ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unlink {
    /// Removed.
    Unlinked,
    /// The user has no such account.
    NotFound,
    /// It is the user's only way in.
    SoleAccount,
}

/// How a transfer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    /// The account moved; `owner_deleted` when its former owner had nothing left and was removed.
    Moved {
        /// The former owner had no other account and no wallet and was deleted.
        owner_deleted: bool,
    },
    /// The receiving user already has as many accounts of this type as allowed.
    TypeLimitReached,
    /// Moving it would strand its owner's embedded wallets (no other way in).
    WouldStrandWallets,
    /// The account no longer exists or already belongs to the receiver.
    Gone,
}

/// Accounts of `$1` a person can sign in with: every account but embedded wallets and smart
/// wallets (linked with `/siwe/link_smart_wallet`; no login method proves that type).
pub(super) const WAYS_IN: &str = "SELECT COUNT(*) FROM linked_accounts a WHERE a.user_id = $1
     AND a.account_type <> 'smart_wallet'
     AND NOT EXISTS (SELECT 1 FROM embedded_wallets w WHERE w.id = a.id)";

impl Db {
    /// Creates a user with one verified account and no user limit (see [`Db::sign_up`]).
    /// [`DbError::Conflict`] when the account was linked concurrently.
    pub async fn create_user_with_account(
        &self,
        new_user: &UserRecord,
        account_id: &str,
        account_type: &str,
        subject: &str,
    ) -> Result<(), DbError> {
        let account = NewAccount {
            id: account_id,
            account_type,
            subject,
            details: None,
        };
        self.sign_up(new_user, std::slice::from_ref(&account), None, &[])
            .await
            .map(|_| ())
    }

    /// Creates `user` with `accounts` (a login's one, or an import's several), unless the app
    /// already has `max_users` users, with `events`. [`DbError::Conflict`] when an account is
    /// taken, concurrently or before (nothing is written).
    pub async fn sign_up(
        &self,
        user: &UserRecord,
        accounts: &[NewAccount<'_>],
        max_users: Option<u64>,
        events: &[NewEvent],
    ) -> Result<SignUp, DbError> {
        let mut tx = self.writer().begin().await?;
        let limit = max_users.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
        let counted = sqlx::query(
            "UPDATE apps SET user_count = user_count + 1 WHERE id = $1 AND ($2 < 0 OR user_count < $2)",
        )
        .bind(&user.app_id)
        .bind(limit)
        .execute(&mut *tx)
        .await?;
        if counted.rows_affected() == 0 {
            return Ok(SignUp::UserLimitReached);
        }
        sqlx::query(
            "INSERT INTO users (id, app_id, created_at, has_accepted_terms, is_guest, custom_metadata)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&user.id)
        .bind(&user.app_id)
        .bind(user.created_at)
        .bind(i64::from(user.has_accepted_terms))
        .bind(i64::from(user.is_guest))
        .bind(user.custom_metadata.as_deref())
        .execute(&mut *tx)
        .await?;
        for account in accounts {
            insert_account(&mut tx, &user.app_id, &user.id, account, user.created_at).await?;
        }
        let delivered = record_events(&mut tx, events, user.created_at).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(SignUp::Created)
    }

    /// Links `account` to `user_id` unless the user has `max_of_type` of its type already.
    /// With `clear_guest`, the user stops being a guest in the same transaction (a guest's first
    /// real login) and their guest credential stops being a way in: kept, it would be a hidden
    /// password in the host page's storage. [`DbError::Conflict`] when another user owns the
    /// account.
    #[allow(clippy::too_many_arguments)]
    pub async fn link_account(
        &self,
        app_id: &str,
        user_id: &str,
        account: &NewAccount<'_>,
        max_of_type: i64,
        clear_guest: bool,
        now: i64,
        events: &[NewEvent],
    ) -> Result<Link, DbError> {
        let mut tx = self.writer().begin().await?;
        lock_user(&mut tx, user_id).await?;
        if count_of_type(&mut tx, user_id, account.account_type).await? >= max_of_type {
            return Ok(Link::TypeLimitReached);
        }
        insert_account(&mut tx, app_id, user_id, account, now).await?;
        if clear_guest {
            sqlx::query("UPDATE users SET is_guest = 0 WHERE id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM linked_accounts WHERE user_id = $1 AND account_type = $2")
                .bind(user_id)
                .bind(GUEST_ACCOUNT_TYPE)
                .execute(&mut *tx)
                .await?;
        }
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(Link::Linked)
    }

    /// Removes the user's `(account_type, subject)` unless it is their last way in; `events`
    /// with it.
    pub async fn unlink_account(
        &self,
        user_id: &str,
        account_type: &str,
        subject: &str,
        events: &[NewEvent],
        now: i64,
    ) -> Result<Unlink, DbError> {
        let mut tx = self.writer().begin().await?;
        lock_user(&mut tx, user_id).await?;
        let (ways_in,): (i64,) = sqlx::query_as(WAYS_IN)
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
        if ways_in <= 1 {
            let owned = sqlx::query_as::<_, (String,)>(
                "SELECT id FROM linked_accounts WHERE user_id = $1 AND account_type = $2 AND subject = $3",
            )
            .bind(user_id)
            .bind(account_type)
            .bind(subject)
            .fetch_optional(&mut *tx)
            .await?;
            return Ok(if owned.is_some() {
                Unlink::SoleAccount
            } else {
                Unlink::NotFound
            });
        }
        let deleted = sqlx::query(
            "DELETE FROM linked_accounts WHERE user_id = $1 AND account_type = $2 AND subject = $3",
        )
        .bind(user_id)
        .bind(account_type)
        .bind(subject)
        .execute(&mut *tx)
        .await?;
        if deleted.rows_affected() == 0 {
            return Ok(Unlink::NotFound);
        }
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(Unlink::Unlinked)
    }

    /// Replaces the user's `(account_type, old)` by `new`, verified now, with `events`. `false`
    /// when the user has no such account; [`DbError::Conflict`] when another user owns `new`.
    pub async fn replace_account(
        &self,
        user_id: &str,
        account_type: &str,
        old: &str,
        new: &str,
        now: i64,
        events: &[NewEvent],
    ) -> Result<bool, DbError> {
        let mut tx = self.writer().begin().await?;
        let updated = sqlx::query(
            "UPDATE linked_accounts SET subject = $4, first_verified_at = $5, latest_verified_at = $5
             WHERE user_id = $1 AND account_type = $2 AND subject = $3",
        )
        .bind(user_id)
        .bind(account_type)
        .bind(old)
        .bind(new)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Ok(false);
        }
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(true)
    }

    /// Stores a transfer offer for `to_user_id` (only the nonce's hash).
    #[allow(clippy::too_many_arguments)]
    pub async fn offer_transfer(
        &self,
        nonce_hash: &str,
        app_id: &str,
        account_type: &str,
        subject: &str,
        to_user_id: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), DbError> {
        let offer = NewChallenge {
            kind: ChallengeKind::AccountTransfer,
            key_hash: nonce_hash,
            app_id,
            scope: &scope(&[to_user_id, account_type, subject]),
            payload: "{}",
            expires_at,
        };
        self.issue_challenge(&offer, now).await
    }

    /// Uses up the offer `nonce_hash` for exactly this account and receiver: one conditional
    /// delete, so a nonce works once even when presented concurrently.
    pub async fn take_transfer(
        &self,
        nonce_hash: &str,
        app_id: &str,
        account_type: &str,
        subject: &str,
        to_user_id: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let taken = self
            .take_challenge(
                ChallengeKind::AccountTransfer,
                nonce_hash,
                app_id,
                &scope(&[to_user_id, account_type, subject]),
                now,
            )
            .await?;
        Ok(taken.is_some())
    }

    /// Whether the owner of an account would keep a way in, or has no embedded wallet to lose,
    /// if the account moved away. `None` when the account is gone.
    pub async fn transfer_possible(
        &self,
        app_id: &str,
        account_type: &str,
        subject: &str,
    ) -> Result<Option<bool>, DbError> {
        let Some(owner) = account_owner(self.pool(), app_id, account_type, subject).await? else {
            return Ok(None);
        };
        Ok(Some(leaves_no_stranded_wallet(self.pool(), &owner).await?))
    }

    /// Moves `(account_type, subject)` to `to_user_id`. Its former owner is deleted when it has
    /// nothing left; the move is refused when that would strand the owner's embedded wallets.
    /// `moved` is recorded with the move, told who the owner was and whether they went
    /// (`fromUser`, `deletedUser`: known only here).
    #[allow(clippy::too_many_arguments)]
    pub async fn transfer_account(
        &self,
        app_id: &str,
        account_type: &str,
        subject: &str,
        to_user_id: &str,
        max_of_type: i64,
        now: i64,
        moved: NewEvent,
    ) -> Result<Transfer, DbError> {
        let mut tx = self.writer().begin().await?;
        lock_user(&mut tx, to_user_id).await?;
        if count_of_type(&mut tx, to_user_id, account_type).await? >= max_of_type {
            return Ok(Transfer::TypeLimitReached);
        }
        let owner = account_owner(&mut *tx, app_id, account_type, subject).await?;
        let Some(owner) = owner.filter(|owner| owner != to_user_id) else {
            return Ok(Transfer::Gone);
        };
        lock_user(&mut tx, &owner).await?;
        if !leaves_no_stranded_wallet(&mut *tx, &owner).await? {
            return Ok(Transfer::WouldStrandWallets);
        }
        sqlx::query(
            "UPDATE linked_accounts SET user_id = $4, latest_verified_at = $5
             WHERE app_id = $1 AND account_type = $2 AND subject = $3",
        )
        .bind(app_id)
        .bind(account_type)
        .bind(subject)
        .bind(to_user_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let (left,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM linked_accounts WHERE user_id = $1")
                .bind(&owner)
                .fetch_one(&mut *tx)
                .await?;
        let owner_deleted = left == 0;
        if owner_deleted {
            sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(&owner)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE apps SET user_count = user_count - 1 WHERE id = $1")
                .bind(app_id)
                .execute(&mut *tx)
                .await?;
        }
        let moved = moved.with_fields(serde_json::json!({
            "fromUser": { "id": owner },
            "deletedUser": owner_deleted,
        }))?;
        let delivered = record_events(&mut tx, &[moved], now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(Transfer::Moved { owner_deleted })
    }
}

/// Writes the user's own row so concurrent changes to the same user queue behind this one.
pub(super) async fn lock_user(tx: &mut Transaction<'_, Any>, user_id: &str) -> Result<(), DbError> {
    sqlx::query("UPDATE users SET is_guest = is_guest WHERE id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn count_of_type(
    tx: &mut Transaction<'_, Any>,
    user_id: &str,
    account_type: &str,
) -> Result<i64, DbError> {
    let (count,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM linked_accounts WHERE user_id = $1 AND account_type = $2",
    )
    .bind(user_id)
    .bind(account_type)
    .fetch_one(&mut **tx)
    .await?;
    Ok(count)
}

/// The user who owns `(account_type, subject)` in `app_id`, if anyone does.
async fn account_owner<'e, E>(
    executor: E,
    app_id: &str,
    account_type: &str,
    subject: &str,
) -> Result<Option<String>, DbError>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let owner: Option<(String,)> = sqlx::query_as(
        "SELECT user_id FROM linked_accounts WHERE app_id = $1 AND account_type = $2 AND subject = $3",
    )
    .bind(app_id)
    .bind(account_type)
    .bind(subject)
    .fetch_optional(executor)
    .await?;
    Ok(owner.map(|(owner,)| owner))
}

/// True when `owner` has a way in besides the one account being moved, or no embedded wallet.
async fn leaves_no_stranded_wallet<'e, E>(executor: E, owner: &str) -> Result<bool, DbError>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let (ways_in, wallets): (i64, i64) = sqlx::query_as(
        "SELECT
           (SELECT COUNT(*) FROM linked_accounts a WHERE a.user_id = $1
              AND a.account_type <> 'smart_wallet'
              AND NOT EXISTS (SELECT 1 FROM embedded_wallets w WHERE w.id = a.id)),
           (SELECT COUNT(*) FROM embedded_wallets WHERE user_id = $1)",
    )
    .bind(owner)
    .fetch_one(executor)
    .await?;
    Ok(ways_in > 1 || wallets == 0)
}

async fn insert_account(
    tx: &mut Transaction<'_, Any>,
    app_id: &str,
    user_id: &str,
    account: &NewAccount<'_>,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO linked_accounts
           (id, app_id, user_id, account_type, subject, first_verified_at, latest_verified_at, created_at, details)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $6, $7)",
    )
    .bind(account.id)
    .bind(app_id)
    .bind(user_id)
    .bind(account.account_type)
    .bind(account.subject)
    .bind(now)
    .bind(account.details)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
