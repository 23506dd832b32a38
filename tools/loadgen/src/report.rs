//! Latency percentiles and throughput of one scenario run, printed for people and as JSON for `bench/run.mjs`.

use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Latencies in microseconds, 1 µs to 60 s, 3 significant digits.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3)
        .expect("1 µs..60 s at 3 significant figures is a valid histogram")
}

/// What a scenario measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Scenario name.
    pub scenario: String,
    /// Concurrent workers (each with its own connection and session chain).
    pub connections: usize,
    /// Measured seconds (after warm-up).
    pub seconds: f64,
    /// Successful operations.
    pub ok: u64,
    /// Failed operations.
    pub errors: u64,
    /// Successful operations per second.
    pub per_second: f64,
    /// Median latency, ms.
    pub p50_ms: f64,
    /// 90th percentile, ms.
    pub p90_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Slowest, ms.
    pub max_ms: f64,
    /// A few error messages, to tell why.
    pub error_samples: Vec<String>,
    /// Items handled, when an operation handles several (users of an import batch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<u64>,
    /// Items per second over the whole run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items_per_second: Option<f64>,
    /// CPU seconds the load generator itself used over the whole run (it shares the machine with the server).
    pub loadgen_cpu_seconds: Option<f64>,
}

impl Report {
    /// Builds the report from the merged histogram of successful operations.
    pub fn new(
        scenario: &str,
        connections: usize,
        elapsed: Duration,
        histogram: &Histogram<u64>,
        errors: u64,
        error_samples: Vec<String>,
    ) -> Self {
        let ms = |us: u64| us as f64 / 1000.0;
        let seconds = elapsed.as_secs_f64();
        Self {
            scenario: scenario.to_owned(),
            connections,
            seconds,
            ok: histogram.len(),
            errors,
            per_second: if seconds > 0.0 {
                histogram.len() as f64 / seconds
            } else {
                0.0
            },
            p50_ms: ms(histogram.value_at_quantile(0.50)),
            p90_ms: ms(histogram.value_at_quantile(0.90)),
            p99_ms: ms(histogram.value_at_quantile(0.99)),
            max_ms: ms(histogram.max()),
            error_samples,
            items: None,
            items_per_second: None,
            loadgen_cpu_seconds: own_cpu_seconds(),
        }
    }

    /// One line for a terminal.
    pub fn human(&self) -> String {
        let items = match (self.items, self.items_per_second) {
            (Some(items), Some(rate)) => format!(" ({items} items, {rate:.0}/s)"),
            _ => String::new(),
        };
        format!("{}{items}", self.operations())
    }

    fn operations(&self) -> String {
        format!(
            "{}: {} connections, {:.1} s: {} ok ({:.0}/s), {} errors, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.scenario,
            self.connections,
            self.seconds,
            self.ok,
            self.per_second,
            self.errors,
            self.p50_ms,
            self.p90_ms,
            self.p99_ms,
            self.max_ms
        )
    }
}

/// User plus system CPU seconds of this process, from `/proc/self/stat` (Linux; `None` elsewhere).
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of those.
    let rest = stat.rsplit_once(") ")?.1;
    let mut fields = rest.split_whitespace().skip(11);
    let utime: f64 = fields.next()?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    // Linux reports clock ticks; USER_HZ is 100 on every mainstream architecture.
    Some((utime + stime) / 100.0)
}
