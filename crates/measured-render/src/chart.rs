//! Charts drawn at build time as SVG: line charts (optionally log x), grouped and stacked bars,
//! on a linear or log y axis, with each point's interval (whiskers on bars, a band along lines).
//! Colours come from CSS classes, so they follow the reader's colour scheme. Every bar, and
//! every x of a line chart (all its series at once), is focusable and named by its values and
//! intervals, which CSS alone shows on hover and on focus; the figure carries the same numbers
//! as a table.

mod axis;
#[cfg(test)]
mod tests;

use std::fmt::Write;

use serde_json::Value;

use axis::YAxis;
use measured_core::html::escape;

/// The kind of chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Line,
    Bar,
    Stacked,
}

/// The interval around a point: a timing's ~95% confidence interval of its median, a ratio's
/// bounds (experiments/harness/README.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// The interval a harness summary carries, if `v` is one with both bounds.
    pub fn of(v: &Value) -> Option<Interval> {
        let (low, high) = interval_fields(v)?;
        Some(Interval {
            low: v.get(low)?.as_f64()?,
            high: v.get(high)?.as_f64()?,
        })
    }
}

/// The names of the fields that hold a harness summary's interval: a timing's
/// `ci_low`/`ci_high`, a ratio's `low`/`high`; None for any other value.
pub fn interval_fields(v: &Value) -> Option<(&'static str, &'static str)> {
    match v.get("type")?.as_str()? {
        "timing" => Some(("ci_low", "ci_high")),
        "ratio" => Some(("low", "high")),
        _ => None,
    }
}

/// One series: a label, one y per point (None where the row has no value) and each point's
/// interval (None where the data gives none; may be shorter than `values`).
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub values: Vec<Option<f64>>,
    pub intervals: Vec<Option<Interval>>,
}

/// A chart that cannot be drawn as asked: what is wrong, and what to do.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartError {
    pub message: String,
    pub hint: String,
}

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.hint)
    }
}

/// A chart ready to draw.
pub struct Chart<'a> {
    pub kind: ChartKind,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Labels of the points (categories for bars, formatted x for lines).
    pub x_labels: Vec<String>,
    /// Numeric x of each point (line charts).
    pub x_values: Vec<f64>,
    pub log_x: bool,
    /// A log y axis: ticks at powers of ten; every value and interval bound must be above zero.
    pub log_y: bool,
    pub series: Vec<Series>,
    pub format_y: &'a dyn Fn(f64) -> String,
    pub format_x: &'a dyn Fn(f64) -> String,
    /// A point's interval in words, given its formatted bounds (`95% CI 1.2–1.4 µs`).
    pub format_interval: &'a dyn Fn(&str, &str) -> String,
}

/// The most points a line shows as dots; a denser line is drawn as its path alone.
const MAX_DOTS: usize = 24;
const W: f64 = 680.0;
const H: f64 = 396.0;
const LEFT: f64 = 78.0;
const RIGHT: f64 = 16.0;
/// Room above the plot for the readout line, where a hovered or focused point's text shows
/// (`.chart .tip` in style.css places it at x = LEFT, above TOP).
const TOP: f64 = 32.0;
const BOTTOM: f64 = 70.0;
/// Half the width of a whisker's caps.
const CAP: f64 = 4.0;

/// The plot's size and y axis: where a value is drawn.
struct Frame<'a> {
    /// The chart's id, which the ids of its readouts start with.
    id: &'a str,
    axis: YAxis,
    plot_w: f64,
    plot_h: f64,
}

impl Frame<'_> {
    fn y(&self, v: f64) -> f64 {
        TOP + self.plot_h * (1.0 - self.axis.fraction(v))
    }
}

/// A point of a series: its row, value and interval.
#[derive(Clone, Copy)]
struct Point {
    index: usize,
    value: f64,
    interval: Option<Interval>,
}

impl Series {
    fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.values.iter().enumerate().filter_map(|(index, v)| {
            v.map(|value| Point {
                index,
                value,
                interval: self.intervals.get(index).copied().flatten(),
            })
        })
    }
}

