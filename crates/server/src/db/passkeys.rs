//! Passkeys (migration 0011): WebAuthn challenges, used once (`challenges` rows since 0018), and the passkey accounts' stored
//! credentials.
//!
//! A passkey is a `linked_accounts` row of type `passkey` whose subject is the credential id
//! (base64url). Its `details` JSON holds the credential (public key, sign counter), whether it is
//! enrolled in MFA, and where it was made; it is written with the row and changed only by
//! compare-and-swap ([`Db::swap_passkey_details`]), so a counter can never go back and two uses
//! of one counter value cannot both pass.

use super::account_details::{AccountDetails, PasskeyDetails};
use super::accounts::{WAYS_IN, lock_user};
use super::challenges::{ChallengeKind, NewChallenge, scope};
use super::webhooks::{NewEvent, record_events};
use super::{Db, DbError};

/// The linked-account type of passkeys.
pub const PASSKEY: &str = "passkey";

/// A challenge as issued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyChallenge<'a> {
    /// SHA-256 (hex) of the challenge bytes.
    pub challenge_hash: &'a str,
    /// The app it was issued for.
    pub app_id: &'a str,
    /// `register`, `authenticate`, `link` or `mfa`.
    pub purpose: &'a str,
    /// The user it is bound to (link, MFA); empty for sign-up and login.
    pub user_id: &'a str,
    /// webauthn-rs's ceremony state, JSON.
    pub state: &'a str,
    /// Unix seconds; refused from then on.
    pub expires_at: i64,
}

/// A stored passkey account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPasskey {
    /// The linked account's id.
    pub account_id: String,
    /// Its owner.
    pub user_id: String,
    /// The credential id, base64url.
    pub credential_id: String,
    /// The `details` JSON as stored (compare-and-swap compares against it).
    pub details: String,
}

/// How a passkey unlink ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasskeyUnlink {
    /// Removed.
    Unlinked,
    /// The user has no such passkey.
    NotFound,
    /// It is the user's only way in.
    SoleAccount,
    /// It is enrolled in MFA (unenrol it first).
    EnrolledInMfa,
}

type PasskeyRow = (String, String, String, Option<String>);

fn stored(row: PasskeyRow) -> StoredPasskey {
    let (account_id, user_id, credential_id, details) = row;
    StoredPasskey {
        account_id,
        user_id,
        credential_id,
        details: details.unwrap_or_default(),
    }
}

/// Whether stored `details` say the passkey is enrolled in MFA.
pub fn is_enrolled_in_mfa(details: &str) -> bool {
    PasskeyDetails::read(Some(details)).is_enrolled_in_mfa()
}

/// A query over passkey accounts: the columns of [`PasskeyRow`] and `$rest` of the WHERE clause.
macro_rules! select_passkey {
    ($rest:literal) => {
        concat!(
            "SELECT id, user_id, subject, details FROM linked_accounts WHERE account_type = 'passkey' ",
            $rest
        )
    };
}

impl Db {
    /// Stores a fresh challenge.
    pub async fn insert_passkey_challenge(
        &self,
        challenge: &PasskeyChallenge<'_>,
        now: i64,
    ) -> Result<(), DbError> {
        let issued = NewChallenge {
            kind: ChallengeKind::PasskeyChallenge,
            key_hash: challenge.challenge_hash,
            app_id: challenge.app_id,
            scope: &scope(&[challenge.purpose, challenge.user_id]),
            // The ceremony state is JSON already.
            payload: challenge.state,
            expires_at: challenge.expires_at,
        };
        self.issue_challenge(&issued, now).await
    }

    /// Uses up the live challenge issued for exactly this app, purpose and user (empty: none)
    /// and returns its ceremony state: one conditional `DELETE … RETURNING`, so of concurrent
    /// uses exactly one gets it.
    pub async fn take_passkey_challenge(
        &self,
        challenge_hash: &str,
        app_id: &str,
        purpose: &str,
        user_id: &str,
        now: i64,
    ) -> Result<Option<String>, DbError> {
        let taken = self
            .take_challenge(
                ChallengeKind::PasskeyChallenge,
                challenge_hash,
                app_id,
                &scope(&[purpose, user_id]),
                now,
            )
            .await?;
        Ok(taken.map(|c| c.payload))
    }

