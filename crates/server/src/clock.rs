//! Wall-clock time in unix seconds, shiftable so tests can expire codes and tokens.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The server's notion of "now". Clones share one offset.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_s: Arc<AtomicI64>,
}

impl Clock {
    /// A clock that follows system time.
    pub fn system() -> Self {
        Self::default()
    }

    /// Unix seconds, including any offset added with [`Clock::advance`].
    pub fn now(&self) -> i64 {
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        i64::try_from(system).unwrap_or(i64::MAX) + self.offset_s.load(Ordering::Relaxed)
    }

    /// Moves this clock (and its clones) forward; used by tests to pass lifetimes.
    pub fn advance(&self, seconds: i64) {
        self.offset_s.fetch_add(seconds, Ordering::Relaxed);
    }
}
