//! Storage through sqlx's `Any` driver: one set of SQL (`$n` placeholders, TEXT/BIGINT/BOOLEAN
//! columns) for SQLite and Postgres, with embedded migrations.

pub mod account_details;
pub mod accounts;
pub mod aggregations;
pub mod api_secrets;
pub mod apps;
pub mod challenges;
pub mod cross_app;
pub mod delegations;
pub mod farcaster;
pub mod idempotency;
pub mod key_quorums;
pub mod keys;
pub mod mfa;
pub mod migrations;
pub mod oauth;
pub mod otp;
pub mod passkeys;
pub mod policies;
pub mod sessions;
pub mod users;
pub mod wallet_nonces;
pub mod wallets;
pub mod webhooks;

use crate::error::AppError;
use std::net::IpAddr;
use std::str::FromStr;
use std::time::Duration;
use symbolon_protocol::ServerErrorCode;

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;
use sqlx::postgres::{PgConnectOptions, PgSslMode};

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
    #[error("unique constraint violated{}", constraint.as_deref().map(|c| format!(": {c}")).unwrap_or_default())]
    Conflict {
        /// The constraint or unique index that fired, when the database said which: its name on
        /// Postgres, `table(columns)` on SQLite (whose message names only those); `None` for a
        /// conflict the server found itself (a lost compare-and-swap).
        constraint: Option<String>,
    },
    /// A row the write refers to is gone: a concurrent change deleted it (a user deleted over
    /// `/v1` while they were signing in).
    #[error("a referenced row was deleted concurrently")]
    Vanished,
    /// A stored JSON document (a challenge's payload) did not read back as its type.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
}

impl DbError {
    /// A stored document that does not parse (or a value that does not serialise).
    pub fn corrupt(error: impl std::fmt::Display) -> Self {
        DbError::Corrupt(error.to_string())
    }
}

impl From<sqlx::Error> for DbError {
    fn from(error: sqlx::Error) -> Self {
        match error.as_database_error() {
            Some(database) if database.is_unique_violation() => DbError::Conflict {
                constraint: database
                    .constraint()
                    .map(str::to_string)
                    .or_else(|| sqlite_unique_columns(database.message())),
            },
            Some(database) if database.is_foreign_key_violation() => DbError::Vanished,
            _ => DbError::Sqlx(error),
        }
    }
}

/// `table(col, col)` from SQLite's "UNIQUE constraint failed: table.col, table.col" (SQLite names
/// the columns, not the constraint).
fn sqlite_unique_columns(message: &str) -> Option<String> {
    let columns = message.strip_prefix("UNIQUE constraint failed: ")?;
    let mut table = None;
    let mut names = Vec::new();
    for column in columns.split(", ") {
        let (of, name) = column.split_once('.')?;
        table.get_or_insert(of);
        names.push(name);
    }
    Some(format!("{}({})", table?, names.join(", ")))
}

/// Connection pools to the server's database. Cheap to clone.
///
/// SQLite allows one writer at a time, so on SQLite writes go through their own pool of one
/// connection: concurrent writers then queue in that pool (async, first come first served)
/// instead of in SQLite's busy handler, which polls with sleeps of up to 100 ms. Reads use a
/// separate pool (WAL lets them run during a write) whose connections are `query_only`, so a
/// write sent to the wrong pool fails loudly. On Postgres both are the same pool.
#[derive(Debug, Clone)]
pub struct Db {
    pool: AnyPool,
    writer: AnyPool,
    /// Postgres rather than SQLite: for the few statements whose SQL differs (JSON operators).
    postgres: bool,
    /// Wakes the webhook worker when a change wrote a delivery (`webhooks::record_events`).
    outbox: std::sync::Arc<tokio::sync::Notify>,
}

/// SQLite reader connections: one per core (2 to 8). Each SQLite connection is a thread in
/// sqlx, reads take microseconds, and more threads than cores only add context switches.
fn sqlite_readers() -> u32 {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8) as u32)
}

impl Db {
    /// Connects to `url` (`sqlite://…` or `postgres://…`).
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        sqlx::any::install_default_drivers();
        if !url.starts_with("sqlite:") {
            if let Some(warning) = postgres_tls_warning(url) {
                tracing::warn!("{warning}");
            }
            let pool = AnyPoolOptions::new()
                .max_connections(10)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await?;
            return Ok(Self {
                writer: pool.clone(),
                pool,
                postgres: true,
                outbox: Default::default(),
            });
        }
        // The writer connects first: it switches the file to WAL (a persistent setting).
        let writer = sqlite_pool(1, false).connect(url).await?;
        let pool = sqlite_pool(sqlite_readers(), true).connect(url).await?;
        Ok(Self {
            pool,
            writer,
            postgres: false,
            outbox: Default::default(),
        })
    }

    /// Applies the embedded migrations (`crates/server/migrations`).
    pub async fn migrate(&self) -> Result<(), DbError> {
        migrations::migrator(None).run(&self.writer).await?;
        Ok(())
    }

    /// The pool for reads (on Postgres, for everything).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The pool for writes and transactions that write.
    pub fn writer(&self) -> &AnyPool {
        &self.writer
    }

    /// Whether the database is Postgres (else SQLite).
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }
}

