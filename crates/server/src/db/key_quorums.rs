//! Key quorums (migration 0025).

use super::{Db, DbError};

/// A stored key quorum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyQuorumRecord {
    /// Its id.
    pub id: String,
    /// The app it belongs to.
    pub app_id: String,
    /// A name for people.
    pub display_name: Option<String>,
    /// `[{public_key, display_name}]` as JSON.
    pub keys: String,
    /// How many must sign (`None`: all).
    pub threshold: Option<i64>,
    /// Unix seconds.
    pub created_at: i64,
}

type Row = (String, String, Option<String>, String, Option<i64>, i64);

fn record((id, app_id, display_name, keys, threshold, created_at): Row) -> KeyQuorumRecord {
    KeyQuorumRecord {
        id,
        app_id,
        display_name,
        keys,
        threshold,
        created_at,
    }
}

impl Db {
    /// Stores a new quorum.
    pub async fn insert_key_quorum(&self, quorum: &KeyQuorumRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO key_quorums (id, app_id, display_name, keys, threshold, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&quorum.id)
        .bind(&quorum.app_id)
        .bind(quorum.display_name.as_deref())
        .bind(&quorum.keys)
        .bind(quorum.threshold)
        .bind(quorum.created_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// `app_id`'s quorum `id`.
    pub async fn find_key_quorum(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<KeyQuorumRecord>, DbError> {
        let row: Option<Row> = sqlx::query_as(
            "SELECT id, app_id, display_name, keys, threshold, created_at
             FROM key_quorums WHERE app_id = $1 AND id = $2",
        )
        .bind(app_id)
        .bind(id)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(record))
    }

    /// Replaces the quorum's name, keys and threshold; false when there is no such quorum.
    pub async fn update_key_quorum(&self, quorum: &KeyQuorumRecord) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE key_quorums SET display_name = $1, keys = $2, threshold = $3
             WHERE app_id = $4 AND id = $5",
        )
        .bind(quorum.display_name.as_deref())
        .bind(&quorum.keys)
        .bind(quorum.threshold)
        .bind(&quorum.app_id)
        .bind(&quorum.id)
        .execute(self.writer())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes the quorum unless it owns a policy (one conditional write): `Ok(None)` when there is
    /// no such quorum, `Ok(Some(false))` when it still owns something.
    pub async fn delete_unused_key_quorum(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<bool>, DbError> {
        let done = sqlx::query(
            "DELETE FROM key_quorums WHERE app_id = $1 AND id = $2
             AND NOT EXISTS (SELECT 1 FROM policies WHERE app_id = $1 AND owner_id = $2)",
        )
        .bind(app_id)
        .bind(id)
        .execute(self.writer())
        .await?;
        if done.rows_affected() == 1 {
            return Ok(Some(true));
        }
        Ok(self.find_key_quorum(app_id, id).await?.map(|_| false))
    }
}
