//! What an experiment declares besides its measured values, so that every figure a page shows
//! comes from one combination of the runs:
//!
//! - **derived values** (a ratio, a difference, a share, a product of two other values): the
//!   harness computes this run's value, and the site generator computes the published one
//!   again from the *combined* parts, so that the figures a reader sees add up, with an
//!   interval from each run's own (paired) value;
//! - **inputs** (parameters, injected delays, sizes the experiment chose): set, not measured;
//!   a claim that compares only inputs is refused by the generator;
//! - **output tables** with labels in both of the blog's languages: printed here for a person
//!   running the experiment, and rendered by the generator from the combined results, in the
//!   page's language, where an article shows the experiment's output.

use serde::Serialize;
use serde_json::{Value, json};

use crate::Results;

/// A text in both of the blog's languages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Label {
    pub vi: String,
    pub en: String,
}

impl Label {
    /// `vi` on Vietnamese pages, `en` on English ones.
    pub fn new(vi: impl Into<String>, en: impl Into<String>) -> Label {
        Label {
            vi: vi.into(),
            en: en.into(),
        }
    }

    /// A text that reads the same in both languages (a name: `JSON`, `gzip -6`).
    pub fn same(text: impl Into<String>) -> Label {
        let text = text.into();
        Label {
            vi: text.clone(),
            en: text,
        }
    }
}

/// One cell of an output table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(Label),
    /// The value at a results path, formatted with a filter (`duration`, `bytes`, `ratio`,
    /// `percent`, `int`, `fixed(N)`, `sig(N)`; none: by the value's kind).
    Value {
        path: String,
        filter: Option<String>,
    },
}

/// A text cell in both languages.
pub fn text(vi: impl Into<String>, en: impl Into<String>) -> Cell {
    Cell::Text(Label::new(vi, en))
}

/// A text cell that reads the same in both languages.
pub fn same(text: impl Into<String>) -> Cell {
    Cell::Text(Label::same(text))
}

/// The value at results path `path`, formatted by its kind.
pub fn value(path: impl Into<String>) -> Cell {
    Cell::Value {
        path: path.into(),
        filter: None,
    }
}

/// The value at results path `path`, formatted with `filter`.
pub fn value_as(path: impl Into<String>, filter: &str) -> Cell {
    Cell::Value {
        path: path.into(),
        filter: Some(filter.to_string()),
    }
}

/// A table of the experiment's output: labelled columns and rows of cells.
///
/// ```
/// use harness::declare::{Label, Table, same, value};
/// let mut r = harness::Results::new();
/// r.set("json.bytes", 412);
/// let mut t = Table::new([Label::new("định dạng", "format"), Label::new("kích thước", "size")]);
/// t.row([same("JSON"), value("json.bytes")]);
/// r.table(t);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    title: Option<Label>,
    columns: Vec<Label>,
    rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new(columns: impl IntoIterator<Item = Label>) -> Table {
        Table {
            columns: columns.into_iter().collect(),
            ..Table::default()
        }
    }

    /// A title shown above the table.
    pub fn titled(mut self, title: Label) -> Table {
        self.title = Some(title);
        self
    }

    /// Adds a row; panics when it has another number of cells than the table has columns.
    pub fn row(&mut self, cells: impl IntoIterator<Item = Cell>) {
        let cells: Vec<Cell> = cells.into_iter().collect();
        assert_eq!(
            cells.len(),
            self.columns.len(),
            "harness: a table row has {} cells for {} columns",
            cells.len(),
            self.columns.len()
        );
        self.rows.push(cells);
    }
}

/// The operations a derived value can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Ratio,
    Difference,
    Share,
    Product,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Ratio => "ratio",
            Op::Difference => "difference",
            Op::Share => "share",
            Op::Product => "product",
        }
    }

    fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Op::Ratio | Op::Share => a / b,
            Op::Difference => a - b,
            Op::Product => a * b,
        }
    }

    /// The interval of `a op b` from the parts' intervals, for a page of one run.
    fn bounds(self, (al, ah): (f64, f64), (bl, bh): (f64, f64)) -> (f64, f64) {
        let ends = match self {
            Op::Ratio | Op::Share => [al / bl, al / bh, ah / bl, ah / bh],
            Op::Difference => [al - bh, al - bh, ah - bl, ah - bl],
            Op::Product => [al * bl, al * bh, ah * bl, ah * bh],
        };
        let low = ends.iter().copied().fold(f64::INFINITY, f64::min);
        let high = ends.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (low, high)
    }
}

/// A value of the results read as a number: its point and its own interval.
struct Part {
    point: f64,
    low: f64,
    high: f64,
    timing: bool,
}

