//! What every worker records: latencies of successful operations inside the measured window, and errors.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use crate::report::new_histogram;

/// Errors kept verbatim per worker (the rest are only counted).
const MAX_SAMPLES: usize = 3;

/// The run's time line: operations finishing before `measure_from` are warm-up, none start after `end`.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    /// End of the warm-up.
    pub measure_from: Instant,
    /// End of the run.
    pub end: Instant,
}

impl Window {
    /// A window starting now.
    pub fn starting_now(warmup: Duration, duration: Duration) -> Self {
        let measure_from = Instant::now() + warmup;
        Self {
            measure_from,
            end: measure_from + duration,
        }
    }

    /// Whether a new operation may start.
    pub fn open(&self) -> bool {
        Instant::now() < self.end
    }
}

/// One worker's tally.
pub struct Tally {
    /// Latencies (µs) of successful operations in the measured window.
    pub histogram: Histogram<u64>,
    /// Failed operations in the measured window.
    pub errors: u64,
    /// The first few error messages.
    pub samples: Vec<String>,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Self {
        Self {
            histogram: new_histogram(),
            errors: 0,
            samples: Vec::new(),
        }
    }

    /// Records an operation that started at `started` with outcome `ok`.
    pub fn record(&mut self, window: &Window, started: Instant, outcome: Result<(), String>) {
        if started < window.measure_from {
            return;
        }
        match outcome {
            Ok(()) => {
                let micros = u64::try_from(started.elapsed().as_micros())
                    .unwrap_or(u64::MAX)
                    .max(1);
                self.histogram.saturating_record(micros);
            }
            Err(message) => {
                self.errors += 1;
                if self.samples.len() < MAX_SAMPLES {
                    self.samples.push(message);
                }
            }
        }
    }

    /// Adds another worker's tally to this one.
    pub fn merge(&mut self, other: Tally) {
        // Both histograms share the same bounds, so adding cannot fail.
        let _ = self.histogram.add(&other.histogram);
        self.errors += other.errors;
        for sample in other.samples {
            if self.samples.len() < MAX_SAMPLES * 2 && !self.samples.contains(&sample) {
                self.samples.push(sample);
            }
        }
    }
}

impl Default for Tally {
    fn default() -> Self {
        Self::new()
    }
}
