//! Timing: batched micro-benchmarks (`bench`, `compare`) and per-event
//! timing (`time_each`, `events`), all returning [`Summary`] statistics.

use crate::stats::{Ratio, Summary};
use serde::Serialize;
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How a measurement is taken. `Config::default()` follows [`crate::quick()`].
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Warm-up time before sampling; also used to find the batch size.
    pub warmup: Duration,
    /// Samples wanted.
    pub samples: usize,
    /// The time cap never reduces the sample count below this.
    pub min_samples: usize,
    /// Time cap for one bench (warm-up included; a `compare` gets twice this).
    /// Reaching it stops sampling early, but never below `min_samples`.
    pub max_time: Duration,
    /// One timed sample lasts at least this long...
    pub min_sample_time: Duration,
    /// ...and at least `timer_factor` × the cost of one `Instant::now()`.
    pub timer_factor: f64,
    /// Untimed calls before `time_each` / `events` start recording.
    pub warmup_events: usize,
}

impl Config {
    /// Publishing settings: 200 ms warm-up, 60 samples, 3 s cap, ≥ 11 samples.
    pub fn normal() -> Config {
        Config {
            warmup: Duration::from_millis(200),
            samples: 60,
            min_samples: 11,
            max_time: Duration::from_secs(3),
            min_sample_time: Duration::from_micros(20),
            timer_factor: 1000.0,
            warmup_events: 3,
        }
    }

    /// Quick mode (`MEASURED_QUICK=1`): 30 ms warm-up, 15 samples, 0.5 s cap, ≥ 5 samples.
    pub fn quick() -> Config {
        Config {
            warmup: Duration::from_millis(30),
            samples: 15,
            min_samples: 5,
            max_time: Duration::from_millis(500),
            min_sample_time: Duration::from_micros(20),
            timer_factor: 1000.0,
            warmup_events: 2,
        }
    }

    pub fn warmup(mut self, d: Duration) -> Config {
        self.warmup = d;
        self
    }

    /// Samples wanted; also lowers `min_samples` if it was above.
    pub fn samples(mut self, n: usize) -> Config {
        assert!(n >= 1, "harness: samples must be >= 1");
        self.samples = n;
        self.min_samples = self.min_samples.min(n);
        self
    }

    pub fn min_samples(mut self, n: usize) -> Config {
        self.min_samples = n.max(1);
        self
    }

    pub fn max_time(mut self, d: Duration) -> Config {
        self.max_time = d;
        self
    }

    pub fn min_sample_time(mut self, d: Duration) -> Config {
        self.min_sample_time = d;
        self
    }

    pub fn warmup_events(mut self, n: usize) -> Config {
        self.warmup_events = n;
        self
    }

    /// Target duration of one timed sample, in ns.
    fn sample_target_ns(&self) -> f64 {
        (self.timer_factor * timer_cost_ns()).max(self.min_sample_time.as_nanos() as f64)
    }
}

impl Default for Config {
    fn default() -> Config {
        if crate::quick() {
            Config::quick()
        } else {
            Config::normal()
        }
    }
}

/// Cost of one `Instant::now()` call in ns, measured once per process
/// (best of 5 runs of 10 000 calls).
pub fn timer_cost_ns() -> f64 {
    static COST: OnceLock<f64> = OnceLock::new();
    *COST.get_or_init(|| {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let n = 10_000u32;
            let t0 = Instant::now();
            for _ in 0..n {
                black_box(Instant::now());
            }
            best = best.min(t0.elapsed().as_nanos() as f64 / f64::from(n));
        }
        best.max(1.0)
    })
}

/// Runs `f` `batch` times; returns elapsed ns. Results are dropped inside
/// the timed loop (their drop is part of the cost).
#[inline(never)]
fn run_batch<T>(f: &mut impl FnMut() -> T, batch: u64) -> f64 {
    let t0 = Instant::now();
    for _ in 0..batch {
        black_box(f());
    }
    t0.elapsed().as_nanos() as f64
}

/// Warm-up that also finds the batch size: doubles the batch until one batch
/// lasts the sample target, keeps running until `warmup` has passed, then
/// sizes the batch from the fastest per-call time seen in batches that
/// lasted at least half the target.
fn calibrate(run: &mut impl FnMut(u64) -> f64, warmup: Duration, target_ns: f64) -> u64 {
    let start = Instant::now();
    let mut batch: u64 = 1;
    let mut per_call: Option<f64> = None;
    loop {
        let t = run(batch);
        if t >= target_ns / 2.0 {
            // The fastest per-call time seen: preemption and cold caches
            // only ever inflate a measurement.
            let pc = t / batch as f64;
            per_call = Some(per_call.map_or(pc, |p: f64| p.min(pc)));
        }
        if t < target_ns && batch < (1 << 40) {
            batch *= 2;
        }
        if per_call.is_some() && start.elapsed() >= warmup {
            break;
        }
    }
    let per_call = per_call.unwrap().max(1e-3);
    ((target_ns / per_call).ceil() as u64).max(1)
}

