//! Deciding one claim from the intervals of its two sides: it *holds* when the whole interval
//! is on the claimed side (or inside the `~=` band), *fails* when it is wholly on the other side
//! (or outside the band), and is *inconclusive* otherwise. `==` and `!=` compare exact values
//! only.

use super::interval::{self, Quantity};
use super::parse::{Cmp, Expr, Operand, Tolerance, Value};
use super::shown::show;
use crate::experiments::Measurements;

/// What the measurements say of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Holds,
    Fails,
    /// The intervals overlap the boundary: more runs may decide it.
    Inconclusive,
}

/// A claim decided, with the quantities it was decided on.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub outcome: Outcome,
    pub lhs: Quantity,
    pub rhs: Quantity,
    /// For `~=`: the interval of LHS / RHS (relative) or LHS − RHS (absolute) set against the
    /// band.
    pub compared: Option<(f64, f64)>,
}

/// Why a claim cannot be decided at all: a path that names no number, `==` on a measured
/// value, a relative tolerance on a quantity that is not positive.
#[derive(Debug, Clone, PartialEq)]
pub struct DecideError {
    pub message: String,
    pub hint: Option<String>,
    /// Character offset in the claim's text of the operand at fault.
    pub at: usize,
}

/// Decides `expr` on the measurements.
pub fn decide(expr: &Expr, m: &Measurements) -> Result<Decision, DecideError> {
    not_inputs_only(expr, m)?;
    let lhs = side(&expr.lhs, m)?;
    let rhs = side(&expr.rhs, m)?;
    same_kind(expr, &lhs, &rhs)?;
    let (outcome, compared) = compare(expr, &lhs, &rhs)?;
    Ok(Decision {
        outcome,
        lhs,
        rhs,
        compared,
    })
}

/// A claim must compare at least one measurement: a claim over the experiment's inputs
/// (parameters, injected delays, sizes it chose) and literals holds whatever the code does.
fn not_inputs_only(expr: &Expr, m: &Measurements) -> Result<(), DecideError> {
    let input = |op: &Operand| match &op.value {
        Value::Number(_) => Some(true),
        Value::Path { experiment } => Some(is_input(m, experiment, &op.text)?),
    };
    let (Some(a), Some(b)) = (input(&expr.lhs), input(&expr.rhs)) else {
        return Ok(());
    };
    if !(a && b) {
        return Ok(());
    }
    let first = [&expr.lhs, &expr.rhs]
        .into_iter()
        .find(|op| matches!(op.value, Value::Path { .. }))
        .unwrap_or(&expr.lhs);
    Err(DecideError {
        message: "compares the experiment's inputs, not a measurement: `".to_string()
            + &first.text
            + "` is set by the experiment (declared with `Results::input`), so the claim holds whatever the code does",
        hint: Some("claim what the experiment measures, compared with an input if the sentence needs it (`exp.measured > exp.input`); a sentence about the experiment's own settings needs no claim".into()),
        at: first.at,
    })
}

/// Whether `reference` (`experiment.path`) is an input of its experiment: the path, or a
/// path under it, is listed in the results' `_inputs`. `None` when the experiment was not
/// measured (its operand's own error says so).
fn is_input(m: &Measurements, experiment: &str, reference: &str) -> Option<bool> {
    let found = m.by_name.get(experiment)?;
    let path = interval::path_of(reference);
    let inputs = found.record.results.get("_inputs")?.as_array();
    Some(
        inputs
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .any(|i| {
                path == i
                    || path
                        .strip_prefix(i)
                        .is_some_and(|rest| rest.starts_with('.'))
            }),
    )
}

/// Two measured sides of one kind: a duration compares with a duration, not with a ratio or
/// a count (whose unit the claim cannot know).
fn same_kind(expr: &Expr, a: &Quantity, b: &Quantity) -> Result<(), DecideError> {
    use crate::values::Kind;
    if a.runs == 0 || b.runs == 0 || (a.kind == Kind::Timing) == (b.kind == Kind::Timing) {
        return Ok(());
    }
    let name = |k: Kind| match k {
        Kind::Timing => "a duration",
        Kind::Ratio => "a ratio",
        Kind::Share => "a share",
        Kind::Plain => "a number",
    };
    Err(DecideError {
        message: format!(
            "compares {} (`{}`) with {} (`{}`): values of different kinds or units",
            name(a.kind),
            expr.lhs.text,
            name(b.kind),
            expr.rhs.text
        ),
        hint: Some("compare a duration with a duration (a delay the experiment sets is an input duration: `Results::input_duration`), or a ratio or count with a number".into()),
        at: expr.rhs.at,
    })
}

