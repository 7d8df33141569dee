//! Summary statistics of timing samples: median with a distribution-free
//! confidence interval, quartiles, MAD, outlier count; and ratios of two
//! summaries with conservative bounds.

use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::time::Duration;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Distribution summary of samples, in nanoseconds per call.
///
/// Serializes as
/// `{"type":"timing","unit":"ns","n","median","ci_low","ci_high","mad","q1","q3","min","max","p99","mean","outliers","batch"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Median of the samples (mean of the two middle values when `n` is even).
    pub median: f64,
    /// Lower bound of a distribution-free ~95% confidence interval of the median.
    pub ci_low: f64,
    /// Upper bound of that interval.
    pub ci_high: f64,
    /// Median absolute deviation from the median (unscaled).
    pub mad: f64,
    /// First quartile (linear interpolation between order statistics).
    pub q1: f64,
    /// Third quartile.
    pub q3: f64,
    pub min: f64,
    pub max: f64,
    /// 99th percentile (linear interpolation; equals `max` for small `n`-ish samples).
    pub p99: f64,
    pub mean: f64,
    /// Samples outside `[q1 - 3·IQR, q3 + 3·IQR]`: counted, never removed.
    pub outliers: usize,
    /// Calls per timed sample (1 for per-event timing).
    pub batch: u64,
}

/// Sorted copy of `xs`; panics on NaN.
fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    assert!(
        v.iter().all(|x| !x.is_nan()),
        "harness: NaN in timing samples"
    );
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v
}

/// Median of sorted data.
fn median_sorted(v: &[f64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Quantile `p` in [0, 1] of sorted data by linear interpolation between
/// order statistics (Hyndman & Fan type 7, numpy's default): position
/// `p·(n−1)` counted from 0.
pub(crate) fn quantile_sorted(v: &[f64], p: f64) -> f64 {
    let n = v.len();
    if n == 1 {
        return v[0];
    }
    let pos = p.clamp(0.0, 1.0) * (n - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    v[lo] + (v[hi] - v[lo]) * frac
}

/// 1-based ranks `(j, k)` of the order statistics bounding a ~95%
/// distribution-free confidence interval of the median: the number of
/// samples below the median is Binomial(n, 1/2), approximated by a normal,
/// so `j = floor(n/2 − 1.96·√n/2)` and `k = ceil(1 + n/2 + 1.96·√n/2)`,
/// clamped to `[1, n]`. Rounding outwards keeps the coverage at or above 95%.
pub(crate) fn median_ci_ranks(n: usize) -> (usize, usize) {
    let nf = n as f64;
    let half_width = Z95 * nf.sqrt() / 2.0;
    let j = (nf / 2.0 - half_width).floor().max(1.0) as usize;
    let k = (1.0 + nf / 2.0 + half_width).ceil().min(nf) as usize;
    (j.clamp(1, n), k.clamp(1, n))
}

impl Summary {
    /// Summary of samples given in nanoseconds (one value per call).
    /// Panics if `samples` is empty or holds NaN.
    pub fn from_ns(samples: Vec<f64>) -> Summary {
        Self::from_samples(&samples, 1)
    }

    /// Summary of per-call durations.
    pub fn from_durations(samples: &[Duration]) -> Summary {
        let ns: Vec<f64> = samples.iter().map(|d| d.as_nanos() as f64).collect();
        Self::from_samples(&ns, 1)
    }

    /// Summary of per-call values in ns, each measured over `batch` calls.
    pub fn from_samples(samples: &[f64], batch: u64) -> Summary {
        assert!(!samples.is_empty(), "harness: no samples to summarize");
        let v = sorted(samples);
        let n = v.len();
        let median = median_sorted(&v);
        let (j, k) = median_ci_ranks(n);
        let q1 = quantile_sorted(&v, 0.25);
        let q3 = quantile_sorted(&v, 0.75);
        let iqr = q3 - q1;
        let (fence_lo, fence_hi) = (q1 - 3.0 * iqr, q3 + 3.0 * iqr);
        let outliers = v.iter().filter(|&&x| x < fence_lo || x > fence_hi).count();
        let deviations = sorted(&v.iter().map(|x| (x - median).abs()).collect::<Vec<_>>());
        Summary {
            n,
            median,
            ci_low: v[j - 1],
            ci_high: v[k - 1],
            mad: median_sorted(&deviations),
            q1,
            q3,
            min: v[0],
            max: v[n - 1],
            p99: quantile_sorted(&v, 0.99),
            mean: v.iter().sum::<f64>() / n as f64,
            outliers,
            batch,
        }
    }

    /// The median as a `Duration` (rounded to whole nanoseconds).
    pub fn median_duration(&self) -> Duration {
        Duration::from_nanos(self.median.max(0.0).round() as u64)
    }

    /// Calls per second at the median: `1e9 / median`.
    pub fn per_sec(&self) -> f64 {
        1e9 / self.median
    }

    /// Every value multiplied by `factor` (> 0): e.g. `s.scale(1.0 / 1000.0)`
    /// turns "ns per batch of 1000 orders" into "ns per order". Order
    /// statistics scale exactly, so the CI stays valid.
    pub fn scale(&self, factor: f64) -> Summary {
        assert!(
            factor > 0.0 && factor.is_finite(),
            "harness: scale factor must be positive"
        );
        Summary {
            median: self.median * factor,
            ci_low: self.ci_low * factor,
            ci_high: self.ci_high * factor,
            mad: self.mad * factor,
            q1: self.q1 * factor,
            q3: self.q3 * factor,
            min: self.min * factor,
            max: self.max * factor,
            p99: self.p99 * factor,
            mean: self.mean * factor,
            ..self.clone()
        }
    }

    /// Relative half-width of the median CI: `(ci_high − ci_low) / (2·median)`.
    pub fn rel_ci(&self) -> f64 {
        (self.ci_high - self.ci_low) / (2.0 * self.median)
    }
}

impl Serialize for Summary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Summary", 15)?;
        st.serialize_field("type", "timing")?;
        st.serialize_field("unit", "ns")?;
        st.serialize_field("n", &self.n)?;
        st.serialize_field("median", &self.median)?;
        st.serialize_field("ci_low", &self.ci_low)?;
        st.serialize_field("ci_high", &self.ci_high)?;
        st.serialize_field("mad", &self.mad)?;
        st.serialize_field("q1", &self.q1)?;
        st.serialize_field("q3", &self.q3)?;
        st.serialize_field("min", &self.min)?;
        st.serialize_field("max", &self.max)?;
        st.serialize_field("p99", &self.p99)?;
        st.serialize_field("mean", &self.mean)?;
        st.serialize_field("outliers", &self.outliers)?;
        st.serialize_field("batch", &self.batch)?;
        st.end()
    }
}

/// A ratio `a / b` of two medians with conservative bounds from their CIs.
///
/// Serializes as `{"type":"ratio","value","low","high"}`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// `a.median / b.median`.
    pub value: f64,
    /// `a.ci_low / b.ci_high`.
    pub low: f64,
    /// `a.ci_high / b.ci_low`.
    pub high: f64,
}

