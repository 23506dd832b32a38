//! Rate limiting: the per-network budgets of each login method's starts and of credential checks
//! ([`IpLimits`]), each a [`BurstLimiter`] over a [`Limiter`]: [`MemoryLimiter`] (per process, the
//! default) or [`DatabaseLimiter`] (one budget shared by every instance over one database;
//! `SYMBOLON_RATE_LIMIT_STORE=database`, docs/server.md). Both run the same generic cell rate
//! algorithm.
//!
//! The in-memory limiter is bounded by construction: keys are spread over [`SHARDS`] independently locked shards (a
//! random-keyed hash, so a client cannot aim at one shard), each holding at most a fixed number of
//! keys. When a shard is full of live keys (a flood of fresh keys), the oldest is evicted, so that
//! key's budget starts over: the limiter fails open for the keys pushed out, never closed for
//! everyone — refusing new keys instead would let one client with many addresses lock every other
//! user out. The capacity is set far above what honest traffic produces.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

use crate::config::{LimiterStore, RateLimitConfig};
use crate::db::{Db, DbError};

/// Independently locked shards.
const SHARDS: usize = 16;

/// Keys kept across all shards by [`MemoryLimiter::new`].
pub const DEFAULT_CAPACITY: usize = 65_536;

/// Refused: retry after this many seconds (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

/// A budget of events per key, wherever it is kept.
#[async_trait::async_trait]
pub trait Limiter: Debug + Send + Sync {
    /// Counts one event for `key` at `now` (unix seconds), or refuses it without counting.
    async fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter>;

    /// The events a key may spend at once.
    fn burst(&self) -> u32;
}

/// One budget handlers spend from ([`crate::web::client_ip::ClientIp::spend`]), kept by the
/// configured [`Limiter`].
#[derive(Debug, Clone)]
pub struct BurstLimiter(Arc<dyn Limiter>);

impl BurstLimiter {
    /// A budget kept by `limiter`.
    pub fn over(limiter: impl Limiter + 'static) -> Self {
        Self(Arc::new(limiter))
    }

    /// Counts one event for `key` at `now` (unix seconds), or refuses it without counting.
    pub async fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        self.0.hit(key, now).await
    }

    /// The events a key may spend at once.
    pub fn burst(&self) -> u32 {
        self.0.burst()
    }
}

/// The generic cell rate algorithm's constants for `burst` events per `refill_s` seconds.
#[derive(Debug, Clone, Copy)]
struct Gcra {
    burst: u32,
    /// Milliseconds one event's budget takes to come back.
    interval_ms: i64,
    refill_ms: i64,
}

impl Gcra {
    fn new(burst: u32, refill_s: u64) -> Self {
        let refill_ms = i64::try_from(refill_s)
            .unwrap_or(i64::MAX / 2_000)
            .min(i64::MAX / 2_000)
            .saturating_mul(1_000);
        Self {
            burst,
            interval_ms: (refill_ms / i64::from(burst.max(1))).max(1),
            refill_ms,
        }
    }

    /// How far ahead of now a key's arrival time may run: the burst less one event.
    fn tolerance_ms(&self) -> i64 {
        self.refill_ms - self.interval_ms
    }

    /// The refusal of a zero budget.
    fn closed(&self) -> RetryAfter {
        RetryAfter(u64::try_from(self.refill_ms / 1_000).unwrap_or(1).max(1))
    }

    /// The refusal of a key whose arrival time is `tat` (whole seconds, rounded up).
    fn wait(&self, tat: i64, now_ms: i64) -> RetryAfter {
        let wait_ms = tat - self.tolerance_ms() - now_ms;
        RetryAfter(u64::try_from((wait_ms + 999) / 1_000).unwrap_or(1).max(1))
    }
}

/// A budget of `burst` events per key that refills steadily (`burst` every `refill_s` seconds):
/// the generic cell rate algorithm, one "theoretical arrival time" per key, in milliseconds. A
/// spent budget waits for one event's refill (`refill_s / burst`), never for a whole window: a
/// shared network that used its burst gets its next event seconds later, not minutes.
///
/// Memory is bounded (module docs): [`SHARDS`] shards with a fixed number of keys each,
/// forgotten once their budget is whole again (at most `refill_s` after their last event), the
/// oldest evicted when a shard is full (failing open for that key, never closed for everyone).
#[derive(Debug)]
pub struct MemoryLimiter {
    gcra: Gcra,
    per_shard: usize,
    hasher: RandomState,
    shards: Vec<Mutex<BurstShard>>,
}

