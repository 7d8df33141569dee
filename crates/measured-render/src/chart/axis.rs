//! A chart's y axis: linear with round ticks, or logarithmic with its ticks at powers of ten.
//! Separate from the drawing so the scale can be tested as numbers, not as SVG.

/// The y axis: its ticks, and where a value sits between its bottom and top.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct YAxis {
    log: bool,
    /// The bottom and top of the axis, in axis units (the value, or its log10).
    lo: f64,
    hi: f64,
    pub ticks: Vec<f64>,
}

impl YAxis {
    /// A linear axis covering `[min, max]` with about five round ticks.
    pub fn linear(min: f64, max: f64) -> YAxis {
        let ticks = nice_ticks(min, max, 5);
        let lo = ticks.first().copied().unwrap_or(min);
        let hi = ticks.last().copied().unwrap_or(max);
        YAxis {
            log: false,
            lo,
            hi,
            ticks,
        }
    }

    /// A log axis covering `[min, max]` (both above zero), from the power of ten at or below
    /// `min` to the one at or above `max`, with a tick every decade (every few decades when
    /// they are many).
    pub fn log(min: f64, max: f64) -> YAxis {
        let lo = min.log10().floor();
        let hi = max.log10().ceil().max(lo + 1.0);
        let step = ((hi - lo) / 8.0).ceil().max(1.0);
        let mut exponents = Vec::new();
        let mut e = lo;
        while e < hi + step - 0.5 {
            exponents.push(e);
            e += step;
        }
        let top = *exponents.last().unwrap_or(&hi);
        YAxis {
            log: true,
            lo,
            hi: top,
            ticks: exponents.into_iter().map(power_of_ten).collect(),
        }
    }

    /// Where `v` sits on the axis, from 0 at the bottom to 1 at the top.
    pub fn fraction(&self, v: f64) -> f64 {
        let u = if self.log { v.log10() } else { v };
        (u - self.lo) / (self.hi - self.lo).max(f64::MIN_POSITIVE)
    }

    /// The value bars grow from: zero on a linear axis, the axis's bottom on a log one.
    pub fn base(&self) -> f64 {
        if self.log {
            power_of_ten(self.lo)
        } else {
            0.0f64.clamp(self.lo, self.hi)
        }
    }
}

/// `10^e` for a whole `e`, exactly as the decimal `1e{e}` reads (`powi` can be off by an ulp,
/// which would show as `0.0010000000000000002` in a label).
fn power_of_ten(e: f64) -> f64 {
    format!("1e{e}").parse().unwrap_or(f64::NAN)
}

/// Round tick values covering [lo, hi].
pub(super) fn nice_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let raw = span / count as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= count as f64)
        .unwrap_or(10.0 * mag);
    let start = (lo / step).floor() * step;
    let mut ticks = Vec::new();
    let mut t = start;
    while t < hi + step * 0.999 && ticks.len() < 20 {
        ticks.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    ticks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(0.0, 9.3, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            nice_ticks(0.0, 440.0, 5),
            [0.0, 100.0, 200.0, 300.0, 400.0, 500.0]
        );
        let axis = YAxis::linear(0.0, 440.0);
        assert_eq!(axis.fraction(250.0), 0.5);
        assert_eq!(axis.base(), 0.0);
    }

    #[test]
    fn log_ticks_are_the_powers_of_ten_around_the_data() {
        let axis = YAxis::log(0.0042, 870.0);
        assert_eq!(axis.ticks, [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(axis.base(), 0.001);
        assert_eq!(axis.fraction(0.001), 0.0);
        assert_eq!(axis.fraction(1000.0), 1.0);
        assert!((axis.fraction(1.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_log_axis_spans_at_least_one_decade_and_thins_out_many() {
        assert_eq!(YAxis::log(2.0, 8.0).ticks, [1.0, 10.0]);
        assert_eq!(YAxis::log(10.0, 10.0).ticks, [10.0, 100.0]);
        // 1 to 1e12: twelve decades, a tick every second one, the top still covered.
        let wide = YAxis::log(1.0, 1e12);
        assert_eq!(wide.ticks, [1.0, 1e2, 1e4, 1e6, 1e8, 1e10, 1e12]);
        let odd = YAxis::log(1.0, 1e11);
        assert_eq!(
            odd.ticks.last(),
            Some(&1e12),
            "the top tick covers the data"
        );
        assert!(odd.fraction(1e11) < 1.0);
    }
}