fn part(results: &Results, path: &str, key: &str) -> Part {
    let v = results
        .get(path)
        .unwrap_or_else(|| panic!("harness: derived `{key}`: no value at `{path}`"));
    let field = |name: &str| v.get(name).and_then(Value::as_f64);
    let kind = v.get("type").and_then(Value::as_str);
    let (point, low, high) = match (v, kind) {
        (Value::Number(n), _) => {
            let x = n.as_f64().expect("a JSON number");
            (Some(x), Some(x), Some(x))
        }
        (_, Some("timing")) => (field("median"), field("ci_low"), field("ci_high")),
        (_, Some("ratio" | "share" | "number")) => (field("value"), field("low"), field("high")),
        _ => (None, None, None),
    };
    let point = point.unwrap_or_else(|| {
        panic!("harness: derived `{key}`: `{path}` is not a number, a timing or a ratio")
    });
    Part {
        point,
        low: low.unwrap_or(point),
        high: high.unwrap_or(point),
        timing: kind == Some("timing"),
    }
}

impl Results {
    /// Sets `key` to `a / b` (timings by their medians): shown as a ratio (`1.7×`).
    pub fn ratio(&mut self, key: &str, a: &str, b: &str) -> f64 {
        self.derive(key, Op::Ratio, a, b)
    }

    /// Sets `key` to `part / whole`: shown as a percentage.
    pub fn share(&mut self, key: &str, part: &str, whole: &str) -> f64 {
        self.derive(key, Op::Share, part, whole)
    }

    /// Sets `key` to `a − b`: a duration when `a` is a timing, else a number.
    pub fn difference(&mut self, key: &str, a: &str, b: &str) -> f64 {
        self.derive(key, Op::Difference, a, b)
    }

    /// Sets `key` to `a × b`: a number (give it a filter where it is shown, e.g. `bytes`).
    pub fn product(&mut self, key: &str, a: &str, b: &str) -> f64 {
        self.derive(key, Op::Product, a, b)
    }

    fn derive(&mut self, key: &str, op: Op, a: &str, b: &str) -> f64 {
        let (pa, pb) = (part(self, a, key), part(self, b, key));
        let value = op.apply(pa.point, pb.point);
        let (low, high) = op.bounds((pa.low, pa.high), (pb.low, pb.high));
        let derived = json!({"op": op.name(), "of": [a, b]});
        let v = match op {
            Op::Ratio => {
                json!({"type": "ratio", "value": value, "low": low, "high": high, "derived": derived})
            }
            Op::Share => {
                json!({"type": "share", "value": value, "low": low, "high": high, "derived": derived})
            }
            Op::Difference if pa.timing => {
                json!({"type": "timing", "unit": "ns", "median": value, "ci_low": low, "ci_high": high, "derived": derived})
            }
            Op::Difference | Op::Product => {
                json!({"type": "number", "value": value, "low": low, "high": high, "derived": derived})
            }
        };
        self.set(key, v);
        value
    }

    /// Sets `key` to `value`, an input of the experiment (a parameter, a size it chose, a delay
    /// it injects), not a measurement: a claim comparing only inputs is refused.
    pub fn input(&mut self, key: &str, value: impl Serialize) {
        self.set(key, value);
        self.mark_input(key);
    }

    /// Sets `key` to a duration of `ns` nanoseconds that the experiment chose (a delay it
    /// injects, a timeout): an input, shown and compared as a duration.
    pub fn input_duration(&mut self, key: &str, ns: f64) {
        self.set(
            key,
            json!({"type": "timing", "unit": "ns", "median": ns, "ci_low": ns, "ci_high": ns, "n": 0}),
        );
        self.mark_input(key);
    }

    fn mark_input(&mut self, key: &str) {
        let mut inputs: Vec<String> = self
            .get("_inputs")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        if !inputs.iter().any(|k| k == key) {
            inputs.push(key.to_string());
        }
        self.set("_inputs", inputs);
    }

    /// Adds `table` to the experiment's output (`_output`), and prints it, in English, with
    /// this run's values.
    pub fn table(&mut self, table: Table) {
        print!("{}", self.render(&table));
        let cells = |row: &[Cell]| -> Vec<Value> {
            row.iter()
                .map(|c| match c {
                    Cell::Text(l) => json!({"text": l}),
                    Cell::Value { path, filter } => match filter {
                        Some(f) => json!({"value": path, "filter": f}),
                        None => json!({"value": path}),
                    },
                })
                .collect()
        };
        let mut t = json!({
            "columns": table.columns,
            "rows": table.rows.iter().map(|r| cells(r)).collect::<Vec<_>>(),
        });
        if let Some(title) = &table.title {
            t["title"] = json!(title);
        }
        let mut output: Vec<Value> = self
            .get("_output")
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        output.push(t);
        self.set("_output", output);
    }

    /// The table as text, in English, with this run's values.
    fn render(&self, table: &Table) -> String {
        let mut t = crate::fmt::Table::new(table.columns.iter().map(|c| c.en.clone()));
        for row in &table.rows {
            t.row(row.iter().map(|c| match c {
                Cell::Text(l) => l.en.clone(),
                Cell::Value { path, filter } => self.show(path, filter.as_deref()),
            }));
        }
        match &table.title {
            Some(title) => format!("{}\n{t}\n", title.en),
            None => format!("{t}\n"),
        }
    }

