//! In-memory fixed-window rate limiting (per process; see docs/server.md for multi-instance notes).
//!
//! Bounded by construction: keys are spread over [`SHARDS`] independently locked shards (a
//! random-keyed hash, so a client cannot aim at one shard), each holding at most a fixed number of
//! windows. Inside a shard, windows sit in a queue in the order they started; since every window
//! has the same length, the front of the queue is always the next to expire, so expiry pops from
//! the front (O(1) amortised per hit, never a scan of the map).
//!
//! Trade-off when a shard is full of live windows (more distinct keys inside one window than the
//! capacity, i.e. a flood of fresh keys): the oldest window is evicted, so that key's count starts
//! over. The limiter then fails open for the keys pushed out, never closed for everyone: refusing
//! new keys instead would let one client with many addresses lock every other user out. The
//! capacity is set far above what honest traffic produces in one window.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

/// Independently locked shards.
const SHARDS: usize = 16;

/// Windows kept across all shards by [`RateLimiter::new`].
pub const DEFAULT_CAPACITY: usize = 65_536;

/// Counts events per key in windows of `window_s` seconds starting at a key's first event.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window_s: i64,
    per_shard: usize,
    hasher: RandomState,
    shards: Vec<Mutex<Shard>>,
}

/// Refused: retry after this many seconds (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

/// One key's current window.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: i64,
    count: u32,
}

#[derive(Debug, Default)]
struct Shard {
    windows: HashMap<Arc<str>, Window>,
    /// `(key, start)` per window in start order. An entry whose window was since replaced (the key
    /// came back after expiry) is stale; it is older than the live one, so it is popped first.
    order: VecDeque<(Arc<str>, i64)>,
}

impl Shard {
    /// Drops every window that has ended by `now`.
    fn expire(&mut self, now: i64, window_s: i64) {
        while let Some((key, start)) = self.order.front() {
            if now < start.saturating_add(window_s) {
                break;
            }
            if self.windows.get(key).is_some_and(|w| w.start == *start) {
                self.windows.remove(key);
            }
            self.order.pop_front();
        }
    }

    /// Evicts the oldest live window.
    fn evict_oldest(&mut self) {
        while let Some((key, start)) = self.order.pop_front() {
            if self.windows.get(&key).is_some_and(|w| w.start == start) {
                self.windows.remove(&key);
                return;
            }
        }
    }
}

impl RateLimiter {
    /// At most `limit` events per `window_s` seconds per key, remembering up to
    /// [`DEFAULT_CAPACITY`] keys.
    pub fn new(limit: u32, window_s: u64) -> Self {
        Self::with_capacity(limit, window_s, DEFAULT_CAPACITY)
    }

    /// Like [`Self::new`], remembering up to `capacity` keys (rounded up to a multiple of the
    /// shard count; at least one per shard).
    pub fn with_capacity(limit: u32, window_s: u64, capacity: usize) -> Self {
        Self {
            limit,
            window_s: i64::try_from(window_s).unwrap_or(i64::MAX),
            per_shard: capacity.div_ceil(SHARDS).max(1),
            hasher: RandomState::new(),
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
        }
    }

    /// The most keys this limiter remembers at once.
    pub fn capacity(&self) -> usize {
        self.per_shard * SHARDS
    }

    /// Keys currently remembered (windows not yet dropped).
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).windows.len()).sum()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Counts one event for `key` at `now`, or refuses it without counting.
    pub fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        let index = (self.hasher.hash_one(key) as usize) % SHARDS;
        let Some(shard) = self.shards.get(index) else {
            return Ok(());
        };
        let mut shard = lock(shard);
        shard.expire(now, self.window_s);
        if let Some(window) = shard.windows.get_mut(key) {
            if window.count >= self.limit {
                let wait = window.start.saturating_add(self.window_s) - now;
                return Err(RetryAfter(u64::try_from(wait.max(1)).unwrap_or(1)));
            }
            window.count += 1;
            return Ok(());
        }
        if self.limit == 0 {
            return Err(RetryAfter(u64::try_from(self.window_s.max(1)).unwrap_or(1)));
        }
        if shard.windows.len() >= self.per_shard {
            shard.evict_oldest();
        }
        let key: Arc<str> = Arc::from(key);
        shard.windows.insert(
            Arc::clone(&key),
            Window {
                start: now,
                count: 1,
            },
        );
        shard.order.push_back((key, now));
        Ok(())
    }
}

