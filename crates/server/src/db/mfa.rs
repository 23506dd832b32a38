//! Second factors (`crate::mfa`): enrolled methods, TOTP secrets and steps, MFA tokens and the
//! per-user failure counter.
//!
//! Every single-use thing and every count is one conditional write: a TOTP step moves on only
//! forward, a token is consumed by one `DELETE … RETURNING` that names its user and session, a
//! failure is reserved by one upsert that refuses past the limit. Enrolments and unenrolments lock
//! the user's row first, so the "needs a token once a method exists" rule holds under concurrency.

use sqlx::{Any, Transaction};

use super::accounts::lock_user;
use super::webhooks::{NewEvent, record_events};
use super::{Db, DbError};

/// One enrolled method of a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MfaMethodRecord {
    /// `totp`, `sms` or `passkey`.
    pub method: String,
    /// The number codes go to (sms only).
    pub phone_number: Option<String>,
    /// When it was enrolled.
    pub verified_at: i64,
}

/// The user's TOTP row.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TotpRecord {
    /// The enrolled secret, sealed.
    pub secret: Option<String>,
    /// The secret waiting for its first code, sealed.
    pub pending_secret: Option<String>,
    /// When the pending secret stops being accepted.
    pub pending_expires_at: i64,
    /// The newest step accepted (each step passes once).
    pub last_step: i64,
}

/// An MFA token presented by the caller, to be consumed (hash of the token, its owner, now).
#[derive(Debug, Clone, Copy)]
pub struct TokenUse<'a> {
    /// SHA-256 (hex) of the token.
    pub hash: &'a str,
    /// The app.
    pub app_id: &'a str,
    /// The user it must belong to.
    pub user_id: &'a str,
    /// The session it must belong to.
    pub session_id: &'a str,
    /// Now.
    pub now: i64,
}

/// A new MFA token to store.
#[derive(Debug, Clone)]
pub struct NewMfaToken<'a> {
    /// The presented token's binding.
    pub owner: TokenUse<'a>,
    /// The method that was verified.
    pub method: &'a str,
    /// Unix seconds after which it is refused.
    pub expires_at: i64,
}

/// The tokens that may still sign: this one, of this app, user and session, live, verified
/// within the window ($6 = now − its seconds) and used for fewer than its signatures ($7).
macro_rules! signing_token_where {
    () => {
        "WHERE token_hash = $1 AND app_id = $2 AND user_id = $3 AND session_id = $4
           AND expires_at > $5 AND issued_at > $6 AND sign_uses < $7"
    };
}

/// How long after its verification, and for how many signatures, a token releases the key to sign.
#[derive(Debug, Clone, Copy)]
pub struct SigningWindow {
    /// Seconds after the verification.
    pub seconds: i64,
    /// Signatures.
    pub uses: i64,
}

/// A change of the user's methods, applied with [`Db::change_mfa`].
#[derive(Debug, Clone, Copy)]
pub enum MfaChange<'a> {
    /// Makes the pending TOTP secret `pending` (sealed, as read) the enrolled one; its first
    /// code's `step` counts as used.
    EnrollTotp {
        /// The pending secret the code was checked against.
        pending: &'a str,
        /// The step the code matched.
        step: i64,
    },
    /// Enrols (or replaces) the SMS number.
    EnrollSms {
        /// E.164.
        phone_number: &'a str,
    },
    /// Marks passkeys as enrolled (which ones is the passkey table's business).
    EnrollPasskey,
    /// Removes a method (the TOTP secret with it).
    Unenroll {
        /// `totp`, `sms` or `passkey`.
        method: &'a str,
    },
    /// Changes nothing here but needs a token like an unenrolment (removing one of several MFA
    /// passkeys: the passkey table holds which).
    Authorize {
        /// The enrolled method the caller changes.
        method: &'a str,
    },
}

