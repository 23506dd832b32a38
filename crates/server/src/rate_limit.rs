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
