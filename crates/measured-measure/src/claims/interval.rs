//! Each operand of a claim as a quantity with an interval, read from an experiment's runs: a
//! timing summary is its median with the 95 % interval of it, a ratio its value with low and
//! high, a number exact when every run gave the same and otherwise the interval across runs
//! (all combined by `experiments::combine`, as the page shows them); a literal is exact.

use serde_json::Value;

use crate::experiments::{Measurement, Measurements, combine};
use crate::values::{self, Kind};
use measured_core::reference::{HookError, Reference};

/// An exact value: a literal, or a number every run gave the same.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Exact {
    Int(i128),
    Float(f64),
}

impl Exact {
    pub fn as_f64(self) -> f64 {
        match self {
            Exact::Int(i) => i as f64,
            Exact::Float(x) => x,
        }
    }

    /// Equality of exact values: integers compare exactly, even beyond f64's precision.
    pub fn same(self, other: Exact) -> bool {
        match (self, other) {
            (Exact::Int(a), Exact::Int(b)) => a == b,
            (a, b) => a.as_f64() == b.as_f64(),
        }
    }

    fn of_json(n: &serde_json::Number) -> Option<Exact> {
        if let Some(i) = n.as_i64() {
            return Some(Exact::Int(i.into()));
        }
        if let Some(u) = n.as_u64() {
            return Some(Exact::Int(u.into()));
        }
        n.as_f64().filter(|x| x.is_finite()).map(Exact::Float)
    }
}

/// A value with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantity {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// The value, when it is exact (then `low == value == high`).
    pub exact: Option<Exact>,
    /// What the value measures, for formatting it.
    pub kind: Kind,
    /// The runs it comes from (0 for a literal).
    pub runs: usize,
}

impl Quantity {
    pub fn literal(e: Exact) -> Quantity {
        let x = e.as_f64();
        Quantity {
            value: x,
            low: x,
            high: x,
            exact: Some(e),
            kind: Kind::Plain,
            runs: 0,
        }
    }

    /// Whether the two intervals share a point.
    pub fn overlaps(&self, other: &Quantity) -> bool {
        self.low <= other.high && other.low <= self.high
    }
}

/// The quantity `reference` (`<experiment>.<path>`) names in the measurements.
pub fn quantity(m: &Measurements, reference: &str) -> Result<Quantity, HookError> {
    let (found, v) = values::resolve(m, reference)?;
    if values::number(v).is_none() {
        return Err(HookError::new(format!(
            "`{reference}` is a {}, not a number",
            values::type_name(v)
        ))
        .hint("compare a number, a timing summary (its median) or a ratio (its value)"));
    }
    of_runs(&runs_of(found), path_of(reference), reference)
}

/// The results of each run of a measurement, oldest first.
pub fn runs_of(found: &Measurement) -> Vec<&Value> {
    found.record.runs.iter().map(|r| &r.results).collect()
}

/// The path inside the results that `reference` names.
pub fn path_of(reference: &str) -> &str {
    Reference::parse(reference).path
}

/// The quantity at `path` of the runs `runs` (results values), named `reference` in errors.
pub fn of_runs(runs: &[&Value], path: &str, reference: &str) -> Result<Quantity, HookError> {
    let at: Vec<&Value> = runs
        .iter()
        .filter_map(|r| values::at(r, path).ok())
        .collect();
    let Some(&latest) = at.last() else {
        return Err(HookError::new(format!("no run has `{reference}`")));
    };
    let alike: Vec<&Value> = at
        .iter()
        .copied()
        .filter(|v| {
            combine::kind(v) == combine::kind(latest) && v.is_number() == latest.is_number()
        })
        .collect();
    let q = match (latest, combine::kind(latest)) {
        (_, Some(kind @ ("timing" | "ratio" | "share" | "number"))) => {
            combined(runs, path, kind, alike.len())
        }
        (Value::Number(_), _) => plain(&alike),
        _ => None,
    };
    let q = q.ok_or_else(|| HookError::new(format!("`{reference}` is not a number")))?;
    if !(q.value.is_finite() && q.low.is_finite() && q.high.is_finite()) {
        return Err(HookError::new(format!(
            "`{reference}` is not finite over its {} runs (value {:e}, interval [{:e}, {:e}])",
            q.runs, q.value, q.low, q.high
        ))
        .hint("claims compare finite numbers: check what the experiment writes"));
    }
    Ok(q)
}