impl MfaChange<'_> {
    /// The method it changes: `totp`, `sms` or `passkey`.
    pub fn method(&self) -> &str {
        match self {
            Self::EnrollTotp { .. } => "totp",
            Self::EnrollSms { .. } => "sms",
            Self::EnrollPasskey => "passkey",
            Self::Unenroll { method } | Self::Authorize { method } => method,
        }
    }
}

/// What [`Db::change_mfa`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeOutcome {
    /// Applied (a token, when one was needed, is used up).
    Done,
    /// The user has a method already (or this unenrols one): a token is needed and none came.
    TokenRequired,
    /// The token is unknown, expired, used, or another user's or session's.
    TokenRefused,
    /// Nothing to change: the pending TOTP secret is gone or expired, or the method to remove is
    /// not enrolled.
    NothingToChange,
}

impl Db {
    /// The user's enrolled methods, oldest first.
    pub async fn mfa_methods(&self, user_id: &str) -> Result<Vec<MfaMethodRecord>, DbError> {
        let rows: Vec<(String, Option<String>, i64)> = sqlx::query_as(
            "SELECT method, phone_number, verified_at FROM mfa_methods WHERE user_id = $1
             ORDER BY verified_at, method",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(method, phone_number, verified_at)| MfaMethodRecord {
                method,
                phone_number,
                verified_at,
            })
            .collect())
    }

    /// The second factors of `app_id`'s users whose ids sort in `(after, last]`, each with its
    /// user's id (one page of `list_users`, in one query).
    pub async fn mfa_methods_of_id_range(
        &self,
        app_id: &str,
        after: Option<&str>,
        last: &str,
    ) -> Result<Vec<(String, MfaMethodRecord)>, DbError> {
        let rows: Vec<(String, String, Option<String>, i64)> = sqlx::query_as(
            "SELECT m.user_id, m.method, m.phone_number, m.verified_at
             FROM users u JOIN mfa_methods m ON m.user_id = u.id
             WHERE u.app_id = $1 AND u.id > $2 AND u.id <= $3
             ORDER BY m.user_id, m.verified_at, m.method",
        )
        .bind(app_id)
        .bind(after.unwrap_or(""))
        .bind(last)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(user_id, method, phone_number, verified_at)| {
                let record = MfaMethodRecord {
                    method,
                    phone_number,
                    verified_at,
                };
                (user_id, record)
            })
            .collect())
    }

    /// The user's TOTP row, if any.
    pub async fn totp(&self, user_id: &str) -> Result<Option<TotpRecord>, DbError> {
        let row: Option<(Option<String>, Option<String>, i64, i64)> = sqlx::query_as(
            "SELECT secret, pending_secret, pending_expires_at, last_step FROM mfa_totp
             WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(
            |(secret, pending_secret, pending_expires_at, last_step)| TotpRecord {
                secret,
                pending_secret,
                pending_expires_at,
                last_step,
            },
        ))
    }

    /// Stores a new pending TOTP secret (sealed) until `expires_at`; the enrolled one stays.
    pub async fn set_pending_totp(
        &self,
        user_id: &str,
        sealed: &str,
        expires_at: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO mfa_totp (user_id, secret, pending_secret, pending_expires_at, last_step)
             VALUES ($1, NULL, $2, $3, 0)
             ON CONFLICT (user_id) DO UPDATE SET pending_secret = $2, pending_expires_at = $3",
        )
        .bind(user_id)
        .bind(sealed)
        .bind(expires_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Accepts TOTP `step` of the enrolled secret `sealed` once: true when it moved the user's
    /// last step forward (false: this or a later step was used already, or the secret changed).
    pub async fn use_totp_step(
        &self,
        user_id: &str,
        sealed: &str,
        step: i64,
    ) -> Result<bool, DbError> {
        let result = sqlx::query(
            "UPDATE mfa_totp SET last_step = $3
             WHERE user_id = $1 AND secret = $2 AND last_step < $3",
        )
        .bind(user_id)
        .bind(sealed)
        .bind(step)
        .execute(self.writer())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Reserves one failed verification of the user before a code is compared, by one conditional
    /// upsert: `None` (nothing written) while the user is locked out (`locked_until` ahead) or
    /// already has `max` failures and verifications in flight since the last lock, else the
    /// reservation's count. A user quiet for `memory_s` starts from nothing (no failures, the next
    /// lock the first). The answer settles it: [`Self::keep_mfa_failure`] (wrong) or
    /// [`Self::release_mfa_failure`] (right, or never compared).
    pub async fn reserve_mfa_failure(
        &self,
        user_id: &str,
        max: i64,
        memory_s: i64,
        now: i64,
    ) -> Result<Option<i64>, DbError> {
        let row: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO mfa_failures (user_id, failures, last_failure_at, locks, locked_until)
             VALUES ($1, 1, $2, 0, 0)
             ON CONFLICT (user_id) DO UPDATE SET
               failures = CASE WHEN mfa_failures.last_failure_at + $3 <= $2 THEN 1
                               ELSE mfa_failures.failures + 1 END,
               locks = CASE WHEN mfa_failures.last_failure_at + $3 <= $2 THEN 0
                            ELSE mfa_failures.locks END,
               last_failure_at = $2
             WHERE mfa_failures.locked_until <= $2
               AND (mfa_failures.failures < $4 OR mfa_failures.last_failure_at + $3 <= $2)
             RETURNING failures",
        )
        .bind(user_id)
        .bind(now)
        .bind(memory_s)
        .bind(max)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(|(failures,)| failures))
    }

    /// Keeps a reservation as a failure (the answer was wrong). When the user's count reached
    /// `max`, the same conditional UPDATE locks them out from `now` for `lockouts_s[locks]` (the
    /// last entry once past the end), counts the lock and starts the count again; answers the end
    /// of that new lock, if this failure started one.
    pub async fn keep_mfa_failure(
        &self,
        user_id: &str,
        max: i64,
        lockouts_s: &[u16],
        now: i64,
    ) -> Result<Option<i64>, DbError> {
        // The lock's length by the number of locks before it, from the (constant) ladder.
        let mut length = String::from("CASE");
        for (i, seconds) in lockouts_s.iter().enumerate() {
            length.push_str(&format!(" WHEN locks = {i} THEN {seconds}"));
        }
        length.push_str(&format!(
            " ELSE {} END",
            lockouts_s.last().copied().unwrap_or(0)
        ));
        let sql = format!(
            "UPDATE mfa_failures SET
               locked_until = CASE WHEN failures >= $2 THEN $3 + {length} ELSE locked_until END,
               locks = CASE WHEN failures >= $2 THEN locks + 1 ELSE locks END,
               failures = CASE WHEN failures >= $2 THEN 0 ELSE failures END
             WHERE user_id = $1
             RETURNING locked_until, failures"
        );
        let row: Option<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(user_id)
            .bind(max)
            .bind(now)
            .fetch_optional(self.writer())
            .await?;
        Ok(row
            .filter(|(until, failures)| *failures == 0 && *until > now)
            .map(|(until, _)| until))
    }

    /// Gives back a reservation of [`Self::reserve_mfa_failure`]; `succeeded` (a right answer)
    /// also forgets the user's failures and locks in a row: the next lock takes five new failures
    /// and is the first again. (Failures in flight meanwhile are forgotten with them: only the
    /// user's own right answer does that, and at most 5 can be in flight.)
    pub async fn release_mfa_failure(&self, user_id: &str, succeeded: bool) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE mfa_failures SET
               failures = CASE WHEN $2 = 1 OR failures <= 0 THEN 0 ELSE failures - 1 END,
               locks = CASE WHEN $2 = 1 THEN 0 ELSE locks END
             WHERE user_id = $1",
        )
        .bind(user_id)
        .bind(i64::from(succeeded))
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// When the user's current lock-out ends (to say when to retry; a read, after the refusal).
    pub async fn mfa_locked_until(&self, user_id: &str) -> Result<Option<i64>, DbError> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT locked_until FROM mfa_failures WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(self.writer())
                .await?;
        Ok(row.map(|(at,)| at))
    }

    /// Stores a new MFA token (its hash). Expired tokens are left to the sweeper
    /// ([`Db::sweep_expired`]); every use checks the expiry.
    pub async fn insert_mfa_token(&self, token: &NewMfaToken<'_>) -> Result<(), DbError> {
        let owner = token.owner;
        sqlx::query(
            "INSERT INTO mfa_tokens (token_hash, app_id, user_id, session_id, method, expires_at, issued_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(owner.hash)
        .bind(owner.app_id)
        .bind(owner.user_id)
        .bind(owner.session_id)
        .bind(token.method)
        .bind(token.expires_at)
        .bind(owner.now)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// Whether the token is live for its user and session and has signed nothing (a verification
    /// spent on signatures does not also export, recover or change factors; a read).
    pub async fn mfa_token_valid(&self, token: TokenUse<'_>) -> Result<bool, DbError> {
        let row: Option<(i64,)> = sqlx::query_as(
            "SELECT 1 FROM mfa_tokens WHERE token_hash = $1 AND app_id = $2 AND user_id = $3
               AND session_id = $4 AND expires_at > $5 AND sign_uses = 0",
        )
        .bind(token.hash)
        .bind(token.app_id)
        .bind(token.user_id)
        .bind(token.session_id)
        .bind(token.now)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.is_some())
    }

    /// Whether the token may still release the key for a signature: live, verified less than
    /// `window.seconds` ago, and used for fewer than `window.uses` signatures (a read).
    pub async fn mfa_token_signs(
        &self,
        token: TokenUse<'_>,
        window: SigningWindow,
    ) -> Result<bool, DbError> {
        self.signing_token(
            concat!("SELECT 1 FROM mfa_tokens ", signing_token_where!()),
            token,
            window,
        )
        .await
    }

    /// Counts one signature against the token, in one conditional write: true for exactly as
    /// many concurrent uses as the window has left.
    pub async fn use_mfa_token_to_sign(
        &self,
        token: TokenUse<'_>,
        window: SigningWindow,
    ) -> Result<bool, DbError> {
        self.signing_token(
            concat!(
                "UPDATE mfa_tokens SET sign_uses = sign_uses + 1 ",
                signing_token_where!(),
                " RETURNING 1"
            ),
            token,
            window,
        )
        .await
    }

    /// Runs `sql` (a read or a write with [`signing_token_where!`]) for `token` in `window`:
    /// whether it found a row.
    async fn signing_token(
        &self,
        sql: &'static str,
        token: TokenUse<'_>,
        window: SigningWindow,
    ) -> Result<bool, DbError> {
        let row: Option<(i64,)> = sqlx::query_as(sql)
            .bind(token.hash)
            .bind(token.app_id)
            .bind(token.user_id)
            .bind(token.session_id)
            .bind(token.now)
            .bind(token.now - window.seconds)
            .bind(window.uses)
            .fetch_optional(self.writer())
            .await?;
        Ok(row.is_some())
    }

    /// Uses the token up: true for exactly one of any concurrent uses of a live token.
    pub async fn consume_mfa_token(&self, token: TokenUse<'_>) -> Result<bool, DbError> {
        let mut tx = self.writer().begin().await?;
        let used = consume_token(&mut tx, token).await?;
        tx.commit().await?;
        Ok(used)
    }

    /// Applies `change` to the user's methods in one transaction behind the user's row lock. A
    /// token is needed to unenrol, and to enrol once the user has any method; when needed it is
    /// used up in the same transaction (nothing changes without it, and it is not spent when the
    /// change has nothing to do).
    pub async fn change_mfa(
        &self,
        user_id: &str,
        change: MfaChange<'_>,
        token: Option<TokenUse<'_>>,
        now: i64,
        events: &[NewEvent],
    ) -> Result<ChangeOutcome, DbError> {
        let mut tx = self.writer().begin().await?;
        lock_user(&mut tx, user_id).await?;
        let (enrolled,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM mfa_methods WHERE user_id = $1")
                .bind(user_id)
                .fetch_one(&mut *tx)
                .await?;
        let needs_token = enrolled > 0
            || matches!(
                change,
                MfaChange::Unenroll { .. } | MfaChange::Authorize { .. }
            );
        if needs_token {
            let Some(token) = token else {
                tx.rollback().await?;
                return Ok(ChangeOutcome::TokenRequired);
            };
            if !consume_token(&mut tx, token).await? {
                tx.rollback().await?;
                return Ok(ChangeOutcome::TokenRefused);
            }
        }
        if !apply_change(&mut tx, user_id, change, now).await? {
            tx.rollback().await?;
            return Ok(ChangeOutcome::NothingToChange);
        }
        let delivered = record_events(&mut tx, events, now).await?;
        self.commit_with_events(tx, delivered).await?;
        Ok(ChangeOutcome::Done)
    }
}

async fn consume_token(
    tx: &mut Transaction<'_, Any>,
    token: TokenUse<'_>,
) -> Result<bool, DbError> {
    let row: Option<(String,)> = sqlx::query_as(
        "DELETE FROM mfa_tokens WHERE token_hash = $1 AND app_id = $2 AND user_id = $3
           AND session_id = $4 AND expires_at > $5 AND sign_uses = 0
         RETURNING method",
    )
    .bind(token.hash)
    .bind(token.app_id)
    .bind(token.user_id)
    .bind(token.session_id)
    .bind(token.now)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some())
}