    /// The passkey `credential_id` of `app_id`, whoever owns it.
    pub async fn find_passkey(
        &self,
        app_id: &str,
        credential_id: &str,
    ) -> Result<Option<StoredPasskey>, DbError> {
        let row: Option<PasskeyRow> =
            sqlx::query_as(select_passkey!("AND app_id = $1 AND subject = $2"))
                .bind(app_id)
                .bind(credential_id)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.map(stored))
    }

    /// The user's passkeys, oldest first.
    pub async fn user_passkeys(&self, user_id: &str) -> Result<Vec<StoredPasskey>, DbError> {
        let rows: Vec<PasskeyRow> =
            sqlx::query_as(select_passkey!("AND user_id = $1 ORDER BY created_at, id"))
                .bind(user_id)
                .fetch_all(self.pool())
                .await?;
        Ok(rows.into_iter().map(stored).collect())
    }

    /// Replaces a passkey's `details` if they are still `old` (compare-and-swap) and records
    /// the use at `now`. `false` when they changed meanwhile (or the passkey is gone).
    pub async fn swap_passkey_details(
        &self,
        account_id: &str,
        old: &str,
        new: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let updated = sqlx::query(
            "UPDATE linked_accounts SET details = $3, latest_verified_at = $4
             WHERE id = $1 AND account_type = 'passkey' AND details = $2",
        )
        .bind(account_id)
        .bind(old)
        .bind(new)
        .bind(now)
        .execute(self.writer())
        .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// Removes the user's passkey unless it is enrolled in MFA or their last way in; decided in
    /// one transaction that holds the user's row (as enrolment does), so neither can slip in.
    /// `events` (`user.unlinked_account`) go with the removal.
    pub async fn unlink_passkey(
        &self,
        user_id: &str,
        credential_id: &str,
        events: &[NewEvent],
        now: i64,
    ) -> Result<PasskeyUnlink, DbError> {
        let mut tx = self.writer().begin().await?;
        lock_user(&mut tx, user_id).await?;
        let found: Option<PasskeyRow> =
            sqlx::query_as(select_passkey!("AND user_id = $1 AND subject = $2"))
                .bind(user_id)
                .bind(credential_id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(found) = found.map(stored) else {
            return Ok(PasskeyUnlink::NotFound);
        };
        if is_enrolled_in_mfa(&found.details) {
            return Ok(PasskeyUnlink::EnrolledInMfa);
        }
        let (ways_in,): (i64,) = sqlx::query_as(WAYS_IN)
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
        if ways_in <= 1 {
            return Ok(PasskeyUnlink::SoleAccount);
        }
        sqlx::query("DELETE FROM linked_accounts WHERE id = $1")
            .bind(&found.account_id)
            .execute(&mut *tx)
            .await?;
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(PasskeyUnlink::Unlinked)
    }
}

/// The credential ids of the user's passkeys enrolled in MFA, oldest first.
pub async fn mfa_credential_ids(db: &Db, user_id: &str) -> Result<Vec<String>, DbError> {
    Ok(db
        .user_passkeys(user_id)
        .await?
        .into_iter()
        .filter(|p| is_enrolled_in_mfa(&p.details))
        .map(|p| p.credential_id)
        .collect())
}

/// Marks the user's passkeys `credential_ids` as enrolled in MFA (or not): the seam the MFA
/// enrolment calls. Holds the user's row like [`Db::unlink_passkey`], so an unlink never removes
/// a passkey that is being enrolled. Ids that are not the user's passkeys are skipped; returns
/// how many of the user's passkeys now carry the flag as asked.
pub async fn set_enrolled_in_mfa(
    db: &Db,
    app_id: &str,
    user_id: &str,
    credential_ids: &[String],
    enrolled: bool,
) -> Result<u64, DbError> {
    // A lost compare-and-swap (a sign-in bumped a counter meanwhile) is retried.
    for _ in 0..3 {
        if let Some(matched) =
            try_set_enrolled(db, app_id, user_id, credential_ids, enrolled).await?
        {
            return Ok(matched);
        }
    }
    Err(DbError::Conflict { constraint: None })
}

async fn try_set_enrolled(
    db: &Db,
    app_id: &str,
    user_id: &str,
    credential_ids: &[String],
    enrolled: bool,
) -> Result<Option<u64>, DbError> {
    let mut tx = db.writer().begin().await?;
    lock_user(&mut tx, user_id).await?;
    let rows: Vec<PasskeyRow> = sqlx::query_as(select_passkey!("AND app_id = $1 AND user_id = $2"))
        .bind(app_id)
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?;
    let mut matched = 0;
    for passkey in rows.into_iter().map(stored) {
        if !credential_ids.contains(&passkey.credential_id) {
            continue;
        }
        matched += 1;
        let mut details = PasskeyDetails::read(Some(&passkey.details));
        if details.enrolled_in_mfa == Some(enrolled) {
            continue;
        }
        details.enrolled_in_mfa = Some(enrolled);
        // Compare-and-swap against a concurrent sign-in's counter update (which does not hold
        // the user's row): a lost race is retried, never overwritten.
        let updated =
            sqlx::query("UPDATE linked_accounts SET details = $3 WHERE id = $1 AND details = $2")
                .bind(&passkey.account_id)
                .bind(&passkey.details)
                .bind(details.to_stored()?)
                .execute(&mut *tx)
                .await?;
        if updated.rows_affected() != 1 {
            return Ok(None);
        }
    }
    tx.commit().await?;
    Ok(Some(matched))
}
