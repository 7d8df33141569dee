//! Derived values: a ratio, difference, share or product that an experiment declares from two
//! of its other values (`"derived": {"op": "ratio", "of": ["a.time", "b.time"]}`, written by
//! the harness). Once the runs are combined, each is computed again from the *combined* parts,
//! so that the figures a page shows add up (1.69× is the quotient of the two medians printed
//! beside it), while its interval comes from the runs' own paired values (each run's ratio of
//! its own two sides), which keeps the benefit of measuring both sides in one run.

use serde_json::{Map, Value};

use super::combine;

/// A derived value's operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Ratio,
    Difference,
    Share,
    Product,
}

impl Op {
    fn parse(name: &str) -> Option<Op> {
        match name {
            "ratio" => Some(Op::Ratio),
            "difference" => Some(Op::Difference),
            "share" => Some(Op::Share),
            "product" => Some(Op::Product),
            _ => None,
        }
    }

    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Op::Ratio | Op::Share => a / b,
            Op::Difference => a - b,
            Op::Product => a * b,
        }
    }

    /// The interval of `a op b` from the parts' intervals.
    fn bounds(self, (al, ah): (f64, f64), (bl, bh): (f64, f64)) -> (f64, f64) {
        let ends = match self {
            Op::Ratio | Op::Share => [al / bl, al / bh, ah / bl, ah / bh],
            Op::Difference => [al - bh, al - bh, ah - bl, ah - bl],
            Op::Product => [al * bl, al * bh, ah * bl, ah * bh],
        };
        (
            ends.iter().copied().fold(f64::INFINITY, f64::min),
            ends.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }
}

/// A derived value as declared: where it is, its operation and its two parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub path: String,
    pub op: Op,
    pub of: [String; 2],
}

/// Every derived value declared in `results`, in document order.
pub fn declared(results: &Value) -> Vec<Declared> {
    let mut out = Vec::new();
    walk(results, String::new(), &mut out);
    out
}

fn walk(v: &Value, path: String, out: &mut Vec<Declared>) {
    match v {
        Value::Object(map) => {
            if let Some(d) = map.get("derived").and_then(|d| declaration(d, &path)) {
                out.push(d);
            }
            for (k, child) in map {
                if k != "derived" {
                    walk(child, join(&path, k), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, join(&path, &i.to_string()), out);
            }
        }
        _ => {}
    }
}

fn declaration(d: &Value, path: &str) -> Option<Declared> {
    let op = Op::parse(d.get("op")?.as_str()?)?;
    let of = d.get("of")?.as_array()?;
    let [a, b] = of.as_slice() else {
        return None;
    };
    Some(Declared {
        path: path.to_string(),
        op,
        of: [a.as_str()?.to_string(), b.as_str()?.to_string()],
    })
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}.{b}")
    }
}

/// The value at a dotted path.
fn at<'v>(root: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(root, |v, seg| match v {
        Value::Object(m) => m.get(seg),
        Value::Array(items) => items.get(seg.parse::<usize>().ok()?),
        _ => None,
    })
}

fn at_mut<'v>(root: &'v mut Value, path: &str) -> Option<&'v mut Value> {
    path.split('.').try_fold(root, |v, seg| match v {
        Value::Object(m) => m.get_mut(seg),
        Value::Array(items) => items.get_mut(seg.parse::<usize>().ok()?),
        _ => None,
    })
}

/// A value's point and interval: a number is its own interval; a timing its median and
/// `ci_low`–`ci_high`; a ratio, share or number object its `value` and `low`–`high`.
pub fn point(v: &Value) -> Option<(f64, (f64, f64))> {
    if let Some(x) = v.as_f64() {
        return Some((x, (x, x)));
    }
    let (value, low, high) = match combine::kind(v)? {
        "timing" => ("median", "ci_low", "ci_high"),
        "ratio" | "share" | "number" => ("value", "low", "high"),
        _ => return None,
    };
    let x = v.get(value)?.as_f64()?;
    let field = |f: &str| v.get(f).and_then(Value::as_f64).unwrap_or(x);
    Some((x, (field(low), field(high))))
}

/// The runs' results combined ([`combine::combine`]), with every derived value computed again
/// from the combined parts: the one combination every figure of a page comes from.
pub fn combined(runs: &[&Value]) -> Value {
    let mut all = combine::combine(runs);
    recompute(&mut all, runs);
    all
}