impl Ratio {
    /// Ratio of medians `a / b`. With `a` the slow side and `b` the fast
    /// side this is a speed-up ("b is value× faster").
    pub fn of(a: &Summary, b: &Summary) -> Ratio {
        Ratio {
            value: a.median / b.median,
            low: a.ci_low / b.ci_high,
            high: a.ci_high / b.ci_low,
        }
    }

    /// A ratio of two exact numbers (sizes, counts): `low == high == value`.
    pub fn exact(a: f64, b: f64) -> Ratio {
        let v = a / b;
        Ratio {
            value: v,
            low: v,
            high: v,
        }
    }

    /// `b / a`: the same comparison seen from the other side.
    pub fn inverse(&self) -> Ratio {
        Ratio {
            value: 1.0 / self.value,
            low: 1.0 / self.high,
            high: 1.0 / self.low,
        }
    }
}

impl Serialize for Ratio {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Ratio", 4)?;
        st.serialize_field("type", "ratio")?;
        st.serialize_field("value", &self.value)?;
        st.serialize_field("low", &self.low)?;
        st.serialize_field("high", &self.high)?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn odd_sample_by_hand() {
        // sorted: 1 2 3 4 100
        let s = Summary::from_ns(vec![3.0, 1.0, 100.0, 2.0, 4.0]);
        assert_eq!(s.n, 5);
        assert_eq!(s.median, 3.0);
        assert_eq!(s.min, 1.0);
        assert_eq!(s.max, 100.0);
        // type 7: q1 at position 1 -> 2, q3 at position 3 -> 4
        assert_eq!(s.q1, 2.0);
        assert_eq!(s.q3, 4.0);
        // |x - 3| = 0 1 1 2 97 -> median 1
        assert_eq!(s.mad, 1.0);
        // IQR 2, fences [-4, 10]: 100 is the only outlier
        assert_eq!(s.outliers, 1);
        assert!(close(s.mean, 22.0));
        // p99 at position 0.99*4 = 3.96: 4 + 0.96*96
        assert!(close(s.p99, 4.0 + 0.96 * 96.0));
        // n = 5: ranks clamp to the extremes
        assert_eq!((s.ci_low, s.ci_high), (1.0, 100.0));
        assert_eq!(s.batch, 1);
    }

