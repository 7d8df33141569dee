//! Shared measurement harness for the blog's experiments: timing with honest
//! statistics, allocation counting, deterministic randomness, byte counting,
//! child-process guards, and the results JSON the site generator reads.
//!
//! An experiment typically does:
//!
//! ```no_run
//! let mut results = harness::Results::new();
//! let s = harness::bench(|| (0..100u64).sum::<u64>());
//! results.set("sum.small", &s);
//! results.write();
//! ```
//!
//! See `README.md` next to this crate for the JSON shapes and quick mode.

pub mod alloc;
mod bench;
pub mod bytes;
pub mod declare;
pub mod fmt;
pub mod interleave;
pub mod proc;
mod results;
mod stats;

pub use bench::{
    Comparison, Config, bench, bench_batched, bench_with, compare, compare_with, events,
    events_with, time_each, time_each_with, timer_cost_ns,
};
pub use declare::{Label, Table};
pub use rand;
pub use rand_chacha;
pub use rand_chacha::ChaCha8Rng;
pub use results::Results;
pub use stats::{Ratio, Summary};
pub use std::hint::black_box;

/// Version of the harness, written into every results file as `_harness.version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// True when `MEASURED_QUICK` is set to anything other than `""` or `"0"`.
///
/// Quick mode (tests and CI) reduces warm-up, sample counts and time caps.
/// Experiments must only use it to reduce repetitions, never the sizes an
/// article talks about.
pub fn quick() -> bool {
    match std::env::var_os("MEASURED_QUICK") {
        Some(v) => !v.is_empty() && v != "0",
        None => false,
    }
}

/// `normal` in a normal run, `quick` when [`quick()`] is true. Use it for
/// repetition counts: `harness::pick(1000, 100)`.
pub fn pick<T>(normal: T, quick: T) -> T {
    if self::quick() { quick } else { normal }
}

/// A deterministic, fast, seedable RNG (ChaCha8). Same seed, same stream, on
/// every platform.
///
/// With rand 0.10 the sampling methods (`random_range`, `random_bool`, ...)
/// live on the `RngExt` trait: `use harness::rand::RngExt;`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    use rand::SeedableRng;
    ChaCha8Rng::seed_from_u64(seed)
}
