//! What the signer remembers, in one SQLite file of its own beside its key: which consents are live
//! or revoked (a revoked consent stays refused even if its ciphertext is shown again, e.g. from an
//! old copy of the main server's database), which signed requests were used (each at most once,
//! until its deadline) and what each delegated wallet spent per aggregation over the last 72 hours
//! (the per-day limits). Every change is one conditional statement, or, for a spend, one
//! `BEGIN IMMEDIATE` transaction that reads the window, lets the policies judge and records.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use ruint::aliases::U256;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Row, Sqlite, SqlitePool, Transaction};

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
CREATE TABLE IF NOT EXISTS spends (
    address TEXT NOT NULL,
    aggregation_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    spent_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS spends_window ON spends (address, aggregation_id, spent_at);
CREATE TABLE IF NOT EXISTS spend_totals (
    address TEXT NOT NULL,
    aggregation_id TEXT NOT NULL,
    window_ms INTEGER NOT NULL,
    total TEXT NOT NULL,
    counted_after INTEGER NOT NULL,
    PRIMARY KEY (address, aggregation_id, window_ms)
);
";

/// How long a spend is kept: the longest aggregation window (72 hours).
pub const SPEND_RETENTION_MS: i64 = 72 * 60 * 60 * 1000;

/// The spends of a wallet for an aggregation within `(from, to]`.
const SPENDS_BETWEEN: &str = "SELECT amount FROM spends WHERE address = ? AND aggregation_id = ? AND spent_at > ? AND spent_at <= ?";
/// A window's running total: the sum of the spends after `counted_after`.
const READ_TOTAL: &str = "SELECT total, counted_after FROM spend_totals WHERE address = ? AND aggregation_id = ? AND window_ms = ?";
const WRITE_TOTAL: &str = "INSERT INTO spend_totals (address, aggregation_id, window_ms, total, counted_after) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (address, aggregation_id, window_ms) DO UPDATE SET total = excluded.total, counted_after = excluded.counted_after";
const RECORD_SPEND: &str =
    "INSERT INTO spends (address, aggregation_id, amount, spent_at) VALUES (?, ?, ?, ?)";

/// An aggregation a spend is summed for: its id and its window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// The aggregation's id.
    pub aggregation_id: String,
    /// Its rolling window, in milliseconds.
    pub window_ms: i64,
}

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

    /// Spends `amount` from `address` (any case) for each of `tallies`, if `judge` allows it, as one
    /// `BEGIN IMMEDIATE` transaction: concurrent spends of the wallet run one after another, each
    /// judged on the sums the others left. `judge` gets each aggregation's sum over its window as of
    /// `now_ms` (without this spend) and says whether to record the spend (`true`) and what to
    /// answer; refused, nothing is written (ROLLBACK, as on every error).
    pub async fn spend_within<T>(
        &self,
        address: &str,
        tallies: &[Tally],
        amount: U256,
        now_ms: i64,
        judge: impl FnOnce(&BTreeMap<String, U256>) -> (bool, T),
    ) -> Result<T, SignerError> {
        let address = address.to_ascii_lowercase();
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let sums = match window_sums(&mut tx, &address, tallies, now_ms).await {
            Ok(sums) => sums,
            Err(error) => return Err(rolled_back(tx, error).await),
        };
        let (record, answer) = judge(&sums);
        if !record {
            tx.rollback().await?;
            return Ok(answer);
        }
        for tally in tallies {
            let total = sums
                .get(&tally.aggregation_id)
                .copied()
                .unwrap_or(U256::ZERO)
                .saturating_add(amount);
            let recorded = record_spend(&mut tx, &address, tally, amount, total, now_ms).await;
            if let Err(error) = recorded {
                return Err(rolled_back(tx, error).await);
            }
        }
        tx.commit().await?;
        Ok(answer)
    }

    /// Forgets used requests past their deadline (they are refused as expired anyway) and spends
    /// older than the longest window.
    pub async fn sweep(&self, now_ms: i64) -> Result<u64, SignerError> {
        let used = sqlx::query("DELETE FROM used_requests WHERE expires_at < ?")
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        let spent = sqlx::query("DELETE FROM spends WHERE spent_at < ?")
            .bind(now_ms.saturating_sub(SPEND_RETENTION_MS))
            .execute(&self.pool)
            .await?;
        Ok(used.rows_affected() + spent.rows_affected())
    }
}

