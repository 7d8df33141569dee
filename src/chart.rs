//! Charts drawn at build time as SVG: line charts (optionally log x), grouped and stacked bars.
//! Colours come from CSS classes, so they follow the reader's colour scheme; every point has a
//! `<title>`, and the figure carries the same numbers as a table for screen readers.

use std::fmt::Write;

use crate::html::escape;

/// The kind of chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Line,
    Bar,
    Stacked,
}

/// One series: a label and one y per point (None where the row has no value).
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub values: Vec<Option<f64>>,
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
    pub series: Vec<Series>,
    pub format_y: &'a dyn Fn(f64) -> String,
    pub format_x: &'a dyn Fn(f64) -> String,
}

const W: f64 = 680.0;
const H: f64 = 380.0;
const LEFT: f64 = 78.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 70.0;

impl Chart<'_> {
    /// The SVG of the chart; `id` makes its title and description ids unique on the page.
    pub fn svg(&self, id: &str) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "<svg viewBox=\"0 0 {W} {H}\" role=\"img\" aria-labelledby=\"{id}-t\" xmlns=\"http://www.w3.org/2000/svg\"><title id=\"{id}-t\">{}</title>",
            escape(&self.title)
        );
        let (y_max, y_min) = self.y_range();
        let ticks = nice_ticks(y_min, y_max, 5);
        let top_tick = *ticks.last().unwrap_or(&y_max);
        let low_tick = *ticks.first().unwrap_or(&0.0);
        let plot_h = H - TOP - BOTTOM;
        let plot_w = W - LEFT - RIGHT;
        let y_of = |v: f64| {
            TOP + plot_h - (v - low_tick) / (top_tick - low_tick).max(f64::MIN_POSITIVE) * plot_h
        };
        s.push_str("<g class=\"grid axis\">");
        for t in &ticks {
            let y = y_of(*t);
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
        s.push_str("</g>");
        match self.kind {
            ChartKind::Line => self.lines(&mut s, plot_w, &y_of),
            ChartKind::Bar | ChartKind::Stacked => self.bars(&mut s, plot_w, &y_of),
        }
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            Coord(LEFT + plot_w / 2.0),
            Coord(H - 8.0),
            escape(&self.x_label)
        );
        let _ = write!(
            s,
            "<text transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            Coord(TOP + plot_h / 2.0),
            escape(&self.y_label)
        );
        s.push_str("</svg>");
        s
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

    fn y_range(&self) -> (f64, f64) {
        let mut max = f64::MIN;
        let mut min = 0.0f64;
        if self.kind == ChartKind::Stacked {
            for i in 0..self.x_labels.len() {
                let total: f64 = self
                    .series
                    .iter()
                    .filter_map(|s| s.values.get(i).copied().flatten())
                    .sum();
                max = max.max(total);
            }
        } else {
            for v in self.series.iter().flat_map(|s| s.values.iter().flatten()) {
                max = max.max(*v);
                min = min.min(*v);
            }
        }
        if max <= min {
            max = min + 1.0;
        }
        (max, min)
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

    fn lines(&self, s: &mut String, plot_w: f64, y_of: &dyn Fn(f64) -> f64) {
        let n = self.x_values.len();
        let step = (n / 8).max(1);
        s.push_str("<g class=\"axis\">");
        for i in (0..n).step_by(step) {
            let x = Coord(self.x_position(i, plot_w));
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
            let class = format!("s{}", k % 6 + 1);
            let points: Vec<(f64, f64, f64)> = series
                .values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.map(|v| (self.x_position(i, plot_w), y_of(v), v)))
                .collect();
            let vertices: Vec<(f64, f64)> = points.iter().map(|&(x, y, _)| (x, y)).collect();
            let _ = write!(
                s,
                "<g class=\"{class}\"><path d=\"{}\"/>",
                line_path(&vertices)
            );
            // The dots' radius is in style.css (`r`), not repeated on every point.
            for (i, (x, y, v)) in points.iter().enumerate() {
                let label = self.x_labels.get(i).cloned().unwrap_or_default();
                let _ = write!(
                    s,
                    "<circle cx=\"{}\" cy=\"{}\"><title>{}: {} = {}</title></circle>",
                    Coord(*x),
                    Coord(*y),
                    escape(&series.label),
                    escape(&label),
                    escape(&(self.format_y)(*v))
                );
            }
            s.push_str("</g>");
        }
    }

    fn bars(&self, s: &mut String, plot_w: f64, y_of: &dyn Fn(f64) -> f64) {
        let n = self.x_labels.len().max(1);
        let band = plot_w / n as f64;
        let groups = if self.kind == ChartKind::Stacked {
            1
        } else {
            self.series.len().max(1)
        };
        let bar_w = (band * 0.7 / groups as f64).min(60.0);
        let base = y_of(0.0);
        for i in 0..n {
            let centre = LEFT + band * (i as f64 + 0.5);
            let mut stack = 0.0;
            for (k, series) in self.series.iter().enumerate() {
                let Some(v) = series.values.get(i).copied().flatten() else {
                    continue;
                };
                let (x, y0, y1) = if self.kind == ChartKind::Stacked {
                    let y0 = y_of(stack);
                    stack += v;
                    (centre - bar_w / 2.0, y0, y_of(stack))
                } else {
                    let x = centre - bar_w * groups as f64 / 2.0 + bar_w * k as f64;
                    (x, base, y_of(v))
                };
                let (top, height) = if y1 < y0 {
                    (y1, y0 - y1)
                } else {
                    (y0, y1 - y0)
                };
                let _ = write!(
                    s,
                    "<rect class=\"s{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} · {}: {}</title></rect>",
                    k % 6 + 1,
                    Coord(x),
                    Coord(top),
                    Coord((bar_w - 2.0).max(1.0)),
                    Coord(height.max(0.5)),
                    escape(&self.x_labels[i]),
                    escape(&series.label),
                    escape(&(self.format_y)(v))
                );
            }
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                Coord(centre),
                H - BOTTOM + 18.0,
                escape(&self.x_labels[i])
            );
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
/// the one before (`h` along x, `v` along y, `l` otherwise), shorter than absolute points.
fn line_path(vertices: &[(f64, f64)]) -> String {
    let mut d = String::new();
    let mut last: Option<(i64, i64)> = None;
    for &(x, y) in vertices {
        let (x, y) = (tenths(x), tenths(y));
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

/// Round tick values covering [lo, hi].
fn nice_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
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
    fn coordinates_are_tenths_without_a_trailing_zero() {
        let shown: Vec<String> = [78.0, 280.62, 74.8, 0.04, 12.96]
            .map(|v| Coord(v).to_string())
            .into();
        assert_eq!(shown, ["78", "280.6", "74.8", "0", "13"]);
    }

    #[test]
    fn a_line_is_relative_steps_through_its_vertices() {
        let d = line_path(&[
            (78.0, 280.6),
            (87.5, 280.6),
            (96.94, 251.2),
            (96.94, 260.0),
            (106.4, 250.05),
            (110.0, 255.0),
        ]);
        assert_eq!(d, "M78 280.6h9.5l9.4-29.4v8.8l9.5-9.9l3.6 4.9");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(0.0, 9.3, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            nice_ticks(0.0, 440.0, 5),
            [0.0, 100.0, 200.0, 300.0, 400.0, 500.0]
        );
    }

    #[test]
    fn bars_and_lines_carry_titles_and_classes() {
        let fy = |v: f64| format!("{v}");
        let chart = Chart {
            kind: ChartKind::Bar,
            title: "Sizes <b>".into(),
            x_label: "format".into(),
            y_label: "bytes".into(),
            x_labels: vec!["JSON".into(), "CBOR".into()],
            x_values: vec![0.0, 1.0],
            log_x: false,
            series: vec![Series {
                label: "size".into(),
                values: vec![Some(440.0), Some(339.0)],
            }],
            format_y: &fy,
            format_x: &fy,
        };
        let svg = chart.svg("c1");
        assert!(
            svg.contains("<title id=\"c1-t\">Sizes &lt;b&gt;</title>"),
            "{svg}"
        );
        assert_eq!(svg.matches("<rect class=\"s1\"").count(), 2);
        assert!(svg.contains("<title>JSON · size: 440</title>"));
        let line = Chart {
            kind: ChartKind::Line,
            log_x: true,
            x_values: vec![1.0, 1000.0],
            ..chart
        };
        let svg = line.svg("c2");
        assert!(svg.contains("<path d=\"M"), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(!svg.contains(" r="), "{svg}");
        assert!(
            include_str!("../static/style.css").contains(".chart circle { r: 3.5px; }"),
            "the dots' radius comes from the theme's stylesheet"
        );
    }
}