/// A budget of `burst` events per key that refills steadily (`burst` every `refill_s` seconds):
/// the generic cell rate algorithm, one "theoretical arrival time" per key, in milliseconds. A
/// spent budget waits for one event's refill (`refill_s / burst`), never for a whole window: a
/// shared network that used its burst gets its next event seconds later, not minutes.
///
/// Memory is bounded like [`RateLimiter`]'s: [`SHARDS`] shards with a fixed number of keys each,
/// forgotten once their budget is whole again (at most `refill_s` after their last event), the
/// oldest evicted when a shard is full (failing open for that key, never closed for everyone).
#[derive(Debug)]
pub struct BurstLimiter {
    burst: u32,
    /// Milliseconds one event's budget takes to come back.
    interval_ms: i64,
    refill_ms: i64,
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

impl BurstLimiter {
    /// `burst` events at once per key, coming back at `burst` per `refill_s` seconds, remembering
    /// up to [`DEFAULT_CAPACITY`] keys.
    pub fn new(burst: u32, refill_s: u64) -> Self {
        Self::with_capacity(burst, refill_s, DEFAULT_CAPACITY)
    }

    /// Like [`Self::new`], remembering up to `capacity` keys.
    pub fn with_capacity(burst: u32, refill_s: u64, capacity: usize) -> Self {
        let refill_ms = i64::try_from(refill_s)
            .unwrap_or(i64::MAX / 2_000)
            .min(i64::MAX / 2_000)
            .saturating_mul(1_000);
        Self {
            burst,
            interval_ms: (refill_ms / i64::from(burst.max(1))).max(1),
            refill_ms,
            per_shard: capacity.div_ceil(SHARDS).max(1),
            hasher: RandomState::new(),
            shards: (0..SHARDS)
                .map(|_| Mutex::new(BurstShard::default()))
                .collect(),
        }
    }

    /// The events a key may spend at once.
    pub fn burst(&self) -> u32 {
        self.burst
    }