/// The quantity at `path` of the runs combined as a page shows them (a derived value from
/// its combined parts, with the interval of its runs' own values).
fn combined(runs: &[&Value], path: &str, kind: &str, alike: usize) -> Option<Quantity> {
    let all = crate::experiments::derived::combined(runs);
    let (value, (low, high)) = crate::experiments::derived::point(values::at(&all, path).ok()?)?;
    let exact = (low == value && high == value).then_some(Exact::Float(value));
    Some(Quantity {
        value,
        low: low.min(value),
        high,
        exact,
        kind: match kind {
            "timing" => Kind::Timing,
            "ratio" => Kind::Ratio,
            "share" => Kind::Share,
            _ => Kind::Plain,
        },
        runs: alike,
    })
}

fn plain(runs: &[&Value]) -> Option<Quantity> {
    let latest = runs.last()?;
    if runs.iter().all(|v| v == latest) {
        let exact = Exact::of_json(latest.as_number()?)?;
        return Some(Quantity {
            runs: runs.len(),
            ..Quantity::literal(exact)
        });
    }
    let numbers: Vec<f64> = runs.iter().filter_map(|v| v.as_f64()).collect();
    let e = combine::numbers(&numbers);
    Some(Quantity {
        value: e.value,
        low: e.low,
        high: e.high,
        exact: None,
        kind: Kind::Plain,
        runs: runs.len(),
    })
}

/// A ratio measured over three runs, for tests: `value` in [`low`, `high`].
#[cfg(test)]
pub(crate) fn measured(value: f64, low: f64, high: f64) -> Quantity {
    Quantity {
        value,
        low,
        high,
        exact: None,
        kind: crate::values::Kind::Ratio,
        runs: 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn of(runs: &[Value], path: &str) -> Result<Quantity, HookError> {
        of_runs(&runs.iter().collect::<Vec<_>>(), path, path)
    }

    #[test]
    fn a_number_equal_in_every_run_is_exact_and_one_that_moves_has_an_interval() {
        let runs = [
            json!({"n": 200, "big": 18446744073709551615u64}),
            json!({"n": 200, "big": 18446744073709551615u64}),
        ];
        let q = of(&runs, "n").unwrap();
        assert_eq!(q.exact, Some(Exact::Int(200)));
        assert_eq!((q.low, q.high, q.runs), (200.0, 200.0, 2));
        assert!(
            of(&runs, "big")
                .unwrap()
                .exact
                .unwrap()
                .same(Exact::Int(u64::MAX.into()))
        );
        assert!(!Exact::Int(u64::MAX.into()).same(Exact::Int(i128::from(u64::MAX) - 1)));
        let runs = [json!({"n": 200}), json!({"n": 201}), json!({"n": 202})];
        let q = of(&runs, "n").unwrap();
        assert_eq!(q.exact, None);
        assert_eq!(q.value, 201.0);
        // The geometric t-interval of 200, 201, 202: [198.5295, 203.4979].
        assert!((q.high - 203.4979).abs() < 1e-3, "{q:?}");
    }

    #[test]
    fn timings_and_ratios_are_measured_whatever_their_runs() {
        let t = json!({"t": {"type": "timing", "median": 10.0, "ci_low": 9.0, "ci_high": 11.0}});
        let q = of(&[t.clone(), t], "t").unwrap();
        assert_eq!((q.value, q.low, q.high, q.exact), (10.0, 9.0, 11.0, None));
        assert_eq!(q.kind, Kind::Timing);
        let r = json!({"r": {"type": "ratio", "value": 2.0, "low": 2.0, "high": 2.0}});
        let q = of(&[r], "r").unwrap();
        assert_eq!(
            q.exact,
            Some(Exact::Float(2.0)),
            "a ratio of exact sizes is exact"
        );
        assert!(of(&[json!({"s": "x"})], "s").is_err());
    }

    #[test]
    fn a_value_that_is_not_finite_is_refused() {
        let runs = [json!({"x": 1.5e308}), json!({"x": -1.5e308})];
        let e = of(&runs, "x").unwrap_err();
        assert!(
            e.message.starts_with("`x` is not finite over its 2 runs"),
            "{}",
            e.message
        );
    }
}
