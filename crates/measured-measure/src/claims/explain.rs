//! Claims explained to an author: each side's value and interval written readably (durations
//! as durations, four significant digits so an interval's ends differ), how many runs they
//! come from, whether more runs moved a value rather than widening it, and what to do about a
//! claim that fails or stays inconclusive.

use std::collections::BTreeMap;
use std::path::Path;

use super::decide::{Decision, Outcome};
use super::interval::{self, Quantity};
use super::parse::{Cmp, Expr, Tolerance, Value};
pub use super::shown::show;
use super::shown::sig4;
use super::{Budget, Claim};
use crate::experiments::{Measurements, Origin};
use measured_core::diag::{Diagnostic, Place};

/// One line saying what was decided: `holds: a.x = 3× [2.8×, 3.2×] over 3 runs, > 2`.
pub fn summary(expr: &Expr, d: &Decision) -> String {
    let word = match d.outcome {
        Outcome::Holds => "holds",
        Outcome::Fails => "fails",
        Outcome::Inconclusive => "inconclusive",
    };
    let side = |text: &str, q: &Quantity| match q.runs {
        0 => text.to_string(),
        _ => format!("{text} = {}", show(q)),
    };
    format!(
        "{word}: {} {} {}",
        side(&expr.lhs.text, &d.lhs),
        expr.cmp.symbol(),
        side(&expr.rhs.text, &d.rhs)
    )
}

/// What a build knew when it gave up on a claim.
pub struct Context<'a> {
    pub m: &'a Measurements,
    pub budget: &'a Budget,
    /// The runs each experiment had before this build's extra runs.
    pub before: &'a BTreeMap<String, usize>,
    /// Whether the build's time for extra runs ran out.
    pub out_of_time: bool,
}

/// The error of a claim that fails or stays inconclusive.
pub fn failure(path: &Path, claim: &Claim, d: &Decision, cx: &Context<'_>) -> Diagnostic {
    let expr = &claim.expr;
    let runs = d.lhs.runs.max(d.rhs.runs);
    let head = match d.outcome {
        Outcome::Fails => format!("claim `{}` fails: {}", claim.entry.id, claim.entry.text),
        _ => format!(
            "claim `{}` is inconclusive after {runs} run{}: {}",
            claim.entry.id,
            if runs == 1 { "" } else { "s" },
            claim.entry.text
        ),
    };
    let mut lines = vec![head];
    for (op, q) in [(&expr.lhs, &d.lhs), (&expr.rhs, &d.rhs)] {
        if let Value::Path { experiment } = &op.value {
            lines.push(format!("  {} = {}", op.text, show(q)));
            lines.extend(moved(&op.text, experiment, cx));
        }
    }
    if let (Cmp::Approx(t), Some((lo, hi))) = (expr.cmp, d.compared) {
        let (what, band) = match t {
            Tolerance::Relative(n) => ("LHS / RHS", (1.0 - n / 100.0, 1.0 + n / 100.0)),
            Tolerance::Absolute(n) => ("LHS − RHS", (-n, n)),
        };
        lines.push(format!(
            "  {what} is within [{}, {}], the band is [{}, {}]",
            sig4(lo),
            sig4(hi),
            sig4(band.0),
            sig4(band.1)
        ));
    }
    let e = &claim.entry;
    Diagnostic::new(Place::at(path, e.line, e.col), lines.join("\n"))
        .with_snippet(e.source_line.clone())
        .with_hint(advice(claim, d, cx))
}

/// A line saying how a value moved, when this build's extra runs of `experiment` put it
/// outside the interval of the earlier runs.
fn moved(reference: &str, experiment: &str, cx: &Context<'_>) -> Option<String> {
    let found = cx.m.by_name.get(experiment)?;
    let all = &found.record.runs;
    let split = *cx.before.get(experiment)?;
    if split == 0 || split >= all.len() {
        return None;
    }
    let results = interval::runs_of(found);
    let path = interval::path_of(reference);
    let earlier = interval::of_runs(&results[..split], path, reference).ok()?;
    let later = interval::of_runs(&results[split..], path, reference).ok()?;
    if earlier.overlaps(&later) {
        return None;
    }
    let load = |runs: &[crate::experiments::Run]| {
        format!(
            "load {} → {}",
            runs[0].provenance.load_before[0],
            runs[runs.len() - 1].provenance.load_after[0]
        )
    };
    Some(format!(
        "  re-measuring moved it rather than widening it: {} in runs 1–{split} ({}), {} in runs {}–{} ({}); a value that shifts with the machine's state is not noise",
        show(&earlier),
        load(&all[..split]),
        show(&later),
        split + 1,
        all.len(),
        load(&all[split..])
    ))
}

/// What to do about the claim.
fn advice(claim: &Claim, d: &Decision, cx: &Context<'_>) -> String {
    let soften = supported(&claim.expr, d)
        .map(|s| format!(", e.g. `{s}`, the tolerance the data supports"))
        .unwrap_or_default();
    if d.outcome == Outcome::Fails {
        return format!(
            "the measurements contradict the sentence: rewrite it and its claim to say what was measured{soften}"
        );
    }
    let names: Vec<&str> = [&claim.expr.lhs, &claim.expr.rhs]
        .into_iter()
        .filter_map(|op| match &op.value {
            Value::Path { experiment } => Some(experiment.as_str()),
            Value::Number(_) => None,
        })
        .collect();
    let frozen = names.iter().any(|n| {
        cx.m.by_name
            .get(*n)
            .is_some_and(|f| matches!(f.origin, Origin::Frozen | Origin::Imported))
    });
    let rerun = names
        .first()
        .map_or(String::new(), |n| format!("`measured build --rerun {n}`"));
    let spent = if frozen {
        "frozen results are never measured again".to_string()
    } else if cx.out_of_time {
        format!(
            "this build's {} s for extra runs were spent",
            cx.budget.extra_time.as_secs()
        )
    } else {
        format!(
            "each experiment had its {} runs and {} extra",
            cx.budget.runs, cx.budget.extra_runs
        )
    };
    format!(
        "{spent}. Measure more: raise `[claims] extra_runs` or `extra_secs` in site.toml, or run {rerun} on a quiet machine; or soften the sentence and its claim{soften}"
    )
}

/// The equivalence the data supports, for an equivalence or a comparison of two paths between
/// positive quantities: `a ~= b ± N%` with the smallest round N whose band holds the whole
/// interval of a / b. (Against a number, an ordering is a bound, not an equivalence.)
fn supported(expr: &Expr, d: &Decision) -> Option<String> {
    let paths = [&expr.lhs, &expr.rhs]
        .iter()
        .all(|op| matches!(op.value, Value::Path { .. }));
    if !(paths || matches!(expr.cmp, Cmp::Approx(_)))
        || d.lhs.value <= 0.0
        || d.rhs.value <= 0.0
        || d.rhs.low <= 0.0
    {
        return None;
    }
    let lo = d.lhs.low / d.rhs.high;
    let hi = d.lhs.high / d.rhs.low;
    let needed = (hi - 1.0).max(1.0 - lo) * 100.0;
    let n = [1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 90]
        .into_iter()
        .find(|&n| f64::from(n) >= needed)?;
    Some(format!("{} ~= {} ± {n}%", expr.lhs.text, expr.rhs.text))
}