#[derive(Debug, Default)]
struct BurstShard {
    /// Each key's theoretical arrival time (ms): the budget is whole again at `tat`.
    tats: HashMap<Arc<str>, i64>,
    /// `(key, tat)` in the order events were counted; an entry whose `tat` is no longer the key's
    /// is stale. An entry is due once `tat <= now` (the budget is whole: forgetting loses nothing).
    order: VecDeque<(Arc<str>, i64)>,
}

impl BurstShard {
    /// Forgets keys whose budget is whole again, from the front of the queue: a stale entry is
    /// dropped, a live one once due; the first live entry not yet due stops the walk (it is due
    /// within `refill_s`, so nothing waits behind it longer than that).
    fn expire(&mut self, now_ms: i64) {
        while let Some((key, tat)) = self.order.front() {
            let live = self.tats.get(key) == Some(tat);
            if live && *tat > now_ms {
                break;
            }
            if live {
                self.tats.remove(key);
            }
            self.order.pop_front();
        }
    }

    /// Drops stale entries when the queue has grown far past the live keys.
    fn compact(&mut self, per_shard: usize) {
        if self.order.len() > per_shard.saturating_mul(4).max(64) {
            let tats = &self.tats;
            self.order.retain(|(key, tat)| tats.get(key) == Some(tat));
        }
    }

    fn evict_oldest(&mut self) {
        while let Some((key, tat)) = self.order.pop_front() {
            if self.tats.get(&key) == Some(&tat) {
                self.tats.remove(&key);
                return;
            }
        }
    }
}

impl MemoryLimiter {
    /// `burst` events at once per key, coming back at `burst` per `refill_s` seconds, remembering
    /// up to [`DEFAULT_CAPACITY`] keys.
    pub fn new(burst: u32, refill_s: u64) -> Self {
        Self::with_capacity(burst, refill_s, DEFAULT_CAPACITY)
    }

    /// Like [`Self::new`], remembering up to `capacity` keys.
    pub fn with_capacity(burst: u32, refill_s: u64, capacity: usize) -> Self {
        Self {
            gcra: Gcra::new(burst, refill_s),
            per_shard: capacity.div_ceil(SHARDS).max(1),
            hasher: RandomState::new(),
            shards: (0..SHARDS)
                .map(|_| Mutex::new(BurstShard::default()))
                .collect(),
        }
    }

    /// Keys currently remembered.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).tats.len()).sum()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Counts one event for `key` at `now` (unix seconds), or refuses it without counting.
    pub fn hit_now(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        let gcra = self.gcra;
        if gcra.burst == 0 {
            return Err(gcra.closed());
        }
        let now_ms = now.saturating_mul(1_000);
        let index = (self.hasher.hash_one(key) as usize) % SHARDS;
        let Some(shard) = self.shards.get(index) else {
            return Ok(());
        };
        let mut shard = lock(shard);
        shard.expire(now_ms);
        let tat = shard.tats.get(key).copied().unwrap_or(now_ms).max(now_ms);
        if tat - gcra.tolerance_ms() > now_ms {
            return Err(gcra.wait(tat, now_ms));
        }
        let next = tat + gcra.interval_ms;
        if !shard.tats.contains_key(key) && shard.tats.len() >= self.per_shard {
            shard.evict_oldest();
        }
        let key: Arc<str> = Arc::from(key);
        shard.tats.insert(Arc::clone(&key), next);
        shard.order.push_back((key, next));
        shard.compact(self.per_shard);
        Ok(())
    }
}

#[async_trait::async_trait]
impl Limiter for MemoryLimiter {
    async fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        self.hit_now(key, now)
    }

    fn burst(&self) -> u32 {
        self.gcra.burst
    }
}

/// A budget kept in the database's `rate_limits` table (migration 0019), so every server instance
/// over one database spends from the same one. Each check is one conditional upsert of the key's
/// arrival time (the same algorithm as [`MemoryLimiter`]), so of concurrent checks exactly the
/// budget passes (Postgres locks the row for the upsert; SQLite has one writer). Rows whose budget
/// is whole again are deleted by the expiry sweeper. A storage failure lets the event through with
/// a warning: the request it guards reaches the same database and fails there anyway.
#[derive(Debug)]
pub struct DatabaseLimiter {
    db: Db,
    /// The budget's name, which keys its rows apart from other budgets'.
    name: &'static str,
    gcra: Gcra,
}

