//! Several independent process runs of one experiment combined into the values a page shows,
//! as rigorous benchmarking does (Kalibera & Jones, "Rigorous benchmarking in reasonable
//! time"): the point value is the median of the runs' point values, the interval the
//! t-interval of their mean, widened to hold the point. So the interval includes run-to-run
//! variation (each run's median carries that run's own noise) and shrinks as runs are added.
//! A run's own interval is not a floor: in quick mode a ratio's own interval divides opposite
//! ends of two wide timing intervals, and a floor that more runs cannot lower left claims
//! inconclusive whose eight runs all agreed. Separate from
//! the runner: pure functions of JSON values, shared by the pages and the claims.

use serde_json::{Map, Value};

/// 97.5 % quantiles of Student's t distribution, for 1 to 30 degrees of freedom.
const T975: [f64; 30] = [
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
    2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
    2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/// The 97.5 % quantile of Student's t with `df` degrees of freedom (infinite for none):
/// tabulated up to 30, then the Cornish-Fisher expansion around the normal quantile, which is
/// within 0.001 of the exact value there.
pub fn t975(df: usize) -> f64 {
    match df {
        0 => f64::INFINITY,
        1..=30 => T975[df - 1],
        _ => {
            let z: f64 = 1.959964;
            let n = df as f64;
            z + (z.powi(3) + z) / (4.0 * n)
                + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// A combined value and its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    pub fn is_finite(&self) -> bool {
        self.value.is_finite() && self.low.is_finite() && self.high.is_finite()
    }
}

/// A change of scale and its inverse.
type Scale = fn(f64) -> f64;

/// Combines runs whose point values are `points` and own intervals `own` (same order): the
/// median of the points, and the t-interval of their mean (k − 1 degrees of freedom; of
/// their logarithms when all are positive) widened to hold the median. Runs with no spread (one run, or equal points) keep the median run's
/// own interval.
pub fn estimate(points: &[f64], own: &[(f64, f64)]) -> Estimate {
    let k = points.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| points[a].total_cmp(&points[b]));
    let middle: &[usize] = match k {
        0 => &[],
        _ if k % 2 == 1 => &order[k / 2..=k / 2],
        _ => &order[k / 2 - 1..=k / 2],
    };
    let value = match middle {
        [] => f64::NAN,
        [m] => points[*m],
        [a, b, ..] => points[*a] / 2.0 + points[*b] / 2.0,
    };
    // Positive quantities (times, ratios, rates) vary by factors from run to run, and a run
    // slowed by the machine's load is a factor off, not an amount: their interval is taken on
    // the logarithms (a geometric t-interval), which stays positive and is not dragged past
    // zero by one slow run, as the interval of the plain mean was (a ratio read
    // [-0.69, 14.6]).
    let positive = points.iter().all(|&p| p > 0.0);
    let (to, from): (Scale, Scale) = if positive {
        (f64::ln, f64::exp)
    } else {
        (|x| x, |x| x)
    };
    let scaled: Vec<f64> = points.iter().map(|&p| to(p)).collect();
    let mean = scaled.iter().map(|p| p / k as f64).sum::<f64>();
    let var = match k {
        0 | 1 => 0.0,
        _ => scaled.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (k - 1) as f64,
    };
    // Runs that show no spread at all (one run, or medians equal to the last digit, as a
    // coarse clock gives) say nothing about it: the median run's own interval stands.
    let no_spread = points.iter().all(|&p| p == points[0]);
    let (low, high) = if no_spread {
        let hull = |(l, h): (f64, f64), &i: &usize| (l.min(own[i].0), h.max(own[i].1));
        middle.iter().fold((value, value), hull)
    } else {
        let half = t975(k - 1) * var.sqrt() / (k as f64).sqrt();
        (from(mean - half), from(mean + half))
    };
    // Counts, shares and sizes with a zero among them take the plain interval, which must
    // not reach below zero where no run did (a share read -6.5 %–10 %).
    let low = if points.iter().all(|&p| p >= 0.0) {
        low.max(0.0)
    } else {
        low
    };
    Estimate {
        value,
        low: low.min(value),
        high: high.max(value),
    }
}

/// [`estimate`] of plain numbers, each run's number its own (empty) interval.
pub fn numbers(values: &[f64]) -> Estimate {
    let own: Vec<(f64, f64)> = values.iter().map(|&v| (v, v)).collect();
    estimate(values, &own)
}

/// The runs' results (oldest first) combined into one results value of the same shapes: a
/// timing summary has the combined `median`, `ci_low`, `ci_high`, its quantiles pooled from the
/// runs (each the median of the runs' own: they keep their order, so the median lies between
/// the quartiles), the smallest minimum, the largest maximum, the samples of all runs in `n`,
/// and `runs`, `run_medians` added; a ratio, share or number object likewise (`value`, `low`,
/// `high`, `run_values`); a plain number that differs between runs is the median of the runs'
/// numbers; anything else is the latest run's. Where runs disagree on the structure, the
/// latest run's structure wins and only the runs that share it are combined. (Derived values
/// are computed again from the combined parts by [`super::derived::combined`], which pages
/// and claims read.)
pub fn combine(runs: &[&Value]) -> Value {
    match runs {
        [] => Value::Null,
        [one] => (*one).clone(),
        _ => node(runs),
    }
}

fn node(runs: &[&Value]) -> Value {
    let reference = runs[runs.len() - 1];
    let alike: Vec<&Value> = runs
        .iter()
        .copied()
        .filter(|v| same_shape(v, reference))
        .collect();
    match reference {
        Value::Object(map) => match kind(reference) {
            Some("timing") => summary(&alike, Fields::TIMING),
            Some("ratio" | "share" | "number") => summary(&alike, Fields::RATIO),
            _ => Value::Object(
                map.keys()
                    .map(|k| {
                        let below: Vec<&Value> = alike.iter().filter_map(|v| v.get(k)).collect();
                        (k.clone(), node(&below))
                    })
                    .collect(),
            ),
        },
        Value::Array(items) => Value::Array(
            (0..items.len())
                .map(|i| node(&alike.iter().map(|v| &v[i]).collect::<Vec<_>>()))
                .collect(),
        ),
        Value::Number(_) => number(&alike),
        _ => reference.clone(),
    }
}

/// The harness's `"type"` of an object (`timing`, `ratio`), if any.
pub fn kind(v: &Value) -> Option<&str> {
    v.as_object()?.get("type")?.as_str()
}

fn same_shape(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(_), Value::Object(_)) => kind(a) == kind(b),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len(),
        (Value::Number(_), Value::Number(_)) => true,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// The fields of a harness summary the combination replaces.
struct Fields {
    value: &'static str,
    low: &'static str,
    high: &'static str,
    /// Where each run's value is listed.
    each: &'static str,
}

impl Fields {
    const TIMING: Fields = Fields {
        value: "median",
        low: "ci_low",
        high: "ci_high",
        each: "run_medians",
    };
    const RATIO: Fields = Fields {
        value: "value",
        low: "low",
        high: "high",
        each: "run_values",
    };
}

/// A timing or ratio's point value and own interval (its point where it has none).
fn point_and_interval(v: &Value, f: &Fields) -> Option<(f64, (f64, f64))> {
    let value = v.get(f.value)?.as_f64()?;
    let low = v.get(f.low).and_then(Value::as_f64).unwrap_or(value);
    let high = v.get(f.high).and_then(Value::as_f64).unwrap_or(value);
    Some((value, (low, high)))
}

/// The estimate of a timing or ratio over `runs`, if every run has a value.
pub fn summary_estimate(runs: &[&Value], timing: bool) -> Option<Estimate> {
    let f = if timing {
        Fields::TIMING
    } else {
        Fields::RATIO
    };
    let (points, own): (Vec<f64>, Vec<(f64, f64)>) = runs
        .iter()
        .map(|v| point_and_interval(v, &f))
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .unzip();
    let e = estimate(&points, &own);
    // Durations and ratios are not negative, whatever a wide t-interval says.
    Some(Estimate {
        low: e.low.max(0.0),
        ..e
    })
}

fn summary(runs: &[&Value], f: Fields) -> Value {
    let reference = runs[runs.len() - 1];
    let Some(points) = runs
        .iter()
        .map(|v| point_and_interval(v, &f).map(|(p, _)| p))
        .collect::<Option<Vec<f64>>>()
    else {
        return reference.clone();
    };
    let Some(e) = summary_estimate(runs, f.value == "median").filter(Estimate::is_finite) else {
        return reference.clone();
    };
    // The other fields (batch, unit…) are those of the median run; a timing's spread is
    // pooled from every run, so that it belongs to the combined median.
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&a, &b| points[a].total_cmp(&points[b]));
    let mut out: Map<String, Value> = runs[order[(runs.len() - 1) / 2]]
        .as_object()
        .cloned()
        .unwrap_or_default();
    if f.value == "median" {
        pool_spread(&mut out, runs);
    }
    out.insert(f.value.into(), e.value.into());
    out.insert(f.low.into(), e.low.into());
    out.insert(f.high.into(), e.high.into());
    out.insert("runs".into(), runs.len().into());
    out.insert(f.each.into(), points.into());
    Value::Object(out)
}