/// Each tally's sum of `address`'s spends within its window as of `now_ms`, from its running
/// total: only the spends that left the window since the last request are read (and subtracted),
/// so a request costs the same however many spends the window holds. A total last moved before
/// the oldest kept spend (the sweep may have dropped what it would subtract), or after `now_ms`
/// (the clock went back), is summed again from the spends.
async fn window_sums(
    tx: &mut Transaction<'static, Sqlite>,
    address: &str,
    tallies: &[Tally],
    now_ms: i64,
) -> Result<BTreeMap<String, U256>, SignerError> {
    let mut sums = BTreeMap::new();
    for tally in tallies {
        let cutoff = now_ms.saturating_sub(tally.window_ms);
        let stored = sqlx::query(READ_TOTAL)
            .bind(address)
            .bind(&tally.aggregation_id)
            .bind(tally.window_ms)
            .fetch_optional(&mut **tx)
            .await?;
        let kept_from = now_ms.saturating_sub(SPEND_RETENTION_MS);
        let total = match stored {
            Some(row) => {
                let (total, counted_after): (String, i64) = (row.try_get(0)?, row.try_get(1)?);
                if counted_after < kept_from || counted_after > cutoff {
                    None
                } else {
                    let left =
                        sum_between(tx, address, &tally.aggregation_id, counted_after, cutoff)
                            .await?;
                    Some(parse_amount(&total)?.saturating_sub(left))
                }
            }
            None => None,
        };
        let total = match total {
            Some(total) => total,
            None => sum_between(tx, address, &tally.aggregation_id, cutoff, i64::MAX).await?,
        };
        sqlx::query(WRITE_TOTAL)
            .bind(address)
            .bind(&tally.aggregation_id)
            .bind(tally.window_ms)
            .bind(total.to_string())
            .bind(cutoff)
            .execute(&mut **tx)
            .await?;
        sums.insert(tally.aggregation_id.clone(), total);
    }
    Ok(sums)
}

/// The sum of `address`'s spends for `aggregation_id` within `(from, to]`.
async fn sum_between(
    tx: &mut Transaction<'static, Sqlite>,
    address: &str,
    aggregation_id: &str,
    from: i64,
    to: i64,
) -> Result<U256, SignerError> {
    let rows = sqlx::query(SPENDS_BETWEEN)
        .bind(address)
        .bind(aggregation_id)
        .bind(from)
        .bind(to)
        .fetch_all(&mut **tx)
        .await?;
    let mut sum = U256::ZERO;
    for row in rows {
        sum = sum.saturating_add(parse_amount(&row.try_get::<String, _>(0)?)?);
    }
    Ok(sum)
}

fn parse_amount(text: &str) -> Result<U256, SignerError> {
    U256::from_str_radix(text, 10).map_err(|e| {
        SignerError::internal(&std::io::Error::other(format!(
            "a stored spend is not a number: {e}"
        )))
    })
}

