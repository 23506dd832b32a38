//! Sessions and their refresh tokens (stored only as SHA-256 hashes).

use super::users::EmbeddedWalletFields;
use super::users::{LinkedAccountRecord, UserRecord};
use super::{Db, DbError};

/// A session as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// Session id (`sid` of access tokens).
    pub id: String,
    /// The app.
    pub app_id: String,
    /// The user.
    pub user_id: String,
    /// Unix seconds after which refresh fails.
    pub expires_at: i64,
    /// Set once logged out or revoked.
    pub revoked_at: Option<i64>,
    /// When its sign-in's fresh proof was made; `None` for a replayable one (`accounts::Proof`).
    pub fresh_since: Option<i64>,
}

/// A refresh token as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshTokenRecord {
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// Its session.
    pub session_id: String,
    /// When it was exchanged for a child token; `None` while it is current.
    pub rotated_at: Option<i64>,
}

/// Everything a refresh reads, in one statement: the presented token, its session, the
/// session's user and the user's linked accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshContext {
    /// The presented token.
    pub token: RefreshTokenRecord,
    /// Its session.
    pub session: SessionRecord,
    /// The session's user; `None` if the user is gone.
    pub user: Option<UserRecord>,
    /// The user's accounts, oldest first.
    pub accounts: Vec<LinkedAccountRecord>,
}

/// One row of [`Db::find_refresh_context`]: one per linked account (account columns null
/// when the user has none, user columns null when the user is gone).
struct RefreshRow {
    session_id: String,
    rotated_at: Option<i64>,
    app_id: String,
    user_id: String,
    expires_at: i64,
    revoked_at: Option<i64>,
    fresh_since: Option<i64>,
    user_created_at: Option<i64>,
    has_accepted_terms: Option<i64>,
    is_guest: Option<i64>,
    custom_metadata: Option<String>,
    account_id: Option<String>,
    account_type: Option<String>,
    subject: Option<String>,
    first_verified_at: Option<i64>,
    latest_verified_at: Option<i64>,
    wallet_chain_type: Option<String>,
    wallet_index: Option<i64>,
    wallet_recovery_method: Option<String>,
    wallet_imported: Option<i64>,
    wallet_delegated_at: Option<i64>,
    account_details: Option<String>,
}

// By hand: the `FromRow` derive would pull in sqlx's macro crate, which builds SQLite and Postgres a second time
// for the compiler (the largest part of a cold build).
impl sqlx::FromRow<'_, sqlx::any::AnyRow> for RefreshRow {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            session_id: row.try_get("session_id")?,
            rotated_at: row.try_get("rotated_at")?,
            app_id: row.try_get("app_id")?,
            user_id: row.try_get("user_id")?,
            expires_at: row.try_get("expires_at")?,
            revoked_at: row.try_get("revoked_at")?,
            fresh_since: row.try_get("fresh_since")?,
            user_created_at: row.try_get("user_created_at")?,
            has_accepted_terms: row.try_get("has_accepted_terms")?,
            is_guest: row.try_get("is_guest")?,
            custom_metadata: row.try_get("custom_metadata")?,
            account_id: row.try_get("account_id")?,
            account_type: row.try_get("account_type")?,
            subject: row.try_get("subject")?,
            first_verified_at: row.try_get("first_verified_at")?,
            latest_verified_at: row.try_get("latest_verified_at")?,
            wallet_chain_type: row.try_get("wallet_chain_type")?,
            wallet_index: row.try_get("wallet_index")?,
            wallet_recovery_method: row.try_get("wallet_recovery_method")?,
            wallet_imported: row.try_get("wallet_imported")?,
            wallet_delegated_at: row.try_get("wallet_delegated_at")?,
            account_details: row.try_get("account_details")?,
        })
    }
}

impl Db {
    /// Creates a session with its first refresh token.
    pub async fn create_session(
        &self,
        session: &SessionRecord,
        token_hash: &str,
        now: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.writer().begin().await?;
        sqlx::query(
            "INSERT INTO sessions (id, app_id, user_id, created_at, expires_at, revoked_at, fresh_since) VALUES ($1, $2, $3, $4, $5, NULL, $6)",
        )
        .bind(&session.id)
        .bind(&session.app_id)
        .bind(&session.user_id)
        .bind(now)
        .bind(session.expires_at)
        .bind(session.fresh_since)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO refresh_tokens (token_hash, session_id, parent_hash, created_at) VALUES ($1, $2, NULL, $3)")
            .bind(token_hash)
            .bind(&session.id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The session with this id.
    pub async fn find_session(&self, id: &str) -> Result<Option<SessionRecord>, DbError> {
        type Row = (String, String, String, i64, Option<i64>, Option<i64>);
        let row: Option<Row> = sqlx::query_as(
            "SELECT id, app_id, user_id, expires_at, revoked_at, fresh_since FROM sessions WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(
            |(id, app_id, user_id, expires_at, revoked_at, fresh_since)| SessionRecord {
                id,
                app_id,
                user_id,
                expires_at,
                revoked_at,
                fresh_since,
            },
        ))
    }

    /// When the session's sign-in was freshly proven (unix seconds), `None` when it was not
    /// (`accounts::Proof`); refreshing does not change it.
    pub async fn session_fresh_since(&self, id: &str) -> Result<Option<i64>, DbError> {
        let row: Option<(Option<i64>,)> =
            sqlx::query_as("SELECT fresh_since FROM sessions WHERE id = $1")
                .bind(id)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.and_then(|(at,)| at))
    }

