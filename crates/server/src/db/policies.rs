//! Policies (migrations 0024, 0025 for the owner): one row each, its rules as JSON, changed in a transaction that holds
//! the row.

use super::{Db, DbError};

/// A stored policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyRecord {
    /// Its id.
    pub id: String,
    /// The app it belongs to.
    pub app_id: String,
    /// Its name.
    pub name: String,
    /// The chain of the wallets it governs.
    pub chain_type: String,
    /// `1.0`.
    pub version: String,
    /// `[PolicyRule]` as JSON.
    pub rules: String,
    /// Counts the changes.
    pub revision: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// The key quorum whose signatures every change needs.
    pub owner_id: Option<String>,
}

type Row = (
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
    i64,
    Option<String>,
);

/// The policy `$2` of app `$1`.
const SELECT_ONE: &str =
    "SELECT id, app_id, name, chain_type, version, rules, revision, created_at, owner_id
     FROM policies WHERE app_id = $1 AND id = $2";

fn record(row: Row) -> PolicyRecord {
    let (id, app_id, name, chain_type, version, rules, revision, created_at, owner_id) = row;
    PolicyRecord {
        id,
        app_id,
        name,
        chain_type,
        version,
        rules,
        revision,
        created_at,
        owner_id,
    }
}

impl Db {
    /// Stores a new policy.
    pub async fn insert_policy(&self, policy: &PolicyRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO policies (id, app_id, name, chain_type, version, rules, revision, created_at, owner_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&policy.id)
        .bind(&policy.app_id)
        .bind(&policy.name)
        .bind(&policy.chain_type)
        .bind(&policy.version)
        .bind(&policy.rules)
        .bind(policy.revision)
        .bind(policy.created_at)
        .bind(policy.owner_id.as_deref())
        .execute(self.writer())
        .await?;
        Ok(())
    }

    /// `app_id`'s policy `id`.
    pub async fn find_policy(
        &self,
        app_id: &str,
        id: &str,
    ) -> Result<Option<PolicyRecord>, DbError> {
        let row: Option<Row> = sqlx::query_as(SELECT_ONE)
            .bind(app_id)
            .bind(id)
            .fetch_optional(self.writer())
            .await?;
        Ok(row.map(record))
    }

    /// Applies `edit` to `app_id`'s policy `id` and stores the result, in one transaction that
    /// holds the policy's row: concurrent edits run one after another and none is lost. `None` when
    /// there is no such policy; an `edit` error changes nothing.
    pub async fn edit_policy<T, E: From<DbError>>(
        &self,
        app_id: &str,
        id: &str,
        edit: impl FnOnce(&mut PolicyRecord) -> Result<T, E>,
    ) -> Result<Option<T>, E> {
        let mut tx = self.writer().begin().await.map_err(DbError::from)?;
        // Takes the row's lock first (a no-op write), so the read below is the latest.
        let held =
            sqlx::query("UPDATE policies SET revision = revision WHERE app_id = $1 AND id = $2")
                .bind(app_id)
                .bind(id)
                .execute(&mut *tx)
                .await
                .map_err(DbError::from)?;
        if held.rows_affected() == 0 {
            return Ok(None);
        }
        let row: Row = sqlx::query_as(SELECT_ONE)
            .bind(app_id)
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .map_err(DbError::from)?;
        let mut policy = record(row);
        let outcome = edit(&mut policy)?;
        sqlx::query(
            "UPDATE policies SET name = $1, rules = $2, owner_id = $5, revision = revision + 1
             WHERE app_id = $3 AND id = $4",
        )
        .bind(&policy.name)
        .bind(&policy.rules)
        .bind(app_id)
        .bind(id)
        .bind(policy.owner_id.as_deref())
        .execute(&mut *tx)
        .await
        .map_err(DbError::from)?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(Some(outcome))
    }

    /// Deletes `app_id`'s policy `id`; false when there was none.
    pub async fn delete_policy(&self, app_id: &str, id: &str) -> Result<bool, DbError> {
        let done = sqlx::query("DELETE FROM policies WHERE app_id = $1 AND id = $2")
            .bind(app_id)
            .bind(id)
            .execute(self.writer())
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
