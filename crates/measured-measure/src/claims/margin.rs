//! A claim's margin: how far the interval it was decided on stays from its bound, relative to
//! the bound. A claim that holds with little margin holds here and may not on a machine a
//! little slower or busier: such a claim is *marginal*, and builds warn about it.

use super::decide::Decision;
use super::parse::{Cmp, Expr, Tolerance};

/// Below this margin (5 %), a claim that holds is marginal.
pub const MARGINAL: f64 = 0.05;

/// The relative distance from the near edge of the claim's interval to its bound: positive
/// when the interval is on the claimed side, negative when it reaches past the bound. `None`
/// for an exact claim: `==`/`!=`, or two sides that every run agreed on.
pub fn margin(expr: &Expr, d: &Decision) -> Option<f64> {
    if d.lhs.exact.is_some() && d.rhs.exact.is_some() {
        return None;
    }
    let (a, b) = (&d.lhs, &d.rhs);
    match expr.cmp {
        Cmp::Eq | Cmp::Ne => None,
        Cmp::Gt | Cmp::Ge => Some(relative(a.low - b.high, b.high, a.value)),
        Cmp::Lt | Cmp::Le => Some(relative(b.low - a.high, b.low, a.value)),
        Cmp::Approx(t) => {
            let (lo, hi) = d.compared?;
            Some(match t {
                // Bounds 1 − n and 1 + n of the quotient: the room on the nearer side,
                // relative to that bound.
                Tolerance::Relative(n) => {
                    let (low, high) = (1.0 - n / 100.0, 1.0 + n / 100.0);
                    relative(lo - low, low, 1.0).min(relative(high - hi, high, 1.0))
                }
                // Bounds −t and t of the difference: the room relative to t.
                Tolerance::Absolute(t) => relative((lo + t).min(t - hi), t, 1.0),
            })
        }
    }
}

/// `distance` relative to the bound `bound` (to the value itself when the bound is zero).
fn relative(distance: f64, bound: f64, value: f64) -> f64 {
    let scale = if bound != 0.0 {
        bound.abs()
    } else if value != 0.0 {
        value.abs()
    } else {
        1.0
    };
    distance / scale
}

/// Whether a claim with margin `m` holds with too little room.
pub fn is_marginal(m: Option<f64>) -> bool {
    m.is_some_and(|m| m < MARGINAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::decide::compare;
    use crate::claims::interval::{Exact, Quantity, measured};
    use crate::claims::parse::parse;

    fn margin_of(claim: &str, a: Quantity, b: Quantity) -> Option<f64> {
        let expr = parse(claim).unwrap();
        let (outcome, compared) = compare(&expr, &a, &b).unwrap();
        let d = Decision {
            outcome,
            lhs: a,
            rhs: b,
            compared,
        };
        margin(&expr, &d)
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-9)
    }

    #[test]
    fn an_ordering_measures_its_near_edge_against_the_bound() {
        let lit = |x: f64| Quantity::literal(Exact::Float(x));
        // 1.29× [1.23×, 1.468×] > 1.3: the low edge is 5.38 % below the bound.
        let m = margin_of("a.x > 1.3", measured(1.29, 1.23, 1.468), lit(1.3));
        assert!(close(m, (1.23 - 1.3) / 1.3), "{m:?}");
        assert!(is_marginal(m));
        // 1.15 [1.105, 1.21] < 1.25: 3.2 % of room, marginal though it holds.
        let m = margin_of("a.x < 1.25", measured(1.15, 1.105, 1.21), lit(1.25));
        assert!(close(m, 0.04 / 1.25), "{m:?}");
        assert!(is_marginal(m));
        // Two measured sides: from one's high edge to the other's low edge.
        let m = margin_of(
            "a.x < a.y",
            measured(10.0, 9.0, 11.0),
            measured(20.0, 18.0, 22.0),
        );
        assert!(close(m, 7.0 / 18.0), "{m:?}");
        assert!(!is_marginal(m));
        // A bound of zero: relative to the value.
        let m = margin_of("a.x > 0", measured(5.0, 4.0, 6.0), lit(0.0));
        assert!(close(m, 0.8), "{m:?}");
    }

    #[test]
    fn exact_claims_have_no_margin() {
        let n = Quantity {
            runs: 3,
            ..Quantity::literal(Exact::Int(50))
        };
        assert_eq!(
            margin_of("a.n == 50", n, Quantity::literal(Exact::Int(50))),
            None
        );
        // Sizes every run agreed on, compared by an ordering: exact too.
        assert_eq!(
            margin_of("a.n > 40", n, Quantity::literal(Exact::Int(40))),
            None
        );
        assert!(!is_marginal(None));
    }

    #[test]
    fn an_equivalence_measures_the_room_left_in_its_band() {
        // a / b within [0.95, 1.05] against ± 10 %: 0.05 below the bound 1.1, 4.5 % of it.
        let one = Quantity::literal(Exact::Int(1));
        let m = margin_of("a.x ~= 1 ± 10%", measured(1.0, 0.95, 1.05), one);
        assert!(close(m, 0.05 / 1.1), "{m:?}");
        // Absolute: a − b within [-0.2, 0.9] against ± 1: 0.1 of 1.
        let m = margin_of("a.x ~= 1 ± 1", measured(1.5, 0.8, 1.9), one);
        assert!(close(m, 0.1), "{m:?}");
        // Reaching out of the band: negative.
        let m = margin_of("a.x ~= 1 ± 10%", measured(1.0, 0.85, 1.05), one);
        assert!(m.unwrap() < 0.0, "{m:?}");
    }
}