    /// The value at `path` as text, with `filter` (or by its kind). Panics on a missing path,
    /// so a table names only values the results hold.
    fn show(&self, path: &str, filter: Option<&str>) -> String {
        let v = self
            .get(path)
            .unwrap_or_else(|| panic!("harness: table cell: no value at `{path}`"));
        if let Value::String(s) = v {
            return s.clone();
        }
        let p = part(self, path, "table cell");
        let kind = v.get("type").and_then(Value::as_str);
        let filter = filter.or(match kind {
            Some("timing") => Some("duration"),
            Some("ratio") => Some("ratio"),
            Some("share") => Some("percent"),
            _ => None,
        });
        let x = p.point;
        match filter.unwrap_or("") {
            "duration" => crate::fmt::duration(x),
            "bytes" => crate::fmt::bytes(x),
            "ratio" => format!("{}x", crate::fmt::sig3(x)),
            "percent" => format!("{}%", crate::fmt::sig3(x * 100.0)),
            "int" => format!("{}", x.round()),
            f if f.starts_with("fixed(") => {
                let n: usize = f[6..f.len() - 1].parse().unwrap_or(2);
                format!("{x:.n$}")
            }
            _ if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x}"),
            _ => crate::fmt::sig3(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Summary;

    fn timing(median: f64) -> Summary {
        Summary::from_ns(vec![median * 0.99, median, median * 1.01])
    }

    #[test]
    fn derived_values_are_computed_from_their_parts_and_name_them() {
        let mut r = Results::new();
        r.set("a", timing(200.0));
        r.set("b", timing(100.0));
        r.set("bytes", 500);
        r.set("total", 2000);
        assert_eq!(r.ratio("x.ratio", "a", "b"), 2.0);
        assert_eq!(r.difference("x.gap", "a", "b"), 100.0);
        assert_eq!(r.share("x.share", "bytes", "total"), 0.25);
        assert_eq!(r.product("x.bdp", "bytes", "b"), 50_000.0);
        let v = r.to_value();
        assert_eq!(v["x"]["ratio"]["type"], "ratio");
        assert_eq!(
            v["x"]["ratio"]["derived"],
            json!({"op": "ratio", "of": ["a", "b"]})
        );
        // A timing's own interval bounds the ratio: 198 / 101 and 202 / 99.
        assert!((v["x"]["ratio"]["low"].as_f64().unwrap() - 198.0 / 101.0).abs() < 1e-9);
        assert_eq!(
            v["x"]["gap"]["type"], "timing",
            "a difference of timings is a duration"
        );
        assert_eq!(v["x"]["gap"]["median"], 100.0);
        assert_eq!(v["x"]["share"]["type"], "share");
        assert_eq!(v["x"]["bdp"]["type"], "number");
    }

    #[test]
    #[should_panic(expected = "harness: derived `x`: no value at `nope`")]
    fn a_derived_value_of_a_missing_part_panics_with_its_name() {
        let mut r = Results::new();
        r.set("a", 1);
        r.ratio("x", "a", "nope");
    }

    #[test]
    fn inputs_are_listed_and_durations_read_as_timings() {
        let mut r = Results::new();
        r.input("params.requests", 2000);
        r.input_duration("delay", 2e6);
        r.input("params.requests", 2000);
        let v = r.to_value();
        assert_eq!(v["_inputs"], json!(["params.requests", "delay"]));
        assert_eq!(v["delay"]["type"], "timing");
        assert_eq!(v["delay"]["ci_low"], 2e6);
        assert_eq!(v["params"]["requests"], 2000);
    }

    #[test]
    fn tables_are_declared_with_both_languages_and_rendered_in_english() {
        let mut r = Results::new();
        r.set("json.bytes", 1234);
        r.set("json.time", timing(1500.0));
        let mut t = Table::new([
            Label::new("định dạng", "format"),
            Label::new("kích thước", "size"),
            Label::same("time"),
        ])
        .titled(Label::new("Mã hóa", "Encoding"));
        t.row([
            same("JSON"),
            value_as("json.bytes", "bytes"),
            value("json.time"),
        ]);
        assert_eq!(
            r.render(&t),
            "Encoding\nformat     size     time\n------------------------\nJSON    1.23 KB  1.50 µs\n\n"
        );
        r.table(t);
        let v = r.to_value();
        assert_eq!(
            v["_output"][0]["title"],
            json!({"vi": "Mã hóa", "en": "Encoding"})
        );
        assert_eq!(
            v["_output"][0]["columns"][0],
            json!({"vi": "định dạng", "en": "format"})
        );
        assert_eq!(
            v["_output"][0]["rows"][0],
            json!([{"text": {"vi": "JSON", "en": "JSON"}}, {"value": "json.bytes", "filter": "bytes"}, {"value": "json.time"}])
        );
    }

    #[test]
    #[should_panic(expected = "a table row has 1 cells for 2 columns")]
    fn a_row_of_the_wrong_width_panics() {
        let mut t = Table::new([Label::same("a"), Label::same("b")]);
        t.row([same("x")]);
    }
}
