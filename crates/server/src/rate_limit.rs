//! In-memory fixed-window rate limiting (per process; see docs/server.md for multi-instance notes).

use std::collections::HashMap;
use std::sync::Mutex;

/// Counts events per key in windows of `window_s` seconds starting at a key's first event.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window_s: i64,
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

/// Refused: retry after this many seconds (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

impl RateLimiter {
    /// At most `limit` events per `window_s` seconds per key.
    pub fn new(limit: u32, window_s: u64) -> Self {
        Self {
            limit,
            window_s: i64::try_from(window_s).unwrap_or(i64::MAX),
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one event for `key` at `now`, or refuses it without counting.
    pub fn hit(&self, key: &str, now: i64) -> Result<(), RetryAfter> {
        let mut windows = self
            .windows
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if windows.len() > 10_000 {
            let window_s = self.window_s;
            windows.retain(|_, (start, _)| now < start.saturating_add(window_s));
        }
        let entry = windows.entry(key.to_string()).or_insert((now, 0));
        if now >= entry.0.saturating_add(self.window_s) {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            let wait = entry.0.saturating_add(self.window_s) - now;
            return Err(RetryAfter(u64::try_from(wait.max(1)).unwrap_or(1)));
        }
        entry.1 += 1;
        Ok(())
    }
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
    }
}
