//! Round-robin timing of several routines: each round runs one batch of
//! every routine, in a rotating order, so that load on the (shared, 2-core)
//! machine hits all of them alike and their ratios stay stable.

use harness::{Summary, black_box};
use std::time::{Duration, Instant};

/// A routine to time; its result goes through `black_box`.
pub type Routine<'a> = Box<dyn FnMut() + 'a>;

fn run(f: &mut Routine<'_>, batch: u64) -> f64 {
    let t0 = Instant::now();
    for _ in 0..batch {
        f();
    }
    t0.elapsed().as_nanos() as f64
}

/// Times every routine; returns one summary per routine (ns per call).
pub fn interleaved(mut fs: Vec<Routine<'_>>) -> Vec<Summary> {
    let (samples, warm) = harness::pick((500, 200), (100, 30));
    let target = 100_000.0; // ns per sample
    let batches: Vec<u64> = fs
        .iter_mut()
        .map(|f| {
            let start = Instant::now();
            let mut batch = 1u64;
            loop {
                let t = run(f, batch);
                if t < target {
                    batch *= 2;
                } else if start.elapsed() >= Duration::from_millis(warm) {
                    return ((target * batch as f64 / t).ceil() as u64).max(1);
                }
            }
        })
        .collect();
    let n = fs.len();
    let mut out: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); n];
    for round in 0..samples {
        for k in 0..n {
            let i = (round + k) % n;
            out[i].push(run(&mut fs[i], batches[i]) / batches[i] as f64);
        }
    }
    out.iter()
        .zip(&batches)
        .map(|(s, &b)| Summary::from_samples(s, b))
        .collect()
}

/// Wraps a closure returning a value into a [`Routine`].
pub fn routine<'a, T>(mut f: impl FnMut() -> T + 'a) -> Routine<'a> {
    Box::new(move || {
        black_box(f());
    })
}