impl Chart<'_> {
    /// The SVG of the chart; `id` makes its title id unique on the page. A log y axis with a
    /// value or interval bound at or below zero, or under stacked bars, is an error.
    pub fn svg(&self, id: &str) -> Result<String, ChartError> {
        let frame = Frame {
            id,
            axis: self.y_axis()?,
            plot_w: W - LEFT - RIGHT,
            plot_h: H - TOP - BOTTOM,
        };
        let mut s = String::new();
        // A group, not an image: its points are focusable images of their own.
        let _ = write!(
            s,
            "<svg viewBox=\"0 0 {W} {H}\" role=\"group\" aria-labelledby=\"{id}-t\" xmlns=\"http://www.w3.org/2000/svg\"><title id=\"{id}-t\">{}</title>",
            escape(&self.title)
        );
        self.grid(&mut s, &frame);
        match self.kind {
            ChartKind::Line => self.lines(&mut s, &frame),
            ChartKind::Bar | ChartKind::Stacked => self.bars(&mut s, &frame),
        }
        s.push_str("</svg>");
        Ok(s)
    }

    /// The legend, as HTML (so it wraps and reads in the page's font).
    pub fn legend(&self) -> String {
        if self.series.len() < 2 {
            return String::new();
        }
        let mut s = String::from("<ul class=\"legend\">");
        for (i, series) in self.series.iter().enumerate() {
            let _ = write!(
                s,
                "<li><svg width=\"14\" height=\"14\" aria-hidden=\"true\"><rect class=\"s{}\" width=\"14\" height=\"14\" rx=\"2\"/></svg> {}</li>",
                i % 6 + 1,
                escape(&series.label)
            );
        }
        s.push_str("</ul>");
        s
    }

    /// The y ticks with their labels and the axes' names, hidden from screen readers: the
    /// points and the table say the same with their context.
    fn grid(&self, s: &mut String, f: &Frame) {
        s.push_str("<g class=\"grid axis\" aria-hidden=\"true\">");
        for t in &f.axis.ticks {
            let y = f.y(*t);
            let _ = write!(
                s,
                "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                W - RIGHT,
                Coord(y),
                Coord(y),
                LEFT - 6.0,
                Coord(y + 4.0),
                escape(&(self.format_y)(*t))
            );
        }
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text><text transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\">{}</text></g>",
            Coord(LEFT + f.plot_w / 2.0),
            Coord(H - 8.0),
            escape(&self.x_label),
            Coord(TOP + f.plot_h / 2.0),
            escape(&self.y_label)
        );
    }

    fn y_axis(&self) -> Result<YAxis, ChartError> {
        if !self.log_y {
            let (min, max) = self.y_extent();
            let max = if max <= min { min + 1.0 } else { max };
            return Ok(YAxis::linear(min.min(0.0), max));
        }
        if self.kind == ChartKind::Stacked {
            return Err(ChartError {
                message: "a stacked chart cannot have a log y axis".into(),
                hint: "a stack's segments add up only on a linear axis: remove `log_y`, or use `chart: bar`".into(),
            });
        }
        self.check_positive()?;
        let (min, max) = self.y_extent();
        Ok(YAxis::log(min, max))
    }

    /// The smallest and largest y to show: values and interval bounds, or stacks' totals.
    fn y_extent(&self) -> (f64, f64) {
        let mut min = f64::INFINITY;
        let mut max = f64::NEG_INFINITY;
        if self.kind == ChartKind::Stacked {
            for i in 0..self.x_labels.len() {
                let total: f64 = self
                    .series
                    .iter()
                    .filter_map(|s| s.values.get(i).copied().flatten())
                    .sum();
                max = max.max(total);
            }
            min = 0.0;
        } else {
            for p in self.series.iter().flat_map(Series::points) {
                let (lo, hi) = p
                    .interval
                    .map_or((p.value, p.value), |iv| (iv.low, iv.high));
                min = min.min(lo.min(p.value));
                max = max.max(hi.max(p.value));
            }
        }
        if min > max { (0.0, 1.0) } else { (min, max) }
    }

    /// Every value and interval bound above zero, as a log axis needs: the first one that is
    /// not is an error naming its series and point.
    fn check_positive(&self) -> Result<(), ChartError> {
        for series in &self.series {
            for p in series.points() {
                let bounds = p.interval.map_or([p.value; 2], |iv| [iv.low, iv.high]);
                let Some(bad) = [p.value, bounds[0], bounds[1]].into_iter().find(|v| {
                    v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || v.is_infinite()
                }) else {
                    continue;
                };
                let what = if bad == p.value {
                    "is"
                } else {
                    "has an interval reaching"
                };
                return Err(ChartError {
                    message: format!(
                        "series `{}` at `{}` {what} {}, and a log y axis shows only values above zero",
                        series.label,
                        self.x_labels.get(p.index).map_or("", String::as_str),
                        (self.format_y)(bad)
                    ),
                    hint: "remove `log_y`, or chart a field whose values and intervals are all above zero".into(),
                });
            }
        }
        Ok(())
    }

    /// What a bar says, in its title and on hover or focus: where it is, its value and interval.
    fn point_text(&self, series: &Series, p: Point) -> String {
        let x = self.x_labels.get(p.index).map_or("", String::as_str);
        format!("{x} · {}: {}", series.label, self.value_text(p))
    }

    /// What the column of a line chart at row `i` says: its x, then each series' value there.
    fn column_text(&self, i: usize) -> Option<String> {
        let values: Vec<String> = self
            .series
            .iter()
            .filter_map(|series| {
                let p = series.points().find(|p| p.index == i)?;
                Some(format!("{}: {}", series.label, self.value_text(p)))
            })
            .collect();
        if values.is_empty() {
            return None;
        }
        let x = self.x_labels.get(i).map_or("", String::as_str);
        Some(format!("{} = {x} · {}", self.x_label, values.join("; ")))
    }

    /// A value and its interval (`440 B (95% CI 430–452 B)`).
    fn value_text(&self, p: Point) -> String {
        let mut text = (self.format_y)(p.value);
        if let Some(iv) = p.interval {
            let (low, high) = ((self.format_y)(iv.low), (self.format_y)(iv.high));
            let _ = write!(text, " ({})", (self.format_interval)(&low, &high));
        }
        text
    }

    fn x_position(&self, i: usize, plot_w: f64) -> f64 {
        let n = self.x_values.len();
        if n < 2 {
            return LEFT + plot_w / 2.0;
        }
        let tr = |v: f64| {
            if self.log_x {
                v.max(f64::MIN_POSITIVE).log10()
            } else {
                v
            }
        };
        let lo = self
            .x_values
            .iter()
            .copied()
            .map(tr)
            .fold(f64::INFINITY, f64::min);
        let hi = self
            .x_values
            .iter()
            .copied()
            .map(tr)
            .fold(f64::NEG_INFINITY, f64::max);
        let span = (hi - lo).max(f64::MIN_POSITIVE);
        LEFT + (tr(self.x_values[i]) - lo) / span * plot_w
    }

    fn lines(&self, s: &mut String, f: &Frame) {
        let n = self.x_values.len();
        let step = (n / 8).max(1);
        s.push_str("<g class=\"axis\" aria-hidden=\"true\">");
        for i in (0..n).step_by(step) {
            let x = Coord(self.x_position(i, f.plot_w));
            let _ = write!(
                s,
                "<line x1=\"{x}\" x2=\"{x}\" y1=\"{}\" y2=\"{}\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                H - BOTTOM,
                H - BOTTOM + 5.0,
                H - BOTTOM + 20.0,
                escape(&(self.format_x)(self.x_values[i]))
            );
        }
        s.push_str("</g>");
        for (k, series) in self.series.iter().enumerate() {
            let points: Vec<(Point, f64, f64)> = series
                .points()
                .map(|p| (p, self.x_position(p.index, f.plot_w), f.y(p.value)))
                .collect();
            let _ = write!(s, "<g class=\"s{}\">", k % 6 + 1);
            band(s, &points, f);
            let vertices: Vec<(f64, f64)> = points.iter().map(|&(_, x, y)| (x, y)).collect();
            let _ = write!(s, "<path d=\"{}\"/>", line_path(&vertices));
            // The dots' radius is in style.css (`r`), not repeated on every point. A dense line
            // has none: its dots would touch, and they cost a page like varint-zigzag's (five
            // lines of 63 points) 11 KB of its 100 KB budget; each x's column still names every
            // value on hover and focus, and the table lists them.
            let dots = if points.len() <= MAX_DOTS {
                &points[..]
            } else {
                &[]
            };
            for &(_, x, y) in dots {
                let _ = write!(s, "<circle cx=\"{}\" cy=\"{}\"/>", Coord(x), Coord(y));
            }
            s.push_str("</g>");
        }
        self.columns(s, f);
    }

    /// One focusable column a row of a line chart, from halfway to the previous x to halfway
    /// to the next, named by every series' value there: one stop per x for the keyboard, and
    /// the readout compares the series at that x.
    fn columns(&self, s: &mut String, f: &Frame) {
        let xs: Vec<f64> = (0..self.x_values.len())
            .map(|i| self.x_position(i, f.plot_w))
            .collect();
        for (i, &x) in xs.iter().enumerate() {
            let Some(text) = self.column_text(i) else {
                continue;
            };
            let left = if i == 0 { LEFT } else { (xs[i - 1] + x) / 2.0 };
            let right = xs.get(i + 1).map_or(W - RIGHT, |next| (x + next) / 2.0);
            let column = format!(
                "<rect class=\"col\" x=\"{}\" y=\"{TOP}\" width=\"{}\" height=\"{}\"/>",
                Coord(left.min(right)),
                Coord((right - left).abs().max(1.0)),
                Coord(f.plot_h)
            );
            focusable(s, &format!("{}-x{i}", f.id), &text, &column);
        }
    }

    fn bars(&self, s: &mut String, f: &Frame) {
        let n = self.x_labels.len().max(1);
        let band = f.plot_w / n as f64;
        let stacked = self.kind == ChartKind::Stacked;
        let groups = if stacked { 1 } else { self.series.len().max(1) };
        let bar_w = (band * 0.7 / groups as f64).min(60.0);
        let base = f.y(f.axis.base());
        let mut stacks = vec![0.0; n];
        for (k, series) in self.series.iter().enumerate() {
            for p in series.points().filter(|p| p.index < n) {
                let centre = LEFT + band * (p.index as f64 + 0.5);
                let (x, y0, y1) = if stacked {
                    let y0 = f.y(stacks[p.index]);
                    stacks[p.index] += p.value;
                    (centre - bar_w / 2.0, y0, f.y(stacks[p.index]))
                } else {
                    let x = centre - bar_w * groups as f64 / 2.0 + bar_w * k as f64;
                    (x, base, f.y(p.value))
                };
                let width = (bar_w - 2.0).max(1.0);
                let mut shape = format!(
                    "<rect class=\"s{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                    k % 6 + 1,
                    Coord(x),
                    Coord(y0.min(y1)),
                    Coord(width),
                    Coord((y0 - y1).abs().max(0.5))
                );
                // A stack's segments do not add up their intervals: the text gives them.
                if let (Some(iv), false) = (p.interval, stacked) {
                    shape.push_str(&whisker(x + width / 2.0, f.y(iv.high), f.y(iv.low)));
                }
                let id = format!("{}-{k}-{}", f.id, p.index);
                focusable(s, &id, &self.point_text(series, p), &shape);
            }
        }
        s.push_str("<g aria-hidden=\"true\">");
        for (i, label) in self.x_labels.iter().enumerate() {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                Coord(LEFT + band * (i as f64 + 0.5)),
                H - BOTTOM + 18.0,
                escape(label)
            );
        }
        s.push_str("</g>");
    }
}