impl DatabaseLimiter {
    /// `burst` events at once per key of budget `name`, coming back at `burst` per `refill_s`
    /// seconds.
    pub fn new(db: Db, name: &'static str, burst: u32, refill_s: u64) -> Self {
        Self {
            db,
            name,
            gcra: Gcra::new(burst, refill_s),
        }
    }

    /// The check: the key's arrival time moves one interval on from max(stored, now) only while
    /// that stays within the tolerance; no row comes back when refused. Then, for a refusal only,
    /// the stored arrival time says how long to wait.
    async fn check(&self, key: &str, now_ms: i64) -> Result<Result<(), RetryAfter>, DbError> {
        let gcra = self.gcra;
        let counted: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO rate_limits (budget, key, tat_ms) VALUES ($1, $2, $3 + $4)
             ON CONFLICT (budget, key) DO UPDATE
             SET tat_ms = CASE WHEN rate_limits.tat_ms > $3 THEN rate_limits.tat_ms ELSE $3 END + $4
             WHERE CASE WHEN rate_limits.tat_ms > $3 THEN rate_limits.tat_ms ELSE $3 END - $5 <= $3
             RETURNING tat_ms",
        )
        .bind(self.name)
        .bind(key)
        .bind(now_ms)
        .bind(gcra.interval_ms)
        .bind(gcra.tolerance_ms())
        .fetch_optional(self.db.writer())
        .await?;
        if counted.is_some() {
            return Ok(Ok(()));
        }
        let stored: Option<(i64,)> =
            sqlx::query_as("SELECT tat_ms FROM rate_limits WHERE budget = $1 AND key = $2")
                .bind(self.name)
                .bind(key)
                .fetch_optional(self.db.writer())
                .await?;
        let tat = stored.map_or(now_ms, |(tat,)| tat.max(now_ms));
        Ok(Err(gcra.wait(tat, now_ms)))
    }
}

#[async_trait::async_trait]
impl Limiter for DatabaseLimiter {
    async fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        if self.gcra.burst == 0 {
            return Err(self.gcra.closed());
        }
        match self.check(key, now.saturating_mul(1_000)).await {
            Ok(decision) => decision,
            Err(error) => {
                tracing::warn!(%error, budget = self.name, "rate limit check failed; letting it through");
                Ok(())
            }
        }
    }

    fn burst(&self) -> u32 {
        self.gcra.burst
    }
}

/// A shard's lock; a panic elsewhere while holding it leaves budgets that are still usable.
fn lock(shard: &Mutex<BurstShard>) -> std::sync::MutexGuard<'_, BurstShard> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Which of [`IpLimits`]' budgets a route spends (declared in its route table row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Email codes sent.
    Email,
    /// SMS codes sent.
    Sms,
    /// MFA codes texted.
    MfaSms,
    /// OAuth flows started.
    OAuth,
    /// Passkey ceremonies started.
    Passkey,
    /// Wallet sign-in nonces.
    Wallet,
    /// Farcaster channels opened.
    Farcaster,
    /// Credentials checked, every method together.
    Authenticate,
}

/// The per-client-network budgets (keyed by [`crate::web::client_ip::ClientIp::network_key`]).
/// Each login method's start has its own, so a network that spent one (say, many email codes from
/// an office) can still use every other method.
#[derive(Debug)]
pub struct IpLimits {
    /// Email codes sent (`/passwordless/init`).
    pub email: BurstLimiter,
    /// SMS codes sent (`/passwordless_sms/init`).
    pub sms: BurstLimiter,
    /// MFA codes texted (`/mfa/passwordless_sms/init`).
    pub mfa_sms: BurstLimiter,
    /// OAuth flows started (`/oauth/init`).
    pub oauth: BurstLimiter,
    /// Passkey ceremonies started.
    pub passkey: BurstLimiter,
    /// Wallet sign-in nonces (`/siwe/init`, `/siws/init`).
    pub wallet: BurstLimiter,
    /// Farcaster channels opened.
    pub farcaster: BurstLimiter,
    /// Credentials checked (codes, signatures, tokens), for every method together.
    pub authenticate: BurstLimiter,
    /// App secrets checked against their slow hash (`/v1`), per app and network
    /// (`crate::api_secrets::SecretChecker`): a secret already checked in this process costs
    /// nothing, so this budget is what guessing spends.
    pub secret_checks: BurstLimiter,
}