    #[test]
    fn even_sample_by_hand() {
        // 1..=10
        let s = Summary::from_ns((1..=10).map(f64::from).collect());
        assert_eq!(s.median, 5.5);
        // q1 position 2.25 -> 3.25, q3 position 6.75 -> 7.75
        assert!(close(s.q1, 3.25));
        assert!(close(s.q3, 7.75));
        // deviations 4.5 3.5 2.5 1.5 .5 .5 1.5 2.5 3.5 4.5 -> median 2.5
        assert_eq!(s.mad, 2.5);
        assert_eq!(s.outliers, 0);
        // n=10: 1.96*sqrt(10)/2 = 3.099; j = floor(5-3.099)=1, k = ceil(9.099)=10
        assert_eq!(median_ci_ranks(10), (1, 10));
        assert_eq!((s.ci_low, s.ci_high), (1.0, 10.0));
    }

    #[test]
    fn ci_ranks_known_values() {
        // n = 60: half width 7.59 -> j = floor(22.41) = 22, k = ceil(38.59) = 39
        assert_eq!(median_ci_ranks(60), (22, 39));
        // n = 11: half width 3.25 -> j = 2, k = ceil(9.75) = 10
        assert_eq!(median_ci_ranks(11), (2, 10));
        // n = 100: half width 9.8 -> j = floor(40.2) = 40, k = ceil(60.8) = 61
        assert_eq!(median_ci_ranks(100), (40, 61));
        assert_eq!(median_ci_ranks(1), (1, 1));
        assert_eq!(median_ci_ranks(2), (1, 2));
        for n in 1..500 {
            let (j, k) = median_ci_ranks(n);
            assert!(1 <= j && j <= k && k <= n, "n={n}");
            // the interval always contains the median position(s)
            assert!(j <= n.div_ceil(2) && k > n / 2, "n={n}");
        }
    }

    #[test]
    fn ci_of_sixty_uniform() {
        let s = Summary::from_ns((1..=60).map(f64::from).collect());
        assert_eq!(s.median, 30.5);
        assert_eq!((s.ci_low, s.ci_high), (22.0, 39.0));
    }

    #[test]
    fn outlier_fences() {
        // sorted: 1 2 3 4 5 6 7 8 16 -> q1 pos 2 -> 3, q3 pos 6 -> 7, IQR 4, fences [-9, 19]
        let mut v: Vec<f64> = (1..=8).map(f64::from).collect();
        v.push(16.0); // inside
        let s = Summary::from_ns(v.clone());
        assert_eq!((s.q1, s.q3), (3.0, 7.0));
        assert_eq!(s.outliers, 0);
        v.push(20.0);
        v.push(-50.0);
        let s = Summary::from_ns(v);
        // sorted: -50 1 2 3 4 5 6 7 8 16 20 -> q1 pos 2.5 -> 2.5, q3 pos 7.5 -> 7.5
        // IQR 5, fences [-12.5, 22.5]: only -50 is outside
        assert_eq!((s.q1, s.q3), (2.5, 7.5));
        assert_eq!(s.outliers, 1);
    }

    #[test]
    fn single_sample() {
        let s = Summary::from_ns(vec![7.0]);
        assert_eq!(
            (s.median, s.ci_low, s.ci_high, s.q1, s.q3, s.p99, s.mad),
            (7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 0.0)
        );
    }

    #[test]
    #[should_panic(expected = "no samples")]
    fn empty_panics() {
        Summary::from_ns(vec![]);
    }

    #[test]
    fn ratio_bounds() {
        let a = Summary::from_ns(vec![18.0, 20.0, 22.0]);
        let b = Summary::from_ns(vec![9.0, 10.0, 11.0]);
        // n = 3: CI = [min, max]
        let r = Ratio::of(&a, &b);
        assert_eq!(r.value, 2.0);
        assert!(close(r.low, 18.0 / 11.0));
        assert!(close(r.high, 22.0 / 9.0));
        assert!(r.low <= r.value && r.value <= r.high);
        let inv = r.inverse();
        assert!(close(inv.value, 0.5));
        assert!(close(inv.low, 9.0 / 22.0));
        assert!(close(inv.high, 11.0 / 18.0));
        let e = Ratio::exact(3.0, 2.0);
        assert_eq!((e.value, e.low, e.high), (1.5, 1.5, 1.5));
    }

    #[test]
    fn scale_and_json_shape() {
        let s = Summary::from_samples(&[1000.0, 2000.0, 3000.0], 8).scale(0.001);
        assert!(close(s.median, 2.0));
        assert_eq!(s.batch, 8);
        let j = serde_json::to_value(&s).unwrap();
        assert_eq!(j["type"], "timing");
        assert_eq!(j["unit"], "ns");
        assert_eq!(j["n"], 3);
        assert_eq!(j["batch"], 8);
        for k in [
            "median", "ci_low", "ci_high", "mad", "q1", "q3", "min", "max", "p99", "mean",
            "outliers",
        ] {
            assert!(j.get(k).is_some(), "missing {k}");
        }
        let r = serde_json::to_value(Ratio::exact(1.0, 4.0)).unwrap();
        assert_eq!(
            r,
            serde_json::json!({"type":"ratio","value":0.25,"low":0.25,"high":0.25})
        );
    }
}
