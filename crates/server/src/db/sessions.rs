//! Sessions and their refresh tokens (stored only as SHA-256 hashes).

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

impl Db {
    /// Creates a session with its first refresh token.
    pub async fn create_session(
        &self,
        session: &SessionRecord,
        token_hash: &str,
        now: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO sessions (id, app_id, user_id, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, NULL)",
        )
        .bind(&session.id)
        .bind(&session.app_id)
        .bind(&session.user_id)
        .bind(now)
        .bind(session.expires_at)
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
        let row: Option<(String, String, String, i64, Option<i64>)> = sqlx::query_as(
            "SELECT id, app_id, user_id, expires_at, revoked_at FROM sessions WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(
            |(id, app_id, user_id, expires_at, revoked_at)| SessionRecord {
                id,
                app_id,
                user_id,
                expires_at,
                revoked_at,
            },
        ))
    }

    /// Revokes the session (no-op when already revoked).
    pub async fn revoke_session(&self, id: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
            .bind(id)
            .bind(now)
            .execute(self.pool())
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

    /// Marks a current token as rotated. False when another request rotated it first.
    pub async fn mark_refresh_token_rotated(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let result =
            sqlx::query("UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1 AND rotated_at IS NULL")
                .bind(token_hash)
                .bind(now)
                .execute(self.pool())
                .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Stores a new current token issued in exchange for `parent_hash`.
    pub async fn insert_refresh_token(
        &self,
        token_hash: &str,
        session_id: &str,
        parent_hash: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query("INSERT INTO refresh_tokens (token_hash, session_id, parent_hash, created_at) VALUES ($1, $2, $3, $4)")
            .bind(token_hash)
            .bind(session_id)
            .bind(parent_hash)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}