    /// Revokes the session (no-op when already revoked).
    pub async fn revoke_session(&self, id: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
            .bind(id)
            .bind(now)
            .execute(self.writer())
            .await?;
        Ok(())
    }

    /// The refresh token with this hash.
    pub async fn find_refresh_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<RefreshTokenRecord>, DbError> {
        let row: Option<(String, String, Option<i64>)> = sqlx::query_as(
            "SELECT token_hash, session_id, rotated_at FROM refresh_tokens WHERE token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(self.pool())
        .await?;
        Ok(
            row.map(|(token_hash, session_id, rotated_at)| RefreshTokenRecord {
                token_hash,
                session_id,
                rotated_at,
            }),
        )
    }

    /// The token with this hash with its session, user and accounts (see [`RefreshContext`]).
    pub async fn find_refresh_context(
        &self,
        token_hash: &str,
    ) -> Result<Option<RefreshContext>, DbError> {
        let rows: Vec<RefreshRow> = sqlx::query_as(
            "SELECT t.session_id, t.rotated_at, s.app_id, s.user_id, s.expires_at, s.revoked_at, s.fresh_since,
                    u.created_at AS user_created_at, u.has_accepted_terms, u.is_guest, u.custom_metadata,
                    a.id AS account_id, a.account_type, a.subject, a.first_verified_at,
                    a.latest_verified_at,
                    w.chain_type AS wallet_chain_type,
                    w.wallet_index, w.recovery_method AS wallet_recovery_method,
                    w.imported AS wallet_imported, d.created_at AS wallet_delegated_at,
                    a.details AS account_details
             FROM refresh_tokens t
             JOIN sessions s ON s.id = t.session_id
             LEFT JOIN users u ON u.id = s.user_id AND u.app_id = s.app_id
             LEFT JOIN linked_accounts a ON a.user_id = u.id
             LEFT JOIN embedded_wallets w ON w.id = a.id
             LEFT JOIN delegations d ON d.wallet_id = w.id
             WHERE t.token_hash = $1
             ORDER BY a.created_at, COALESCE(w.wallet_index, -1), a.id",
        )
        .bind(token_hash)
        .fetch_all(self.pool())
        .await?;
        let mut context: Option<RefreshContext> = None;
        for row in rows {
            let context = context.get_or_insert_with(|| RefreshContext {
                token: RefreshTokenRecord {
                    token_hash: token_hash.to_string(),
                    session_id: row.session_id.clone(),
                    rotated_at: row.rotated_at,
                },
                user: match (row.user_created_at, row.has_accepted_terms, row.is_guest) {
                    (Some(created_at), Some(terms), Some(guest)) => Some(UserRecord {
                        id: row.user_id.clone(),
                        app_id: row.app_id.clone(),
                        created_at,
                        has_accepted_terms: terms != 0,
                        is_guest: guest != 0,
                        custom_metadata: row.custom_metadata.clone(),
                    }),
                    _ => None,
                },
                session: SessionRecord {
                    id: row.session_id.clone(),
                    app_id: row.app_id.clone(),
                    user_id: row.user_id.clone(),
                    expires_at: row.expires_at,
                    revoked_at: row.revoked_at,
                    fresh_since: row.fresh_since,
                },
                accounts: Vec::new(),
            });
            if let (Some(id), Some(account_type), Some(subject), Some(first), Some(latest)) = (
                row.account_id,
                row.account_type,
                row.subject,
                row.first_verified_at,
                row.latest_verified_at,
            ) {
                context.accounts.push(LinkedAccountRecord {
                    id,
                    account_type,
                    subject,
                    first_verified_at: first,
                    latest_verified_at: latest,
                    wallet: EmbeddedWalletFields::from_columns(
                        row.wallet_chain_type,
                        row.wallet_index,
                        row.wallet_recovery_method,
                        row.wallet_imported,
                        row.wallet_delegated_at,
                    ),
                    details: row.account_details,
                });
            }
        }
        Ok(context)
    }

    /// Exchanges `parent_hash` for its one child `child_hash` in one statement (atomic, one
    /// round trip): stores the child unless it exists and marks the parent rotated unless it
    /// already is. Returns when the parent was first rotated (`now` if by this call), so every
    /// concurrent or repeated exchange of one token agrees on it and on the child.
    ///
    /// The parent's row in `VALUES` always conflicts (the caller just read it, tokens are never
    /// deleted and a deleted session would fail the foreign key), so it only ever takes the
    /// `DO UPDATE` branch, which keeps an earlier rotation time.
    pub async fn rotate_refresh_token(
        &self,
        parent_hash: &str,
        child_hash: &str,
        session_id: &str,
        now: i64,
    ) -> Result<Option<i64>, DbError> {
        let rows: Vec<(String, Option<i64>)> = sqlx::query_as(
            "INSERT INTO refresh_tokens (token_hash, session_id, parent_hash, created_at, rotated_at)
             VALUES ($1, $3, $2, $4, NULL), ($2, $3, NULL, $4, $4)
             ON CONFLICT (token_hash) DO UPDATE
             SET rotated_at = COALESCE(refresh_tokens.rotated_at, excluded.rotated_at)
             RETURNING token_hash, rotated_at",
        )
        .bind(child_hash)
        .bind(parent_hash)
        .bind(session_id)
        .bind(now)
        .fetch_all(self.writer())
        .await?;
        Ok(rows
            .into_iter()
            .find(|(hash, _)| hash == parent_hash)
            .and_then(|(_, rotated_at)| rotated_at))
    }
}