    /// Keys currently remembered.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| lock_burst(s).tats.len()).sum()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Counts one event for `key` at `now` (unix seconds), or refuses it without counting.
    pub fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        if self.burst == 0 {
            return Err(RetryAfter(
                u64::try_from(self.refill_ms / 1_000).unwrap_or(1).max(1),
            ));
        }
        let now_ms = now.saturating_mul(1_000);
        let index = (self.hasher.hash_one(key) as usize) % SHARDS;
        let Some(shard) = self.shards.get(index) else {
            return Ok(());
        };
        let mut shard = lock_burst(shard);
        shard.expire(now_ms);
        let tolerance = self.refill_ms - self.interval_ms;
        let tat = shard.tats.get(key).copied().unwrap_or(now_ms).max(now_ms);
        if tat - tolerance > now_ms {
            let wait_ms = tat - tolerance - now_ms;
            return Err(RetryAfter(
                u64::try_from((wait_ms + 999) / 1_000).unwrap_or(1).max(1),
            ));
        }
        let next = tat + self.interval_ms;
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

fn lock_burst(shard: &Mutex<BurstShard>) -> std::sync::MutexGuard<'_, BurstShard> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The per-client-network budgets (keyed by [`crate::http::client_ip::ClientIp::network_key`]).
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
}

impl IpLimits {
    /// `starts` per method (`sms` for texts, which cost money) and `checks` credential checks, each
    /// a burst refilled over `refill_s`.
    pub fn new(starts: u32, sms: u32, checks: u32, refill_s: u64) -> Self {
        Self {
            email: BurstLimiter::new(starts, refill_s),
            sms: BurstLimiter::new(sms, refill_s),
            mfa_sms: BurstLimiter::new(sms, refill_s),
            oauth: BurstLimiter::new(starts, refill_s),
            passkey: BurstLimiter::new(starts, refill_s),
            wallet: BurstLimiter::new(starts, refill_s),
            farcaster: BurstLimiter::new(starts, refill_s),
            authenticate: BurstLimiter::new(checks, refill_s),
        }
    }
}

/// A shard's lock; a panic elsewhere while holding it leaves counts that are still usable.
fn lock(shard: &Mutex<Shard>) -> std::sync::MutexGuard<'_, Shard> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_over_the_limit_until_the_window_ends() {
        let limiter = RateLimiter::new(2, 60);
        assert_eq!(limiter.hit("a", 100), Ok(()));
        assert_eq!(limiter.hit("a", 110), Ok(()));
        assert_eq!(limiter.hit("a", 120), Err(RetryAfter(40)));
        assert_eq!(limiter.hit("b", 120), Ok(()));
        assert_eq!(limiter.hit("a", 160), Ok(()));
        assert_eq!(limiter.hit("a", 170), Ok(()));
        assert_eq!(limiter.hit("a", 180), Err(RetryAfter(40)));
    }

    #[test]
    fn stays_bounded_under_100k_distinct_keys() {
        let limiter = RateLimiter::new(1, 600);
        for n in 0..100_000 {
            assert_eq!(
                limiter.hit(
                    &format!("10.{}.{}.{}", n >> 16, (n >> 8) & 255, n & 255),
                    1_000
                ),
                Ok(())
            );
        }
        assert!(
            limiter.len() <= limiter.capacity(),
            "{} keys kept, capacity {}",
            limiter.len(),
            limiter.capacity()
        );
        assert_eq!(limiter.capacity(), DEFAULT_CAPACITY);
        // The newest keys are still limited: the flood evicted only the oldest windows.
        assert!(limiter.hit("10.1.134.159", 1_001).is_err());
        // And a key arriving after the flood is limited as usual.
        assert_eq!(limiter.hit("victim", 1_001), Ok(()));
        assert_eq!(limiter.hit("victim", 1_002), Err(RetryAfter(599)));
    }

    #[test]
    fn ended_windows_are_dropped_without_a_full_map() {
        let limiter = RateLimiter::with_capacity(1, 10, 100_000);
        for n in 0..500 {
            limiter.hit(&format!("k{n}"), 0).expect("first hit");
        }
        assert_eq!(limiter.len(), 500);
        // After the window ends the same keys start new windows (the old ones are gone).
        for n in 0..500 {
            limiter.hit(&format!("k{n}"), 10).expect("new window");
        }
        assert_eq!(limiter.len(), 500);
        // Fresh keys later drop the ended windows of every shard they land in (2,000 keys reach
        // all 16 shards), long before any shard is full.
        for n in 0..2_000 {
            limiter.hit(&format!("later{n}"), 25).expect("fresh key");
        }
        assert_eq!(limiter.len(), 2_000);
    }

    #[test]
    fn a_burst_then_one_event_per_interval() {
        // 6 at once, then one every 10 s (6 per minute).
        let limiter = BurstLimiter::new(6, 60);
        for _ in 0..6 {
            assert_eq!(limiter.hit("net", 1_000), Ok(()));
        }
        assert_eq!(limiter.hit("net", 1_000), Err(RetryAfter(10)));
        assert_eq!(limiter.hit("other", 1_000), Ok(()));
        assert_eq!(limiter.hit("net", 1_004), Err(RetryAfter(6)));
        assert_eq!(limiter.hit("net", 1_010), Ok(()));
        assert_eq!(limiter.hit("net", 1_010), Err(RetryAfter(10)));
        // A quiet minute gives the whole burst back.
        for _ in 0..6 {
            assert_eq!(limiter.hit("net", 1_080), Ok(()));
        }
        assert!(limiter.hit("net", 1_080).is_err());
    }

    #[test]
    fn burst_limiter_stays_bounded_and_exact_across_threads() {
        let limiter = BurstLimiter::with_capacity(1, 600, 1_024);
        for n in 0..50_000 {
            assert_eq!(limiter.hit(&format!("k{n}"), 1_000), Ok(()));
        }
        assert!(limiter.len() <= 1_024, "{} keys", limiter.len());
        let limiter = Arc::new(BurstLimiter::new(50, 600));
        let threads: Vec<_> = (0..16)
            .map(|_| {
                let limiter = Arc::clone(&limiter);
                std::thread::spawn(move || {
                    (0..100)
                        .filter(|_| limiter.hit("one key", 1_000).is_ok())
                        .count()
                })
            })
            .collect();
        let allowed: usize = threads.into_iter().map(|t| t.join().expect("thread")).sum();
        assert_eq!(allowed, 50);
    }

    #[test]
    fn exactly_limit_hits_succeed_across_threads() {
        let limiter = Arc::new(RateLimiter::new(50, 600));
        let threads: Vec<_> = (0..16)
            .map(|_| {
                let limiter = Arc::clone(&limiter);
                std::thread::spawn(move || {
                    (0..100)
                        .filter(|_| limiter.hit("one key", 1_000).is_ok())
                        .count()
                })
            })
            .collect();
        let allowed: usize = threads.into_iter().map(|t| t.join().expect("thread")).sum();
        assert_eq!(allowed, 50);
    }
}
