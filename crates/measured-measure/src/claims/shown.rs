//! A claim's quantities as an author reads them: durations as durations, ratios with `×`,
//! four significant digits so an interval's ends differ, and the runs they come from. Apart
//! from deciding and explaining, which both write them.

use super::interval::Quantity;
use crate::values::Kind;

/// A quantity as an author reads it: `1.26× [1.24×, 1.28×] over 3 runs`, `200 (the same in all
/// 3 runs)`, `2.5`.
pub fn show(q: &Quantity) -> String {
    let v = |x: f64| value(x, q.kind);
    match (q.exact, q.runs) {
        (Some(_), 0) => v(q.value),
        (Some(_), 1) => format!("{} (1 run)", v(q.value)),
        (Some(_), n) => format!("{} (the same in all {n} runs)", v(q.value)),
        (None, n) => format!(
            "{} [{}, {}] over {n} run{}",
            v(q.value),
            v(q.low),
            v(q.high),
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// A number of `kind`: nanoseconds as a duration, a ratio with `×`.
pub fn value(x: f64, kind: Kind) -> String {
    match kind {
        Kind::Plain => sig4(x),
        Kind::Share => format!("{} %", sig4(x * 100.0)),
        Kind::Ratio => format!("{}×", sig4(x)),
        Kind::Timing => {
            let (scale, unit) = [(1e9, "s"), (1e6, "ms"), (1e3, "µs")]
                .into_iter()
                .find(|(s, _)| x.abs() >= *s)
                .unwrap_or((1.0, "ns"));
            format!("{} {unit}", sig4(x / scale))
        }
    }
}

/// Four significant digits, trailing zeros dropped; whole numbers in full; the very large and
/// very small in scientific notation.
pub fn sig4(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{x:.0}");
    }
    if x.abs() >= 1e15 || x.abs() < 1e-6 {
        return format!("{x:.3e}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = usize::try_from(3 - magnitude).unwrap_or(0);
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::interval::Exact;

    #[test]
    fn values_read_as_durations_ratios_and_numbers() {
        assert_eq!(value(16_480.0, Kind::Timing), "16.48 µs");
        assert_eq!(value(391_234.0, Kind::Timing), "391.2 µs");
        assert_eq!(value(2.5e9, Kind::Timing), "2.5 s");
        assert_eq!(value(812.4, Kind::Timing), "812.4 ns");
        assert_eq!(value(0.8612, Kind::Ratio), "0.8612×");
        assert_eq!(value(1_234_567.0, Kind::Plain), "1234567");
        assert_eq!(value(0.000_123_46, Kind::Plain), "0.0001235");
        assert_eq!(value(-2.0, Kind::Plain), "-2");
        assert_eq!(value(1.5e308, Kind::Plain), "1.500e308");
        let q = Quantity {
            value: 16_500.0,
            low: 16_480.0,
            high: 16_530.0,
            exact: None,
            kind: Kind::Timing,
            runs: 3,
        };
        assert_eq!(show(&q), "16.5 µs [16.48 µs, 16.53 µs] over 3 runs");
        let n = Quantity {
            runs: 3,
            ..Quantity::literal(Exact::Int(200))
        };
        assert_eq!(show(&n), "200 (the same in all 3 runs)");
    }
}
