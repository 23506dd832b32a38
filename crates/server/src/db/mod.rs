//! Storage through sqlx's `Any` driver: one set of SQL (`$n` placeholders, TEXT/BIGINT/BOOLEAN
//! columns) for SQLite and Postgres, with embedded migrations.

pub mod apps;
pub mod keys;
pub mod otp;
pub mod sessions;
pub mod users;

use std::time::Duration;

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// The database refused or failed a query.
    #[error("database error: {0}")]
    Sqlx(#[source] sqlx::Error),
    /// Migrations could not be applied.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A unique constraint was violated (a concurrent insert won).
    #[error("unique constraint violated")]
    Conflict,
}

impl From<sqlx::Error> for DbError {
    fn from(error: sqlx::Error) -> Self {
        let unique = error
            .as_database_error()
            .is_some_and(|e| e.is_unique_violation());
        if unique {
            DbError::Conflict
        } else {
            DbError::Sqlx(error)
        }
    }
}

/// A connection pool to the server's database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Db {
    pool: AnyPool,
}

impl Db {
    /// Connects to `url` (`sqlite://…` or `postgres://…`).
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let options = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 10 })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL lets readers work during a write; the busy timeout makes writers queue instead of failing.
                        sqlx::query("PRAGMA journal_mode = WAL")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA busy_timeout = 5000")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            });
        Ok(Self {
            pool: options.connect(url).await?,
        })
    }

    /// Applies the embedded migrations (`crates/server/migrations`).
    pub async fn migrate(&self) -> Result<(), DbError> {
        sqlx::migrate!("./migrations").run(&self.pool).await?;
        Ok(())
    }

    /// The underlying pool.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
