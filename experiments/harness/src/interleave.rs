//! Round-robin timing of several routines (more than `compare`'s two): each round runs one batch of
//! every routine, in a rotating order, so that load on the (shared, 2-core)
//! machine hits all of them alike and their ratios stay stable.

use crate::{Summary, black_box};
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
    let (samples, warm) = crate::pick((500, 200), (100, 30));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_routine_gets_its_own_summary_in_order() {
        let small = routine(|| (0..black_box(10u64)).sum::<u64>());
        let large = routine(|| (0..black_box(20_000u64)).map(black_box).sum::<u64>());
        let s = interleaved(vec![small, large]);
        assert_eq!(s.len(), 2);
        assert!(s[0].n >= 30 && s[0].n == s[1].n);
        assert!(
            s[1].median > 10.0 * s[0].median,
            "{} vs {}",
            s[1].median,
            s[0].median
        );
    }
}