/// The quantity an operand stands for.
pub fn side(op: &Operand, m: &Measurements) -> Result<Quantity, DecideError> {
    match &op.value {
        Value::Number(n) => Ok(Quantity::literal(*n)),
        Value::Path { .. } => interval::quantity(m, &op.text).map_err(|e| DecideError {
            message: e.message,
            hint: e.hint,
            at: op.at,
        }),
    }
}

/// The outcome of `expr` on two quantities.
pub fn compare(
    expr: &Expr,
    a: &Quantity,
    b: &Quantity,
) -> Result<(Outcome, Option<(f64, f64)>), DecideError> {
    let by = |holds: bool, fails: bool| {
        Ok((
            match (holds, fails) {
                (true, _) => Outcome::Holds,
                (_, true) => Outcome::Fails,
                _ => Outcome::Inconclusive,
            },
            None,
        ))
    };
    match expr.cmp {
        Cmp::Lt => by(a.high < b.low, a.low >= b.high),
        Cmp::Le => by(a.high <= b.low, a.low > b.high),
        Cmp::Gt => by(a.low > b.high, a.high <= b.low),
        Cmp::Ge => by(a.low >= b.high, a.high < b.low),
        // A count that differs between runs is not the same in every run: neither `==` nor
        // `!=` holds in all of them. (A timing or a ratio is never exact: an error below.)
        Cmp::Eq | Cmp::Ne if varies(a) || varies(b) => Ok((Outcome::Fails, None)),
        Cmp::Eq | Cmp::Ne => {
            let (x, y) = exact_sides(expr, a, b)?;
            by(
                x.same(y) == (expr.cmp == Cmp::Eq),
                x.same(y) != (expr.cmp == Cmp::Eq),
            )
        }
        Cmp::Approx(tolerance) => {
            let (interval, band) = match tolerance {
                Tolerance::Relative(n) => {
                    positive_sides(expr, a, b)?;
                    (quotient(a, b), (1.0 - n / 100.0, 1.0 + n / 100.0))
                }
                Tolerance::Absolute(t) => ((a.low - b.high, a.high - b.low), (-t, t)),
            };
            let inside = interval.0 >= band.0 && interval.1 <= band.1;
            let outside = interval.1 < band.0 || interval.0 > band.1;
            by(inside, outside).map(|(o, _)| (o, Some(interval)))
        }
    }
}

/// A plain number of the runs that not every run gave the same.
fn varies(q: &Quantity) -> bool {
    q.exact.is_none() && q.kind == crate::values::Kind::Plain && q.runs > 0
}

