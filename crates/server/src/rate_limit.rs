//! In-memory rate limiting (per process; see docs/server.md for multi-instance notes): the
//! per-network budgets of each login method's starts and of credential checks ([`IpLimits`]).
//!
//! Bounded by construction: keys are spread over [`SHARDS`] independently locked shards (a
//! random-keyed hash, so a client cannot aim at one shard), each holding at most a fixed number of
//! keys. When a shard is full of live keys (a flood of fresh keys), the oldest is evicted, so that
//! key's budget starts over: the limiter fails open for the keys pushed out, never closed for
//! everyone — refusing new keys instead would let one client with many addresses lock every other
//! user out. The capacity is set far above what honest traffic produces.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

/// Independently locked shards.
const SHARDS: usize = 16;

/// Keys kept across all shards by [`BurstLimiter::new`].
pub const DEFAULT_CAPACITY: usize = 65_536;

/// Refused: retry after this many seconds (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

/// A budget of `burst` events per key that refills steadily (`burst` every `refill_s` seconds):
/// the generic cell rate algorithm, one "theoretical arrival time" per key, in milliseconds. A
/// spent budget waits for one event's refill (`refill_s / burst`), never for a whole window: a
/// shared network that used its burst gets its next event seconds later, not minutes.
///
/// Memory is bounded (module docs): [`SHARDS`] shards with a fixed number of keys each,
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
        self.shards.iter().map(|s| lock(s).tats.len()).sum()
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
        let mut shard = lock(shard);
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

/// A shard's lock; a panic elsewhere while holding it leaves budgets that are still usable.
fn lock(shard: &Mutex<BurstShard>) -> std::sync::MutexGuard<'_, BurstShard> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