/// Benchmarks `f` with [`Config::default()`]: warm-up, batching so one
/// sample lasts well above the timer's cost, then samples. Values are ns per
/// call of `f`. `f`'s result goes through `black_box`.
pub fn bench<T>(f: impl FnMut() -> T) -> Summary {
    bench_with(Config::default(), f)
}

/// [`bench`] with explicit settings.
pub fn bench_with<T>(cfg: Config, mut f: impl FnMut() -> T) -> Summary {
    let start = Instant::now();
    let batch = calibrate(
        &mut |b| run_batch(&mut f, b),
        cfg.warmup,
        cfg.sample_target_ns(),
    );
    let mut samples = Vec::with_capacity(cfg.samples);
    while samples.len() < cfg.samples {
        if samples.len() >= cfg.min_samples && start.elapsed() >= cfg.max_time {
            break;
        }
        samples.push(run_batch(&mut f, batch) / batch as f64);
    }
    Summary::from_samples(&samples, batch)
}

/// Like [`bench`], for a routine that consumes a fresh input each call:
/// `setup` builds the inputs of a batch before the clock starts; outputs are
/// dropped after it stops. Only `routine` is timed.
pub fn bench_batched<I, T>(
    cfg: Config,
    mut setup: impl FnMut() -> I,
    mut routine: impl FnMut(I) -> T,
) -> Summary {
    let mut run = |batch: u64| {
        let inputs: Vec<I> = (0..batch).map(|_| setup()).collect();
        let mut outputs: Vec<T> = Vec::with_capacity(batch as usize);
        let t0 = Instant::now();
        for i in inputs {
            outputs.push(black_box(routine(black_box(i))));
        }
        let t = t0.elapsed().as_nanos() as f64;
        drop(outputs);
        t
    };
    let start = Instant::now();
    let batch = calibrate(&mut run, cfg.warmup, cfg.sample_target_ns());
    let mut samples = Vec::with_capacity(cfg.samples);
    while samples.len() < cfg.samples {
        if samples.len() >= cfg.min_samples && start.elapsed() >= cfg.max_time {
            break;
        }
        samples.push(run(batch) / batch as f64);
    }
    Summary::from_samples(&samples, batch)
}

/// Two benchmarks measured interleaved, and their ratio `a / b`.
///
/// Serializes as `{"a": Summary, "b": Summary, "ratio": Ratio}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub a: Summary,
    pub b: Summary,
    /// `a.median / b.median` with bounds from both CIs (see [`Ratio::of`]).
    pub ratio: Ratio,
}

/// Measures `a` and `b` interleaved (A B B A A B B A ...) so that drifts in
/// machine load hit both alike; each side gets its own batch size.
/// `ratio` = a / b: with `a` the slower candidate, it reads as "b is ratio× faster".
pub fn compare<TA, TB>(a: impl FnMut() -> TA, b: impl FnMut() -> TB) -> Comparison {
    compare_with(Config::default(), a, b)
}

/// [`compare`] with explicit settings (warm-up split between the sides,
/// time cap doubled since there are two measurements).
pub fn compare_with<TA, TB>(
    cfg: Config,
    mut a: impl FnMut() -> TA,
    mut b: impl FnMut() -> TB,
) -> Comparison {
    let start = Instant::now();
    let target = cfg.sample_target_ns();
    let half = cfg.warmup / 2;
    let batch_a = calibrate(&mut |n| run_batch(&mut a, n), half, target);
    let batch_b = calibrate(&mut |n| run_batch(&mut b, n), half, target);
    let cap = cfg.max_time * 2;
    let mut sa = Vec::with_capacity(cfg.samples);
    let mut sb = Vec::with_capacity(cfg.samples);
    let mut round = 0usize;
    while sa.len() < cfg.samples {
        if sa.len() >= cfg.min_samples && start.elapsed() >= cap {
            break;
        }
        if round % 2 == 0 {
            sa.push(run_batch(&mut a, batch_a) / batch_a as f64);
            sb.push(run_batch(&mut b, batch_b) / batch_b as f64);
        } else {
            sb.push(run_batch(&mut b, batch_b) / batch_b as f64);
            sa.push(run_batch(&mut a, batch_a) / batch_a as f64);
        }
        round += 1;
    }
    let a = Summary::from_samples(&sa, batch_a);
    let b = Summary::from_samples(&sb, batch_b);
    let ratio = Ratio::of(&a, &b);
    Comparison { a, b, ratio }
}