/// A point as a focusable image named by `text`, which also shows in the readout line on hover
/// and on focus (style.css, `.chart .tip`), with no script. The readout is the name
/// (`aria-labelledby`) rather than a `<title>` repeating it: on varint-zigzag's chart the
/// repeated text cost 6 KB of the page's 100 KB budget.
fn focusable(s: &mut String, id: &str, text: &str, shape: &str) {
    let text = escape(text);
    let _ = write!(
        s,
        "<g class=\"pt\" tabindex=\"0\" role=\"img\" aria-labelledby=\"{id}\">{shape}<text class=\"tip\" id=\"{id}\">{text}</text></g>"
    );
}

/// A whisker at `x` from `y_high` to `y_low` (SVG y, so `y_high` is above), with caps.
fn whisker(x: f64, y_high: f64, y_low: f64) -> String {
    format!(
        "<path class=\"ci\" d=\"M{} {}V{}M{} {}h{}M{} {}h{}\"/>",
        Coord(x),
        Coord(y_high),
        Coord(y_low),
        Coord(x - CAP),
        Coord(y_high),
        Coord(2.0 * CAP),
        Coord(x - CAP),
        Coord(y_low),
        Coord(2.0 * CAP)
    )
}

/// The band of a line's intervals: one closed shape along each run of consecutive points that
/// have one (high bounds left to right, low bounds back); a lone point gets a whisker.
fn band(s: &mut String, points: &[(Point, f64, f64)], f: &Frame) {
    for run in points.split(|(p, _, _)| p.interval.is_none()) {
        let bounds: Vec<(f64, Interval)> = run
            .iter()
            .filter_map(|&(p, x, _)| p.interval.map(|iv| (x, iv)))
            .collect();
        match bounds.as_slice() {
            [] => {}
            [(x, iv)] => s.push_str(&whisker(*x, f.y(iv.high), f.y(iv.low))),
            _ => {
                let outline: Vec<(f64, f64)> = bounds
                    .iter()
                    .map(|&(x, iv)| (x, f.y(iv.high)))
                    .chain(bounds.iter().rev().map(|&(x, iv)| (x, f.y(iv.low))))
                    .collect();
                let _ = write!(s, "<path class=\"band\" d=\"{}Z\"/>", line_path(&outline));
            }
        }
    }
}