impl IpLimits {
    /// The limiter of `budget`.
    pub fn of(&self, budget: Budget) -> &BurstLimiter {
        match budget {
            Budget::Email => &self.email,
            Budget::Sms => &self.sms,
            Budget::MfaSms => &self.mfa_sms,
            Budget::OAuth => &self.oauth,
            Budget::Passkey => &self.passkey,
            Budget::Wallet => &self.wallet,
            Budget::Farcaster => &self.farcaster,
            Budget::Authenticate => &self.authenticate,
        }
    }

    /// `starts` per method (`sms` for texts, which cost money) and `checks` credential checks, each
    /// a burst refilled over `refill_s`, kept in this process's memory.
    pub fn new(starts: u32, sms: u32, checks: u32, refill_s: u64) -> Self {
        Self::with(
            |_, burst| BurstLimiter::over(MemoryLimiter::new(burst, refill_s)),
            starts,
            sms,
            checks,
        )
    }

    /// The same budgets kept in `db`, shared by every instance over it.
    pub fn shared(db: &Db, starts: u32, sms: u32, checks: u32, refill_s: u64) -> Self {
        Self::with(
            |name, burst| {
                BurstLimiter::over(DatabaseLimiter::new(db.clone(), name, burst, refill_s))
            },
            starts,
            sms,
            checks,
        )
    }

    /// The budgets `config` asks for, kept where its `store` says.
    pub fn from_config(config: &RateLimitConfig, db: &Db) -> Self {
        let (starts, sms, checks, refill_s) = (
            config.ip_per_window,
            config.sms_ip_per_window,
            config.ip_authenticate_per_window,
            config.window_s,
        );
        match config.store {
            LimiterStore::Memory => Self::new(starts, sms, checks, refill_s),
            LimiterStore::Database => Self::shared(db, starts, sms, checks, refill_s),
        }
    }

    /// Each budget from `make(name, burst)`.
    fn with(
        make: impl Fn(&'static str, u32) -> BurstLimiter,
        starts: u32,
        sms: u32,
        checks: u32,
    ) -> Self {
        Self {
            email: make("email", starts),
            sms: make("sms", sms),
            mfa_sms: make("mfa_sms", sms),
            oauth: make("oauth", starts),
            passkey: make("passkey", starts),
            wallet: make("wallet", starts),
            farcaster: make("farcaster", starts),
            authenticate: make("authenticate", checks),
            secret_checks: make("secret_checks", checks),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_event_per_interval() {
        // 6 at once, then one every 10 s (6 per minute).
        let limiter = MemoryLimiter::new(6, 60);
        for _ in 0..6 {
            assert_eq!(limiter.hit_now("net", 1_000), Ok(()));
        }
        assert_eq!(limiter.hit_now("net", 1_000), Err(RetryAfter(10)));
        assert_eq!(limiter.hit_now("other", 1_000), Ok(()));
        assert_eq!(limiter.hit_now("net", 1_004), Err(RetryAfter(6)));
        assert_eq!(limiter.hit_now("net", 1_010), Ok(()));
        assert_eq!(limiter.hit_now("net", 1_010), Err(RetryAfter(10)));
        // A quiet minute gives the whole burst back.
        for _ in 0..6 {
            assert_eq!(limiter.hit_now("net", 1_080), Ok(()));
        }
        assert!(limiter.hit_now("net", 1_080).is_err());
    }

    #[test]
    fn burst_limiter_stays_bounded_and_exact_across_threads() {
        let limiter = MemoryLimiter::with_capacity(1, 600, 1_024);
        for n in 0..50_000 {
            assert_eq!(limiter.hit_now(&format!("k{n}"), 1_000), Ok(()));
        }
        assert!(limiter.len() <= 1_024, "{} keys", limiter.len());
        let limiter = Arc::new(MemoryLimiter::new(50, 600));
        let threads: Vec<_> = (0..16)
            .map(|_| {
                let limiter = Arc::clone(&limiter);
                std::thread::spawn(move || {
                    (0..100)
                        .filter(|_| limiter.hit_now("one key", 1_000).is_ok())
                        .count()
                })
            })
            .collect();
        let allowed: usize = threads.into_iter().map(|t| t.join().expect("thread")).sum();
        assert_eq!(allowed, 50);
    }
}