/// The interval of a / b for b's point positive: unbounded when b's interval reaches zero.
fn quotient(a: &Quantity, b: &Quantity) -> (f64, f64) {
    if b.low <= 0.0 {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let ends = [
        a.low / b.low,
        a.low / b.high,
        a.high / b.low,
        a.high / b.high,
    ];
    (
        ends.iter().copied().fold(f64::INFINITY, f64::min),
        ends.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

fn exact_sides(
    expr: &Expr,
    a: &Quantity,
    b: &Quantity,
) -> Result<(interval::Exact, interval::Exact), DecideError> {
    for (q, op, other) in [(a, &expr.lhs, &expr.rhs), (b, &expr.rhs, &expr.lhs)] {
        if q.exact.is_none() {
            return Err(DecideError {
                message: format!(
                    "`{}` compares exact values, and `{}` is measured: {}",
                    expr.cmp.symbol(),
                    op.text,
                    show(q)
                ),
                hint: Some(format!(
                    "to say that two measured values are about equal, write `~=` with the tolerance the data supports, e.g. `{} ~= {} ± 5%`",
                    op.text, other.text
                )),
                at: op.at,
            });
        }
    }
    Ok((a.exact.expect("exact"), b.exact.expect("exact")))
}

fn positive_sides(expr: &Expr, a: &Quantity, b: &Quantity) -> Result<(), DecideError> {
    for (q, op) in [(a, &expr.lhs), (b, &expr.rhs)] {
        if q.value <= 0.0 {
            return Err(DecideError {
                message: format!(
                    "a relative tolerance compares positive quantities, and `{}` is {}",
                    op.text,
                    show(q)
                ),
                hint: Some("write an absolute tolerance instead: `a ~= b ± 0.5`".into()),
                at: op.at,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::interval::{Exact, measured};
    use crate::claims::parse::parse;
    use crate::values::Kind;

    fn outcome(claim: &str, a: Quantity, b: Quantity) -> Outcome {
        compare(&parse(claim).unwrap(), &a, &b).unwrap().0
    }

    #[test]
    fn orderings_need_the_whole_interval_on_one_side() {
        let x = measured(3.0, 2.8, 3.2);
        let two = Quantity::literal(Exact::Int(2));
        let three = Quantity::literal(Exact::Int(3));
        let four = Quantity::literal(Exact::Int(4));
        assert_eq!(outcome("a.x > 2", x, two), Outcome::Holds);
        assert_eq!(outcome("a.x > 3", x, three), Outcome::Inconclusive);
        assert_eq!(outcome("a.x > 4", x, four), Outcome::Fails);
        assert_eq!(outcome("a.x < 4", x, four), Outcome::Holds);
        assert_eq!(
            outcome("a.x <= 3.2", x, Quantity::literal(Exact::Float(3.2))),
            Outcome::Holds
        );
        assert_eq!(
            outcome("a.x < 3.2", x, Quantity::literal(Exact::Float(3.2))),
            Outcome::Inconclusive
        );
        assert_eq!(
            outcome("a.x >= 3.2", x, Quantity::literal(Exact::Float(3.2))),
            Outcome::Inconclusive
        );
        assert_eq!(outcome("a.x >= 4", x, four), Outcome::Fails);
        let y = measured(3.5, 3.1, 3.9);
        assert_eq!(
            outcome("a.x < a.y", x, y),
            Outcome::Inconclusive,
            "the intervals overlap"
        );
        assert_eq!(
            outcome("a.x < a.y", x, measured(4.0, 3.3, 4.5)),
            Outcome::Holds
        );
    }

    #[test]
    fn equivalence_holds_inside_its_band_and_fails_outside() {
        // 0.86 [0.854, 0.867] against 1: within 20 %, not within 10 %.
        let gob = measured(0.86, 0.854, 0.867);
        let one = Quantity::literal(Exact::Int(1));
        assert_eq!(outcome("a.x ~= 1 ± 20%", gob, one), Outcome::Holds);
        assert_eq!(outcome("a.x ~= 1 ± 10%", gob, one), Outcome::Fails);
        assert_eq!(outcome("a.x ~= 1 ± 14%", gob, one), Outcome::Inconclusive);
        assert_eq!(outcome("a.x ~= 1 ± 0.15", gob, one), Outcome::Holds);
        assert_eq!(outcome("a.x ~= 1 ± 0.1", gob, one), Outcome::Fails);
        // Relative between two measured values: [10/12.5, 11/9.5] = [0.8, 1.158].
        let (o, interval) = compare(
            &parse("a.x ~= a.y ± 20%").unwrap(),
            &measured(10.5, 10.0, 11.0),
            &measured(11.0, 9.5, 12.5),
        )
        .unwrap();
        assert_eq!(o, Outcome::Holds);
        let (lo, hi) = interval.unwrap();
        assert!((lo - 0.8).abs() < 1e-9 && (hi - 11.0 / 9.5).abs() < 1e-9);
    }

    #[test]
    fn exact_comparisons_need_exact_values() {
        let n = Quantity::literal(Exact::Int(200));
        assert_eq!(
            outcome("a.n == 200", n, Quantity::literal(Exact::Int(200))),
            Outcome::Holds
        );
        assert_eq!(
            outcome("a.n != 200", n, Quantity::literal(Exact::Int(200))),
            Outcome::Fails
        );
        assert_eq!(
            outcome("a.n == 201", n, Quantity::literal(Exact::Int(201))),
            Outcome::Fails
        );
        // Counts that differ between runs: not equal in every run, nor different in every run.
        let counted = Quantity {
            kind: Kind::Plain,
            ..measured(0.0, -1.1, 1.7)
        };
        let zero = Quantity::literal(Exact::Int(0));
        assert_eq!(outcome("a.gap == 0", counted, zero), Outcome::Fails);
        assert_eq!(outcome("a.gap != 0", counted, zero), Outcome::Fails);
        let e = compare(&parse("a.x == 1").unwrap(), &measured(1.0, 0.9, 1.1), &n).unwrap_err();
        assert_eq!(
            e.message,
            "`==` compares exact values, and `a.x` is measured: 1× [0.9×, 1.1×] over 3 runs"
        );
        assert_eq!(
            e.hint.unwrap(),
            "to say that two measured values are about equal, write `~=` with the tolerance the data supports, e.g. `a.x ~= 1 ± 5%`"
        );
    }

    #[test]
    fn relative_tolerance_needs_positive_quantities() {
        let e = compare(
            &parse("a.x ~= 1 ± 5%").unwrap(),
            &Quantity::literal(Exact::Int(-2)),
            &Quantity::literal(Exact::Int(1)),
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "a relative tolerance compares positive quantities, and `a.x` is -2"
        );
        // A positive value whose interval reaches zero cannot be decided relatively yet.
        assert_eq!(
            outcome(
                "a.x ~= a.y ± 5%",
                measured(1.0, 0.9, 1.1),
                measured(1.0, 0.0, 2.0)
            ),
            Outcome::Inconclusive
        );
    }
}