/// An SVG coordinate to a tenth, without a trailing `.0` (`78`, `280.6`).
struct Coord(f64);

impl std::fmt::Display for Coord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Tenths(tenths(self.0)).fmt(f)
    }
}

/// `v` in tenths, rounded: coordinates and the steps between them use the same rounding, so a
/// line's vertices are exactly the centres of its dots.
fn tenths(v: f64) -> i64 {
    (v * 10.0).round() as i64
}

/// A number of tenths written as a decimal (`784` → `78.4`, `780` → `78`, `-5` → `-0.5`).
struct Tenths(i64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, tenth) = (self.0.abs() / 10, self.0.abs() % 10);
        if tenth == 0 {
            write!(f, "{sign}{whole}")
        } else {
            write!(f, "{sign}{whole}.{tenth}")
        }
    }
}

/// The path data of a line through `vertices`: a move to the first, then each step relative to
/// the one before (`h` along x, `v` along y, `l` otherwise), shorter than absolute points. A
/// vertex in the middle of a straight horizontal or vertical run is left out: the line passes
/// through it all the same (a step chart of sizes is mostly such runs).
fn line_path(vertices: &[(f64, f64)]) -> String {
    let points: Vec<(i64, i64)> = vertices
        .iter()
        .map(|&(x, y)| (tenths(x), tenths(y)))
        .collect();
    let inside = |a: i64, b: i64, c: i64| (a <= b && b <= c) || (a >= b && b >= c);
    let kept = points.iter().enumerate().filter(|&(i, &(x, y))| {
        let (Some(&(ax, ay)), Some(&(cx, cy))) = (
            i.checked_sub(1).and_then(|j| points.get(j)),
            points.get(i + 1),
        ) else {
            return true;
        };
        let on_h = ay == y && y == cy && inside(ax, x, cx);
        let on_v = ax == x && x == cx && inside(ay, y, cy);
        !(on_h || on_v)
    });
    let mut d = String::new();
    let mut last: Option<(i64, i64)> = None;
    for (_, &(x, y)) in kept {
        let _ = match last {
            None => write!(d, "M{} {}", Tenths(x), Tenths(y)),
            Some((lx, ly)) if y == ly => write!(d, "h{}", Tenths(x - lx)),
            Some((lx, ly)) if x == lx => write!(d, "v{}", Tenths(y - ly)),
            // A minus sign separates the two numbers by itself.
            Some((lx, ly)) => write!(
                d,
                "l{}{}{}",
                Tenths(x - lx),
                if y < ly { "" } else { " " },
                Tenths(y - ly)
            ),
        };
        last = Some((x, y));
    }
    d
}
