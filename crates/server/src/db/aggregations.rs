//! Aggregations (migration 0028): one row each; a delete is refused while a policy names the
//! aggregation.

use super::{Db, DbError};

/// A stored aggregation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AggregationRecord {
    /// Its id.
    pub id: String,
    /// The app it belongs to.
    pub app_id: String,
    /// Its name.
    pub name: String,
    /// `eth_signTransaction` or `eth_sendTransaction`.
    pub method: String,
    /// `{field_source, field, function}` as JSON.
    pub metric: String,
    /// The rolling window in seconds.
    pub window_seconds: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

type Row = (String, String, String, String, String, i64, i64);

fn record(
    (id, app_id, name, method, metric, window_seconds, created_at): Row,
) -> AggregationRecord {
    AggregationRecord {
        id,
        app_id,
        name,
        method,
        metric,
        window_seconds,
        created_at,
    }
}

/// Deletes aggregation `$2` of app `$1` unless a policy of the app names it: a condition's field
/// `aggregation.{id}` as the rules' JSON holds it (`$3` = `%"aggregation.{id}"%`; ids are lower-case
/// letters and digits, so the pattern has no wildcard of its own).
const DELETE_UNUSED: &str = "DELETE FROM aggregations WHERE app_id = $1 AND id = $2
     AND NOT EXISTS (SELECT 1 FROM policies WHERE app_id = $1 AND rules LIKE $3)";

impl Db {
    /// Stores a new aggregation.
    pub async fn insert_aggregation(&self, aggregation: &AggregationRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO aggregations (id, app_id, name, method, metric, window_seconds, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&aggregation.id)
        .bind(&aggregation.app_id)
        .bind(&aggregation.name)
        .bind(&aggregation.method)
        .bind(&aggregation.metric)
        .bind(aggregation.window_seconds)
        .bind(aggregation.created_at)
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// `app_id`'s aggregation `id`.
    pub async fn find_aggregation(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<AggregationRecord>, DbError> {
        let row: Option<Row> = sqlx::query_as(
            "SELECT id, app_id, name, method, metric, window_seconds, created_at
             FROM aggregations WHERE app_id = $1 AND id = $2",
        )
        .bind(app_id)
        .bind(id)
        .fetch_optional(self.writer())
        .await?;
        Ok(row.map(record))
    }

    /// Deletes the aggregation unless a policy names it (one conditional write): `Ok(None)` when
    /// there is no such aggregation, `Ok(Some(false))` when a policy still names it.
    pub async fn delete_unused_aggregation(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<bool>, DbError> {
        let done = sqlx::query(DELETE_UNUSED)
            .bind(app_id)
            .bind(id)
            .bind(format!("%\"aggregation.{id}\"%"))
            .execute(self.writer())
            .await?;
        if done.rows_affected() == 1 {
            return Ok(Some(true));
        }
        Ok(self.find_aggregation(app_id, id).await?.map(|_| false))
    }
}