/// A timing's spread over all `runs`: each quantile (`q1`, `q3`, `p99`), `mad` and `mean` the
/// median of the runs' own, `min` the smallest, `max` the largest, `n` and `outliers` summed.
/// The median of each quantile keeps the quantiles' order (run by run q1 ≤ median ≤ q3, so
/// the k-th smallest q1 is at most the k-th smallest median), so the combined median lies
/// between the combined quartiles.
fn pool_spread(out: &mut Map<String, Value>, runs: &[&Value]) {
    let each = |field: &str| -> Option<Vec<f64>> {
        runs.iter()
            .map(|v| v.get(field).and_then(Value::as_f64))
            .collect()
    };
    let set = |out: &mut Map<String, Value>, field: &str, x: f64| {
        if let Some(n) = serde_json::Number::from_f64(x) {
            out.insert(field.into(), Value::Number(n));
        }
    };
    for field in ["q1", "q3", "p99", "mad", "mean"] {
        if let Some(values) = each(field) {
            set(out, field, middle(&values));
        }
    }
    if let Some(values) = each("min") {
        set(
            out,
            "min",
            values.iter().copied().fold(f64::INFINITY, f64::min),
        );
    }
    if let Some(values) = each("max") {
        set(
            out,
            "max",
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
    }
    for field in ["n", "outliers"] {
        let counts: Option<Vec<u64>> = runs
            .iter()
            .map(|v| v.get(field).and_then(Value::as_u64))
            .collect();
        if let Some(counts) = counts {
            out.insert(field.into(), counts.iter().sum::<u64>().into());
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count).
pub fn middle(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let k = v.len();
    match k {
        0 => f64::NAN,
        _ if k % 2 == 1 => v[k / 2],
        _ => v[k / 2 - 1] / 2.0 + v[k / 2] / 2.0,
    }
}

/// Numbers of several runs: one of them when all are equal, else their median (an integer
/// when they all are and the median is whole).
fn number(runs: &[&Value]) -> Value {
    let reference = runs[runs.len() - 1];
    if runs.iter().all(|v| *v == reference) {
        return reference.clone();
    }
    let values: Vec<f64> = runs.iter().filter_map(|v| v.as_f64()).collect();
    let median = numbers(&values).value;
    let whole = runs.iter().all(|v| v.is_i64() || v.is_u64()) && median.fract() == 0.0;
    if whole && median.abs() < 9.0e15 {
        return Value::from(median as i64);
    }
    serde_json::Number::from_f64(median).map_or_else(|| reference.clone(), Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantity_no_run_measured_below_zero_has_no_interval_below_zero() {
        let e = numbers(&[0.0, 0.0, 0.03]);
        assert_eq!(e.low, 0.0);
        assert!(e.high > 0.03);
        // Where a run did measure below zero (a difference), the interval may.
        assert!(numbers(&[-0.02, 0.0, 0.03]).low < -0.02);
    }

    use serde_json::json;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn t_quantiles_are_the_tabulated_ones_and_approach_the_normal() {
        assert_eq!(t975(1), 12.7062);
        assert_eq!(t975(2), 4.3027);
        assert_eq!(t975(30), 2.0423);
        // Tables give t(40) = 2.0211, t(60) = 2.0003, t(120) = 1.9799.
        assert!(close(t975(40), 2.0211), "{}", t975(40));
        assert!(close(t975(60), 2.0003), "{}", t975(60));
        assert!(close(t975(120), 1.9799), "{}", t975(120));
        assert!(t975(0).is_infinite());
    }

    #[test]
    fn three_runs_give_the_t_interval_of_their_mean() {
        // Medians 10, 12, 14: logarithms 2.3026, 2.4849, 2.6391, mean 2.4755, s = 0.1684,
        // s/√3 = 0.0972, × t(2) = 4.3027 → ± 0.4183: e^2.0572 = 7.8233, e^2.8938 = 18.0642.
        let e = estimate(
            &[14.0, 10.0, 12.0],
            &[(13.0, 15.0), (9.5, 10.5), (11.8, 12.2)],
        );
        assert_eq!(e.value, 12.0);
        assert!(close(e.low, 7.8233) && close(e.high, 18.0642), "{e:?}");
    }

    #[test]
    fn runs_that_agree_are_not_held_back_by_a_wide_own_interval() {
        // Runs agree (100, 100.5, 101: the geometric t-interval is [99.2647, 101.7490])
        // although the median run's own interval is wide: the runs are the evidence.
        let e = estimate(
            &[100.0, 100.5, 101.0],
            &[(99.0, 101.0), (90.0, 110.0), (100.0, 102.0)],
        );
        assert_eq!(e.value, 100.5);
        assert!(close(e.low, 99.2647) && close(e.high, 101.7490), "{e:?}");
        // An even count: the point is the middle pair's mean.
        let e = estimate(&[1.0, 3.0], &[(0.9, 1.1), (2.0, 40.0)]);
        assert_eq!(e.value, 2.0);
        // ln 1 = 0, ln 3 = 1.0986: mean 0.5493, s/√2 = 0.5493, × t(1) = 12.7062 → ± 6.9796,
        // so [e^-6.4303, e^7.5289] = [0.001612, 1861.06]: two runs say little.
        assert!(close(e.low, 0.001612) && close(e.high, 1861.057), "{e:?}");
        // Values that are not all positive keep the plain t-interval: mean 1, s = √2.
        let e = numbers(&[-1.0, 3.0]);
        assert!(
            close(e.low, 1.0 - 12.7062 * 2.0) && close(e.high, 1.0 + 12.7062 * 2.0),
            "{e:?}"
        );
        // One run is its own interval.
        let e = estimate(&[5.0], &[(4.0, 6.0)]);
        assert_eq!((e.value, e.low, e.high), (5.0, 4.0, 6.0));
    }

    #[test]
    fn more_runs_shrink_the_interval_and_variation_widens_it() {
        let three = numbers(&[10.0, 12.0, 14.0]);
        // Six runs: the geometric t-interval is [10.1494, 13.9240], narrower than three's.
        let six = numbers(&[10.0, 12.0, 14.0, 10.0, 12.0, 14.0]);
        assert!(
            close(six.low, 10.1494) && close(six.high, 13.9240),
            "{six:?}"
        );
        assert!(six.high - six.low < three.high - three.low);
        // A value that moves 2× between runs cannot keep a ±3 % interval.
        let t = |m: f64| json!({"type": "timing", "median": m, "ci_low": m * 0.97, "ci_high": m * 1.03});
        let runs = [t(100.0), t(200.0), t(100.0)];
        let c = combine(&runs.iter().collect::<Vec<_>>());
        assert!(c["ci_high"].as_f64().unwrap() > 200.0, "{c}");
    }

    #[test]
    fn results_keep_their_shapes_with_the_runs_added() {
        let run = |m: f64, n: u64, r: f64| {
            json!({"t": {"type": "timing", "median": m, "ci_low": m - 1.0, "ci_high": m + 1.0, "q1": m - 2.0, "n": 15},
                   "speed": {"type": "ratio", "value": r, "low": r - 0.1, "high": r + 0.1},
                   "count": n, "same": 7, "name": "x", "rows": [{"v": n}]})
        };
        let runs = [run(10.0, 3, 2.0), run(12.0, 4, 2.2), run(11.0, 5, 2.1)];
        let c = combine(&runs.iter().collect::<Vec<_>>());
        assert_eq!(c["t"]["median"], 11.0);
        assert_eq!(c["t"]["q1"], 9.0, "the median of the runs' quartiles");
        assert_eq!(c["t"]["n"], 45, "the samples of every run");
        assert_eq!(c["t"]["runs"], 3);
        assert_eq!(c["t"]["run_medians"], json!([10.0, 12.0, 11.0]));
        // The geometric t-interval of 10, 12, 11 is [8.7460, 13.7586].
        assert!(close(c["t"]["ci_low"].as_f64().unwrap(), 8.7460), "{c}");
        assert!(close(c["t"]["ci_high"].as_f64().unwrap(), 13.7586), "{c}");
        assert_eq!(c["speed"]["value"], 2.1);
        assert_eq!(c["speed"]["run_values"], json!([2.0, 2.2, 2.1]));
        assert_eq!(
            c["count"], 4,
            "the median of differing integers, an integer"
        );
        assert_eq!(c["same"], 7);
        assert_eq!(c["name"], "x");
        assert_eq!(c["rows"][0]["v"], 4);
        // A single run is kept as it is.
        assert_eq!(combine(&[&runs[0]]), runs[0]);
    }

    #[test]
    fn a_combined_median_lies_between_its_pooled_quartiles() {
        // The DNS table once showed median 2.39 µs with Q1–Q3 2.34–2.38 µs: the median run's
        // quartiles beside the median of all runs.
        let run = |median: f64, q1: f64, q3: f64| {
            json!({"type": "timing", "median": median, "ci_low": median, "ci_high": median,
                   "q1": q1, "q3": q3, "min": q1 - 1.0, "max": q3 + 1.0, "p99": q3 + 0.5, "n": 10})
        };
        let runs = [
            run(2.35, 2.34, 2.38),
            run(2.45, 2.43, 2.47),
            run(2.39, 2.30, 2.52),
        ];
        let c = combine(&runs.iter().collect::<Vec<_>>());
        let f = |k: &str| c[k].as_f64().unwrap();
        assert_eq!(f("median"), 2.39);
        assert!(f("q1") <= f("median") && f("median") <= f("q3"), "{c}");
        assert_eq!((f("q1"), f("q3")), (2.34, 2.47));
        assert!((f("min") - 1.30).abs() < 1e-12 && f("max") == 3.52, "{c}");
        assert_eq!(c["n"], 30);
    }

    #[test]
    fn runs_of_another_shape_are_left_out() {
        let a = json!({"sweep": [1, 2, 3], "x": 1});
        let b = json!({"sweep": [5], "x": 3});
        let c = json!({"sweep": [7], "x": 5});
        let combined = combine(&[&a, &b, &c]);
        assert_eq!(
            combined["sweep"],
            json!([6]),
            "from the two runs of one element"
        );
        assert_eq!(combined["x"], 3);
    }
}
