//! What the signer remembers, in one SQLite file of its own beside its key: which consents are live
//! or revoked (a revoked consent stays refused even if its ciphertext is shown again, e.g. from an
//! old copy of the main server's database) and which signed requests were used (each at most once,
//! until its deadline). Every change is one conditional statement.

use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Row, SqlitePool};

use crate::error::SignerError;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS consents (
    consent_id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    address TEXT NOT NULL,
    revoked_at INTEGER,
    registered_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS used_requests (
    digest BLOB PRIMARY KEY,
    expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS used_requests_expiry ON used_requests (expires_at);
";

/// The signer's state.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

/// Where a consent stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsentState {
    /// Registered and not revoked.
    Live,
    /// Revoked (or never registered and revoked in advance).
    Revoked,
    /// Never registered.
    Unknown,
}

impl Store {
    /// Opens (and creates) the state file at `path`; `:memory:` for a throwaway store.
    pub async fn open(path: &Path) -> Result<Self, sqlx::Error> {
        let options = if path.as_os_str() == ":memory:" {
            SqliteConnectOptions::from_str("sqlite::memory:")?
        } else {
            SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
        };
        let pool = SqlitePoolOptions::new()
            // One connection for a memory store (each would be its own database).
            .max_connections(if path.as_os_str() == ":memory:" { 1 } else { 4 })
            .connect_with(options)
            .await?;
        sqlx::raw_sql(SCHEMA).execute(&pool).await?;
        Ok(Self { pool })
    }

    /// Records `consent_id` as live, unless it was revoked (then it stays revoked).
    pub async fn register(
        &self,
        consent_id: &str,
        app_id: &str,
        address: &str,
        now_ms: i64,
    ) -> Result<ConsentState, SignerError> {
        sqlx::query(
            "INSERT INTO consents (consent_id, app_id, address, registered_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (consent_id) DO NOTHING",
        )
        .bind(consent_id)
        .bind(app_id)
        .bind(address.to_ascii_lowercase())
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        self.state(consent_id).await
    }

    /// Where `consent_id` stands.
    pub async fn state(&self, consent_id: &str) -> Result<ConsentState, SignerError> {
        let row = sqlx::query("SELECT revoked_at FROM consents WHERE consent_id = ?")
            .bind(consent_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            None => ConsentState::Unknown,
            Some(row) if row.try_get::<Option<i64>, _>(0)?.is_some() => ConsentState::Revoked,
            Some(_) => ConsentState::Live,
        })
    }

    /// Revokes `consent_id` for good (recorded even when it was never registered).
    pub async fn revoke(&self, consent_id: &str, now_ms: i64) -> Result<(), SignerError> {
        sqlx::query(
            "INSERT INTO consents (consent_id, app_id, address, revoked_at, registered_at)
             VALUES (?, '', '', ?, ?)
             ON CONFLICT (consent_id) DO UPDATE SET revoked_at = COALESCE(consents.revoked_at, excluded.revoked_at)",
        )
        .bind(consent_id)
        .bind(now_ms)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Marks a signed request (its payload's digest) used until `expires_at`; false when it was
    /// used before.
    pub async fn use_request(&self, digest: &[u8], expires_at: i64) -> Result<bool, SignerError> {
        let done = sqlx::query(
            "INSERT INTO used_requests (digest, expires_at) VALUES (?, ?)
             ON CONFLICT (digest) DO NOTHING",
        )
        .bind(digest)
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Forgets used requests past their deadline (they are refused as expired anyway).
    pub async fn sweep(&self, now_ms: i64) -> Result<u64, SignerError> {
        let done = sqlx::query("DELETE FROM used_requests WHERE expires_at < ?")
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
