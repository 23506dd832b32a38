//! App secrets (migration 0020): the `/v1` API's Basic-auth password. Only an Argon2id hash is
//! stored; the secret itself is shown once, when it is made.

use super::{Db, DbError};

/// An app secret as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiSecretRecord {
    /// The public part the secret starts with.
    pub id: String,
    /// The app it opens.
    pub app_id: String,
    /// Argon2id PHC string of the whole secret.
    pub hash: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds of the last accepted use (updated at most once a minute).
    pub last_used_at: Option<i64>,
    /// Unix seconds; refused from then on.
    pub revoked_at: Option<i64>,
}

/// Seconds between two writes of a secret's last-used time: a busy back end does not write on
/// every call.
pub const LAST_USED_RESOLUTION_S: i64 = 60;

type Row = (String, String, String, i64, Option<i64>, Option<i64>);

fn record((id, app_id, hash, created_at, last_used_at, revoked_at): Row) -> ApiSecretRecord {
    ApiSecretRecord {
        id,
        app_id,
        hash,
        created_at,
        last_used_at,
        revoked_at,
    }
}

impl Db {
    /// Stores a new secret.
    pub async fn insert_api_secret(&self, secret: &ApiSecretRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO api_secrets (id, app_id, hash, created_at, last_used_at, revoked_at)
             VALUES ($1, $2, $3, $4, NULL, NULL)",
        )
        .bind(&secret.id)
        .bind(&secret.app_id)
        .bind(&secret.hash)
        .bind(secret.created_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// The secret whose public part is `id`, revoked or not.
    pub async fn find_api_secret(&self, id: &str) -> Result<Option<ApiSecretRecord>, DbError> {
        let row: Option<Row> =
            sqlx::query_as(
                "SELECT id, app_id, hash, created_at, last_used_at, revoked_at FROM api_secrets WHERE id = $1",
            )
                .bind(id)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.map(record))
    }

    /// The app's secrets, oldest first, revoked ones included.
    pub async fn api_secrets_of_app(&self, app_id: &str) -> Result<Vec<ApiSecretRecord>, DbError> {
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT id, app_id, hash, created_at, last_used_at, revoked_at FROM api_secrets
             WHERE app_id = $1 ORDER BY created_at, id",
        )
        .bind(app_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().map(record).collect())
    }

    /// Revokes the app's secret `id`; false when the app has no such live secret.
    pub async fn revoke_api_secret(
        &self,
        app_id: &str,
        id: &str,
        now: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE api_secrets SET revoked_at = $3
             WHERE app_id = $1 AND id = $2 AND revoked_at IS NULL",
        )
        .bind(app_id)
        .bind(id)
        .bind(now)
        .execute(self.writer())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records an accepted use: one conditional write, skipped (no row matched) when the last one
    /// is under [`LAST_USED_RESOLUTION_S`] old.
    pub async fn touch_api_secret(&self, id: &str, now: i64) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE api_secrets SET last_used_at = $2
             WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $3)",
        )
        .bind(id)
        .bind(now)
        .bind(now - LAST_USED_RESOLUTION_S)
        .execute(self.writer())
        .await?;
        Ok(())
    }
}