/// Records a spend and its window's new running total.
async fn record_spend(
    tx: &mut Transaction<'static, Sqlite>,
    address: &str,
    tally: &Tally,
    amount: U256,
    total: U256,
    now_ms: i64,
) -> Result<(), SignerError> {
    sqlx::query(RECORD_SPEND)
        .bind(address)
        .bind(&tally.aggregation_id)
        .bind(amount.to_string())
        .bind(now_ms)
        .execute(&mut **tx)
        .await?;
    sqlx::query(WRITE_TOTAL)
        .bind(address)
        .bind(&tally.aggregation_id)
        .bind(tally.window_ms)
        .bind(total.to_string())
        .bind(now_ms.saturating_sub(tally.window_ms))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Rolls `tx` back after `error` (a failed rollback is logged; SQLite also rolls back when the
/// connection drops it) and gives the error back.
async fn rolled_back(tx: Transaction<'static, Sqlite>, error: SignerError) -> SignerError {
    if let Err(rollback) = tx.rollback().await {
        tracing::warn!(error = %rollback, "signer spend rollback failed");
    }
    error
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    async fn file_store() -> (Store, std::path::PathBuf) {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "symbolon-signer-store-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        (Store::open(&dir.join("signer.db")).await.unwrap(), dir)
    }

    const DAY_MS: i64 = 24 * 60 * 60 * 1000;

    fn day() -> Vec<Tally> {
        vec![Tally {
            aggregation_id: "day".into(),
            window_ms: DAY_MS,
        }]
    }

    /// Spends 3 of a budget of 10 (judged on the sum with the spend).
    async fn spend(store: &Store, address: &str, now_ms: i64) -> bool {
        let amount = U256::from(3);
        store
            .spend_within(address, &day(), amount, now_ms, |sums| {
                let allowed = sums["day"] + amount <= U256::from(10);
                (allowed, allowed)
            })
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn concurrent_spends_are_judged_one_after_another_within_the_window() {
        let (store, dir) = file_store().await;
        let now = 1_800_000_000_000;
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..8 {
            let store = store.clone();
            tasks.spawn(async move { spend(&store, "0xABCD", now).await });
        }
        let mut allowed = 0;
        while let Some(done) = tasks.join_next().await {
            allowed += usize::from(done.unwrap());
        }
        assert_eq!(allowed, 3, "3 × 3 fit a budget of 10, the fourth does not");
        // A refused spend wrote nothing; the address is one key in any case.
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM spends WHERE address = '0xabcd'")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(rows, 3);
        assert!(!spend(&store, "0xabcd", now + 1).await);
        assert!(spend(&store, "0xother", now).await, "another wallet");
        // A day later the window is empty again; 72 hours later the sweep forgets them.
        assert!(spend(&store, "0xabcd", now + DAY_MS).await);
        store.sweep(now + SPEND_RETENTION_MS + 1).await.unwrap();
        let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM spends")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(rows, 1, "only the spend of the next day is kept");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn amounts_are_summed_in_256_bits() {
        let (store, dir) = file_store().await;
        let big = U256::from(1u8) << 200;
        for _ in 0..2 {
            store
                .spend_within("0xab", &day(), big, 0, |_| (true, ()))
                .await
                .unwrap();
        }
        let sums = store
            .spend_within("0xab", &day(), U256::ZERO, 1, |sums| (false, sums.clone()))
            .await
            .unwrap();
        assert_eq!(sums["day"], big + big);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn spends_leave_the_running_total_as_they_leave_the_window() {
        let store = Store::open(Path::new(":memory:")).await.unwrap();
        let hour = 60 * 60 * 1000;
        let sum_at = |at: i64| {
            let store = store.clone();
            async move {
                store
                    .spend_within("0xab", &day(), U256::ZERO, at, |sums| (false, sums["day"]))
                    .await
                    .unwrap()
            }
        };
        assert!(spend(&store, "0xab", 0).await);
        assert!(spend(&store, "0xab", hour).await);
        assert!(spend(&store, "0xab", 2 * hour).await);
        assert_eq!(sum_at(2 * hour).await, U256::from(9));
        assert!(!spend(&store, "0xab", 3 * hour).await, "9 + 3 > 10");
        assert_eq!(
            sum_at(DAY_MS + 1).await,
            U256::from(6),
            "the first left the window"
        );
        assert_eq!(sum_at(DAY_MS + hour + 1).await, U256::from(3));
        assert!(spend(&store, "0xab", DAY_MS + hour + 1).await);
        assert_eq!(sum_at(DAY_MS + hour + 2).await, U256::from(6));
        // Long after (past the kept spends): summed again from what is left, not from the total.
        assert_eq!(sum_at(10 * DAY_MS).await, U256::ZERO);
        // The clock went back: summed again rather than trusting a total from the future.
        assert_eq!(sum_at(DAY_MS + hour + 3).await, U256::from(6));
    }
}