/// Computes every derived value of `combined` again from its combined parts, with the
/// interval of the runs' own values of it (`runs`, each run's results); parts that are
/// derived themselves are computed first. A derived value whose parts are missing is left as
/// it is ([`problems`] reports it).
pub fn recompute(combined: &mut Value, runs: &[&Value]) {
    let mut pending = declared(combined);
    // Each pass computes those whose parts are not pending; a cycle stops the loop.
    loop {
        let before = pending.len();
        let waiting: Vec<String> = pending.iter().map(|d| d.path.clone()).collect();
        pending.retain(|d| {
            let blocked = d.of.iter().any(|p| waiting.iter().any(|w| w == p));
            blocked || !compute(combined, runs, d)
        });
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
}

/// Computes `d` in `combined`; false when its parts are not there.
fn compute(combined: &mut Value, runs: &[&Value], d: &Declared) -> bool {
    let (Some((a, ai)), Some((b, bi))) = (
        at(combined, &d.of[0]).and_then(point),
        at(combined, &d.of[1]).and_then(point),
    ) else {
        return false;
    };
    let value = d.op.apply(a, b);
    let each: Vec<f64> = runs
        .iter()
        .filter_map(|r| at(r, &d.path).and_then(point).map(|(p, _)| p))
        .collect();
    let spread = each.len() >= 2 && each.iter().any(|&x| x != each[0]);
    let exact_parts = ai.0 == ai.1 && bi.0 == bi.1;
    let (low, high) = if exact_parts {
        // Of exact parts (sizes, counts every run agreed on), exact too.
        (value, value)
    } else if spread {
        let e = combine::numbers(&each);
        (e.low, e.high)
    } else if each.len() >= 2 {
        // Every run gave the same value (a difference of two counts that agree): it is the
        // runs' evidence, however the parts moved.
        (each[0], each[0])
    } else {
        d.op.bounds(ai, bi)
    };
    let Some(Value::Object(node)) = at_mut(combined, &d.path) else {
        return false;
    };
    let timing = node.get("type").and_then(Value::as_str) == Some("timing");
    let (v, l, h, list) = if timing {
        ("median", "ci_low", "ci_high", "run_medians")
    } else {
        ("value", "low", "high", "run_values")
    };
    let set = |node: &mut Map<String, Value>, k: &str, x: f64| {
        if let Some(n) = serde_json::Number::from_f64(x) {
            node.insert(k.into(), Value::Number(n));
        }
    };
    set(node, v, value);
    set(node, l, low.min(value));
    set(node, h, high.max(value));
    if runs.len() >= 2 {
        node.insert("runs".into(), runs.len().into());
        node.insert(list.into(), each.into());
    }
    true
}

/// What is wrong with the derived values of `results` (combined): parts that are missing or
/// not numbers, and values that disagree with their parts. Each: (path, problem).
pub fn problems(results: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in declared(results) {
        let parts: Vec<Option<f64>> =
            d.of.iter()
                .map(|p| at(results, p).and_then(point).map(|(x, _)| x))
                .collect();
        let shown = at(results, &d.path).and_then(point).map(|(x, _)| x);
        match (parts[0], parts[1], shown) {
            (Some(a), Some(b), Some(v)) => {
                let expected = d.op.apply(a, b);
                let close = (v - expected).abs() <= 1e-9 * expected.abs().max(v.abs());
                if !close {
                    out.push((
                        d.path.clone(),
                        format!(
                            "is {v}, and {} of its parts `{}` ({a}) and `{}` ({b}) is {expected}",
                            name(d.op),
                            d.of[0],
                            d.of[1]
                        ),
                    ));
                }
            }
            (a, b, _) => {
                for (p, x) in d.of.iter().zip([a, b]) {
                    if x.is_none() {
                        out.push((
                            d.path.clone(),
                            format!("is derived from `{p}`, which is not a number of the results"),
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Every derived value of the measurements (this machine's and the others') that disagrees
/// with its parts, as an error at the experiment's source.
pub fn check(
    m: &super::Measurements,
    dir: &std::path::Path,
) -> Result<(), measured_core::diag::Diagnostics> {
    use measured_core::diag::{Diagnostic, Place};
    let records = m.by_name.iter().map(|(n, f)| (n, &f.record, None)).chain(
        m.elsewhere
            .iter()
            .flat_map(|(machine, rs)| rs.iter().map(move |(n, r)| (n, r, Some(machine)))),
    );
    let mut diags = measured_core::diag::Diagnostics::default();
    for (name, record, machine) in records {
        for (path, problem) in problems(&record.results) {
            let on = machine.map_or(String::new(), |m| format!(" (machine `{m}`)"));
            diags.push(
                Diagnostic::new(
                    Place::file(dir.join(name).join("src/main.rs")),
                    format!("experiment `{name}`{on}: the derived value `{path}` {problem}"),
                )
                .with_hint(format!("declare it from two values the results hold (`results.ratio(\"{path}\", \"a\", \"b\")`), then measure again: `measured build --rerun {name}`")),
            );
        }
    }
    diags.into_result(())
}

fn name(op: Op) -> &'static str {
    match op {
        Op::Ratio => "the ratio",
        Op::Difference => "the difference",
        Op::Share => "the share",
        Op::Product => "the product",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A run in which `a` takes `ta` ns and `b` takes `tb` ns, with the harness's ratio of them.
    fn run(ta: f64, tb: f64) -> Value {
        let t = |m: f64| json!({"type": "timing", "median": m, "ci_low": m * 0.99, "ci_high": m * 1.01});
        json!({"a": t(ta), "b": t(tb),
               "r": {"type": "ratio", "value": ta / tb, "low": 0.0, "high": 0.0,
                     "derived": {"op": "ratio", "of": ["a", "b"]}},
               "gap": {"type": "timing", "median": ta - tb, "ci_low": 0.0, "ci_high": 0.0,
                       "derived": {"op": "difference", "of": ["a", "b"]}},
               "rr": {"type": "ratio", "value": (ta - tb) / tb, "low": 0.0, "high": 0.0,
                      "derived": {"op": "ratio", "of": ["gap", "b"]}}})
    }

    #[test]
    fn a_derived_value_is_its_combined_parts_with_the_interval_of_its_runs() {
        // The runs' medians: a 121, 125, 118; b 71.7, 70, 73. Their medians 121 and 71.7 give
        // 1.6876×, which the page shows next to them; the median of the runs' ratios (1.6876,
        // 1.7857, 1.6164) would not be their quotient.
        let runs = [run(121.0, 71.7), run(125.0, 70.0), run(118.0, 73.0)];
        let c = combined(&runs.iter().collect::<Vec<_>>());
        let a = c["a"]["median"].as_f64().unwrap();
        let b = c["b"]["median"].as_f64().unwrap();
        assert_eq!((a, b), (121.0, 71.7));
        assert_eq!(c["r"]["value"].as_f64().unwrap(), 121.0 / 71.7);
        assert_eq!(c["gap"]["median"].as_f64().unwrap(), 121.0 - 71.7);
        assert_eq!(c["rr"]["value"].as_f64().unwrap(), (121.0 - 71.7) / 71.7);
        // The interval is the runs' own ratios' (geometric t-interval), holding the value.
        let each = [121.0 / 71.7, 125.0 / 70.0, 118.0 / 73.0];
        assert_eq!(c["r"]["run_values"], json!(each));
        let e = combine::numbers(&each);
        assert_eq!(c["r"]["low"].as_f64().unwrap(), e.low.min(121.0 / 71.7));
        assert_eq!(c["r"]["high"].as_f64().unwrap(), e.high);
        assert!(problems(&c).is_empty(), "{:?}", problems(&c));
    }

    #[test]
    fn runs_that_agree_on_a_derived_value_make_it_exact() {
        // Counts that move between runs while their difference does not: 6,486 − 6,485 and
        // 6,490 − 6,489, a gap of 1 in both.
        let run = |a: u64, b: u64| json!({"a": a, "b": b, "gap": {"type": "number", "value": (a - b) as f64, "low": 0.0, "high": 0.0, "derived": {"op": "difference", "of": ["a", "b"]}}});
        let runs = [run(6486, 6485), run(6490, 6489)];
        let c = combined(&runs.iter().collect::<Vec<_>>());
        assert_eq!(c["gap"]["value"], 1.0);
        assert_eq!(
            (c["gap"]["low"].as_f64(), c["gap"]["high"].as_f64()),
            (Some(1.0), Some(1.0))
        );
    }

    #[test]
    fn a_derived_value_of_exact_parts_is_exact() {
        let run = |a: u64| json!({"a": a, "b": 997, "r": {"type": "ratio", "value": a as f64 / 997.0, "low": 0.0, "high": 0.0, "derived": {"op": "ratio", "of": ["a", "b"]}}});
        let runs = [run(1000), run(1000), run(1000)];
        let c = combined(&runs.iter().collect::<Vec<_>>());
        let v = c["r"]["value"].as_f64().unwrap();
        assert_eq!(v, 1000.0 / 997.0);
        assert_eq!(
            (c["r"]["low"].as_f64(), c["r"]["high"].as_f64()),
            (Some(v), Some(v))
        );
    }

    #[test]
    fn one_run_takes_its_interval_from_its_parts() {
        let one = run(200.0, 100.0);
        let c = combined(&[&one]);
        assert_eq!(c["r"]["value"], 2.0);
        assert_eq!(c["r"]["low"].as_f64().unwrap(), 198.0 / 101.0);
        assert_eq!(c["r"]["high"].as_f64().unwrap(), 202.0 / 99.0);
        assert_eq!(c["gap"]["ci_low"].as_f64().unwrap(), 198.0 - 101.0);
    }

    #[test]
    fn missing_parts_and_values_that_disagree_are_problems() {
        let mut v = run(200.0, 100.0);
        v["r"]["value"] = json!(2.5);
        v["gap"]["derived"]["of"] = json!(["a", "nope"]);
        assert_eq!(
            problems(&v),
            [
                (
                    "gap".to_string(),
                    "is derived from `nope`, which is not a number of the results".to_string()
                ),
                (
                    "r".to_string(),
                    "is 2.5, and the ratio of its parts `a` (200) and `b` (100) is 2".to_string()
                ),
            ]
        );
    }
}