/// A warning when `url` reaches a Postgres server over the network without requiring TLS.
///
/// TLS comes from the URL's `sslmode` (sqlx with rustls and the webpki roots; `sslrootcert` names
/// a private CA). Without `sslmode`, sqlx uses `prefer`: TLS when the server offers it, else plain
/// text, so an attacker on the path can downgrade it. Loopback hosts and Unix sockets are local.
pub fn postgres_tls_warning(url: &str) -> Option<String> {
    let options = PgConnectOptions::from_str(url).ok()?;
    let host = options.get_host();
    let local = options.get_socket().is_some()
        || host.starts_with('/')
        || host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    let enforced = matches!(
        options.get_ssl_mode(),
        PgSslMode::Require | PgSslMode::VerifyCa | PgSslMode::VerifyFull
    );
    (!local && !enforced).then(|| {
        format!(
            "Postgres at {host} is not on this machine and its URL does not require TLS; \
             add sslmode=verify-full (or sslmode=require) to DATABASE_URL"
        )
    })
}

/// Options for a SQLite pool of `size` connections.
///
/// WAL lets readers work during a write. `synchronous = NORMAL` (WAL's recommended level) syncs
/// the WAL at checkpoints rather than at every commit: a commit survives a crash of the server,
/// and the database stays consistent on power loss, but the last commits before a power loss
/// may be lost. FULL would add a disk flush to every login, refresh and logout, and SQLite's
/// single writer would wait for each. The busy timeout covers other processes (`symbolon apps
/// create`) writing to the same file.
fn sqlite_pool(size: u32, read_only: bool) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(size)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        // A ping before each use is a round trip to the connection's thread; a local file
        // connection does not go stale the way a network connection does.
        .test_before_acquire(false)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                let pragmas: &[&'static str] = if read_only {
                    &[
                        "PRAGMA busy_timeout = 5000",
                        "PRAGMA foreign_keys = ON",
                        "PRAGMA query_only = ON",
                    ]
                } else {
                    &[
                        "PRAGMA journal_mode = WAL",
                        "PRAGMA synchronous = NORMAL",
                        "PRAGMA busy_timeout = 5000",
                        "PRAGMA foreign_keys = ON",
                    ]
                };
                for pragma in pragmas {
                    sqlx::query(*pragma).execute(&mut *conn).await?;
                }
                Ok(())
            })
        })
}

impl From<DbError> for AppError {
    fn from(error: DbError) -> Self {
        match error {
            DbError::Conflict { .. } => Self::new(
                ServerErrorCode::ResourceConflict,
                "A concurrent change conflicted; retry",
            ),
            DbError::Vanished => Self::new(
                ServerErrorCode::ResourceConflict,
                "The user was deleted meanwhile; sign in again",
            ),
            other => Self::internal(&other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{postgres_tls_warning, sqlite_unique_columns};

    #[test]
    fn sqlite_unique_messages_name_the_table_and_columns() {
        assert_eq!(
            sqlite_unique_columns(
                "UNIQUE constraint failed: linked_accounts.app_id, linked_accounts.account_type, linked_accounts.subject"
            )
            .as_deref(),
            Some("linked_accounts(app_id, account_type, subject)")
        );
        assert_eq!(
            sqlite_unique_columns("UNIQUE constraint failed: challenges.kind, challenges.key_hash")
                .as_deref(),
            Some("challenges(kind, key_hash)")
        );
        assert_eq!(sqlite_unique_columns("database is locked"), None);
    }

    #[test]
    fn remote_postgres_without_required_tls_is_warned_about() {
        for url in [
            "postgres://u:p@db.example.com/symbolon",
            "postgres://u:p@db.example.com/symbolon?sslmode=prefer",
            "postgres://u:p@10.0.0.5:5432/symbolon?sslmode=disable",
            "postgres://u:p@[2001:db8::5]/symbolon?sslmode=allow",
        ] {
            let warning = postgres_tls_warning(url);
            assert!(
                warning
                    .as_deref()
                    .is_some_and(|w| w.contains("sslmode=verify-full")),
                "{url}: {warning:?}"
            );
        }
        for url in [
            "postgres://u:p@db.example.com/symbolon?sslmode=require",
            "postgres://u:p@db.example.com/symbolon?sslmode=verify-ca",
            "postgres://u:p@db.example.com/symbolon?sslmode=verify-full",
            "postgres://u:p@localhost/symbolon",
            "postgres://u:p@127.0.0.1:5433/symbolon?sslmode=disable",
            "postgres://u:p@[::1]/symbolon",
            "postgres:///symbolon?host=/var/run/postgresql",
        ] {
            assert_eq!(postgres_tls_warning(url), None, "{url}");
        }
    }
}