/// Times `n` calls of `f` one by one (one clock read pair per call, no
/// batching): for events long enough to time individually, such as a TCP
/// handshake or a request round trip (≳ 1 µs; the timer's own cost,
/// [`timer_cost_ns`], is included in each value). A few untimed warm-up calls
/// come first. `n` is taken as given: use [`crate::pick`] for quick mode.
pub fn time_each<T>(n: usize, f: impl FnMut() -> T) -> Summary {
    time_each_with(Config::default(), n, f)
}

/// [`time_each`] with explicit settings (only `warmup_events` is used).
pub fn time_each_with<T>(cfg: Config, n: usize, mut f: impl FnMut() -> T) -> Summary {
    assert!(n >= 1, "harness: time_each needs n >= 1");
    for _ in 0..cfg.warmup_events {
        black_box(f());
    }
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        let r = f();
        let t = t0.elapsed();
        black_box(r);
        samples.push(t.as_nanos() as f64);
    }
    Summary::from_samples(&samples, 1)
}

/// Records `n` events whose duration `f` measures itself (e.g. from a
/// timestamp taken on the server side, or only part of what `f` does).
/// A few untimed warm-up events come first.
pub fn events(n: usize, f: impl FnMut() -> Duration) -> Summary {
    events_with(Config::default(), n, f)
}

/// [`events`] with explicit settings (only `warmup_events` is used).
pub fn events_with(cfg: Config, n: usize, mut f: impl FnMut() -> Duration) -> Summary {
    assert!(n >= 1, "harness: events needs n >= 1");
    for _ in 0..cfg.warmup_events {
        black_box(f());
    }
    let samples: Vec<f64> = (0..n).map(|_| f().as_nanos() as f64).collect();
    Summary::from_samples(&samples, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Config {
        Config::quick()
            .warmup(Duration::from_millis(5))
            .max_time(Duration::from_millis(100))
    }

    #[test]
    fn timer_cost_is_sane() {
        let c = timer_cost_ns();
        assert!((1.0..100_000.0).contains(&c), "{c}");
    }

    #[test]
    fn bench_batches_fast_work() {
        let cfg = tiny();
        let target = cfg.sample_target_ns();
        let s = bench_with(cfg, || black_box(3u64).wrapping_mul(7));
        assert!(s.batch > 1, "batch {}", s.batch);
        assert!(s.n >= 5);
        // one batch lasts roughly the target
        assert!(s.median * s.batch as f64 >= target / 4.0);
        assert!(s.median > 0.0 && s.median < 1000.0, "{}", s.median);
    }

    #[test]
    fn bench_slow_work_uses_batch_one() {
        let s = bench_with(tiny().min_sample_time(Duration::from_micros(20)), || {
            std::thread::sleep(Duration::from_micros(200))
        });
        assert_eq!(s.batch, 1);
        assert!(s.median >= 200_000.0);
    }

    #[test]
    fn time_cap_keeps_min_samples() {
        let cfg = tiny()
            .samples(1000)
            .min_samples(7)
            .max_time(Duration::from_millis(1));
        let s = bench_with(cfg, || std::thread::sleep(Duration::from_micros(100)));
        assert_eq!(s.n, 7);
    }

    #[test]
    fn compare_ratio_direction() {
        let c = compare_with(
            tiny(),
            || std::thread::sleep(Duration::from_micros(400)),
            || std::thread::sleep(Duration::from_micros(50)),
        );
        assert!(c.ratio.value > 1.0, "{:?}", c.ratio);
        assert_eq!(c.a.n, c.b.n);
        assert!(c.ratio.low <= c.ratio.value && c.ratio.value <= c.ratio.high);
    }

    #[test]
    fn batched_setup_not_timed() {
        let s = bench_batched(
            tiny(),
            || vec![1u8; 1000],
            |v| v.iter().map(|&x| x as u64).sum::<u64>(),
        );
        assert!(s.median > 0.0);
    }

    #[test]
    fn events_and_time_each() {
        let mut i = 0u64;
        let s = events_with(tiny(), 9, || {
            i += 1;
            Duration::from_nanos(i * 10)
        });
        // warm-up consumed 2 events (10, 20), recorded 30..=110
        assert_eq!(s.n, 9);
        assert_eq!(s.min, 30.0);
        assert_eq!(s.median, 70.0);
        let t = time_each_with(tiny(), 5, || std::thread::sleep(Duration::from_micros(50)));
        assert_eq!(t.n, 5);
        assert_eq!(t.batch, 1);
        assert!(t.min >= 50_000.0);
    }
}