/// The writes of one change; false when there was nothing to change.
async fn apply_change(
    tx: &mut Transaction<'_, Any>,
    user_id: &str,
    change: MfaChange<'_>,
    now: i64,
) -> Result<bool, DbError> {
    let method = change.method().to_string();
    let phone = match change {
        MfaChange::EnrollTotp { pending, step } => {
            let moved = sqlx::query(
                "UPDATE mfa_totp SET secret = pending_secret, pending_secret = NULL,
                    pending_expires_at = 0, last_step = $3
                 WHERE user_id = $1 AND pending_secret = $2 AND pending_expires_at > $4",
            )
            .bind(user_id)
            .bind(pending)
            .bind(step)
            .bind(now)
            .execute(&mut **tx)
            .await?;
            if moved.rows_affected() != 1 {
                return Ok(false);
            }
            None
        }
        MfaChange::EnrollSms { phone_number } => Some(phone_number.to_string()),
        MfaChange::EnrollPasskey => None,
        MfaChange::Unenroll { method } => {
            let removed = sqlx::query("DELETE FROM mfa_methods WHERE user_id = $1 AND method = $2")
                .bind(user_id)
                .bind(method)
                .execute(&mut **tx)
                .await?;
            if method == "totp" {
                sqlx::query("DELETE FROM mfa_totp WHERE user_id = $1")
                    .bind(user_id)
                    .execute(&mut **tx)
                    .await?;
            }
            return Ok(removed.rows_affected() == 1);
        }
        MfaChange::Authorize { method } => {
            let row: Option<(i64,)> =
                sqlx::query_as("SELECT 1 FROM mfa_methods WHERE user_id = $1 AND method = $2")
                    .bind(user_id)
                    .bind(method)
                    .fetch_optional(&mut **tx)
                    .await?;
            return Ok(row.is_some());
        }
    };
    sqlx::query(
        "INSERT INTO mfa_methods (user_id, method, phone_number, verified_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, method) DO UPDATE SET phone_number = $3, verified_at = $4",
    )
    .bind(user_id)
    .bind(&method)
    .bind(phone)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}
