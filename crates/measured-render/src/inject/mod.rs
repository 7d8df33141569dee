//! Injection: the experiment stage's results turned into HTML for the Markdown stage — inline
//! values (`<data>` with their spread and provenance), experiment figures (output, table, chart),
//! source excerpts by marked region — plus each experiment's published source page
//! (`source`).

mod claim;
mod elsewhere;
mod machine;
mod options;
mod output;
mod plain;
mod source;

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use crate::chart::{Chart, ChartKind, Interval, Series, interval_fields};
use crate::highlight::Highlighter;
use crate::markdown::{BlockKind, HookError, Hooks};
use measured_content::config::SiteConfig;
use measured_content::i18n::Strings;
use measured_core::format::{self, Filter};
use measured_core::html::escape;
use measured_core::lang::Lang;
use measured_measure::experiments::{Measurement, Measurements};
use measured_measure::values::{self, Kind};

pub use machine::PageHooks;

pub use source::{ExtraPage, find_region, source_pages};

/// The experiment stage's hooks into Markdown rendering.
pub struct Injector<'a> {
    pub measurements: &'a Measurements,
    /// Every article's claims with their decisions, by folder (`{{ claim.id }}`).
    pub claims: &'a measured_measure::claims::Decided,
    pub strings: &'a BTreeMap<Lang, Strings>,
    pub config: &'a SiteConfig,
    pub highlighter: &'a Highlighter,
}

impl Hooks for Injector<'_> {
    fn names_experiment(&self, name: &str) -> bool {
        name == values::MACHINE
            || name == measured_measure::claims::CLAIM
            || self.measurements.crates.contains_key(name)
    }

    fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError> {
        self.inline_on(expr, lang, &Slots::default())
    }

    fn block(
        &self,
        kind: BlockKind,
        args: &str,
        body: &str,
        lang: &Lang,
    ) -> Result<String, HookError> {
        match kind {
            BlockKind::Experiment => self.figure(args.trim(), body, lang),
            BlockKind::Source => self.excerpt(args, lang),
            BlockKind::Machines => self.machines(args.trim(), body, lang, None),
        }
    }
}

/// The experiments of one page, in order: the n-th's provenance is the CSS custom property
/// `--w<n>` of the page's body ([`Injector::where_vars`]), which the tooltips of its values and
/// claim marks show (`data-w="<n>"`) instead of each repeating it. The theme's stylesheet
/// knows [`SLOTS`] of them; an experiment past those keeps its provenance in each title.
#[derive(Debug, Clone, Default)]
pub struct Slots(pub Vec<String>);

/// How many `--w<n>` the theme's stylesheet maps (`[data-w="n"]`).
pub const SLOTS: usize = 8;

impl Slots {
    /// The slot of measurement `m`'s experiment, if it has one.
    fn of(&self, m: &Measurement) -> Option<usize> {
        let name = &m.record.provenance.experiment;
        self.0
            .iter()
            .position(|n| n == name)
            .filter(|&i| i < SLOTS)
            .map(|i| i + 1)
    }
}

/// ` data-w="n"` for slot n; nothing for slot 1, the stylesheet's default (most pages measure
/// one experiment, and a page's weight is counted); ` data-w="0"` for none, whose element
/// carries its provenance in its own title.
fn slot_attr(slot: Option<usize>) -> String {
    match slot {
        Some(1) => String::new(),
        Some(n) => format!(" data-w=\"{n}\""),
        None => " data-w=\"0\"".to_string(),
    }
}

impl Injector<'_> {
    /// `{{ expr }}` on a page whose experiments' provenance is in `slots`.
    pub(crate) fn inline_on(
        &self,
        expr: &str,
        lang: &Lang,
        slots: &Slots,
    ) -> Result<String, HookError> {
        let reference = measured_core::reference::Reference::parse(expr).text;
        let (m, v) = values::resolve(self.measurements, reference)?;
        self.show(m, v, expr, lang, slots)
    }

    /// The page's `--w<n>` custom properties: where each of its experiments was measured, in
    /// `lang` (CSS strings, for the body's `style`).
    pub fn where_vars(&self, slots: &Slots, lang: &Lang) -> String {
        let t = &self.strings[lang];
        slots
            .0
            .iter()
            .take(SLOTS)
            .enumerate()
            .filter_map(|(i, name)| {
                let m = self.measurements.by_name.get(name)?;
                Some(format!(
                    "--w{}:{}",
                    i + 1,
                    css_string(&self.where_measured(m, t))
                ))
            })
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The HTML of value `v` of measurement `m`, as `expr` (`reference | filter`) asks.
    fn show(
        &self,
        m: &Measurement,
        v: &Value,
        expr: &str,
        lang: &Lang,
        slots: &Slots,
    ) -> Result<String, HookError> {
        if let Some(reference) = code_filter(expr) {
            return self.as_code(m, v, reference, lang);
        }
        let (reference, filter) = split_filter(expr)?;
        let t = &self.strings[lang];
        match values::number(v) {
            // A `<data>` is always a measured value (the theme styles `data`, not a class).
            Some(n) => {
                let filter = filter.unwrap_or(n.kind.default_filter());
                let shown = n.show(filter, lang);
                let slot = slots.of(m);
                let title = self.value_title(m, v, n.kind, lang, slot.is_some());
                Ok(format!(
                    "<data value=\"{}\" title=\"{}\"{} tabindex=\"0\">{}</data>",
                    n.raw(),
                    escape(&title),
                    slot_attr(slot),
                    escape(&shown)
                ))
            }
            None if filter.is_none() => match v {
                Value::String(s) => Ok(format!(
                    "<span class=\"measured\" title=\"{}\">{}</span>",
                    escape(&self.where_measured(m, t)),
                    escape(&measured_core::html::terminal_text(s))
                )),
                Value::Bool(b) => Ok(escape(&b.to_string())),
                other => Err(HookError::new(format!(
                    "`{reference}` is a {}, not a value to show",
                    values::type_name(other)
                ))
                .hint("point at a number or a string inside it")),
            },
            None => Err(HookError::new(format!(
                "`{reference}` is a {}, and filters format numbers",
                values::type_name(v)
            ))
            .hint("remove the filter, or point at a number")),
        }
    }
}

/// `exp.path | code` → `exp.path`.
fn code_filter(expr: &str) -> Option<&str> {
    let r = measured_core::reference::Reference::parse(expr);
    (r.filter == Some("code")).then_some(r.text)
}

/// `exp.path | filter` → (`exp.path`, filter).
fn split_filter(expr: &str) -> Result<(&str, Option<Filter>), HookError> {
    let r = measured_core::reference::Reference::parse(expr);
    let filter = r.filter.map(Filter::parse).transpose();
    Ok((r.text, filter.map_err(HookError::new)?))
}

impl Injector<'_> {
    /// `{{ exp.path | code }}`: a string or number as code, escaped, with where it was
    /// measured as its tooltip. A string of several lines keeps its lines (`code.lines`, shown
    /// as a block by the theme; still phrasing content, so valid inside a paragraph).
    fn as_code(
        &self,
        m: &Measurement,
        v: &Value,
        reference: &str,
        lang: &Lang,
    ) -> Result<String, HookError> {
        let text = match (values::number(v), v) {
            (Some(n), _) => n.show(n.kind.default_filter(), lang),
            (None, Value::String(s)) => measured_core::html::terminal_text(s).into_owned(),
            (None, other) => {
                return Err(HookError::new(format!(
                    "`{reference}` is a {}, and `code` shows a string or a number",
                    values::type_name(other)
                ))
                .hint("point at a string or a number inside it"));
            }
        };
        let class = if text.contains('\n') {
            "measured lines"
        } else {
            "measured"
        };
        Ok(format!(
            "<code class=\"{class}\" title=\"{}\" tabindex=\"0\">{}</code>",
            escape(&self.where_measured(m, &self.strings[lang])),
            escape(text.trim_end())
        ))
    }

    fn fmt(&self, v: f64, filter: Filter, lang: &Lang) -> String {
        format::number(v, false, filter, lang)
    }

    fn where_measured(&self, m: &Measurement, t: &Strings) -> String {
        let p = &m.record.provenance;
        let lang = &t.lang;
        let load = |l: [f64; 3]| self.fmt(l[0], Filter::Fixed(2), lang);
        let mut s = t.fill(
            "value_where",
            &[
                ("date", p.measured_at.get(..10).unwrap_or(&p.measured_at)),
                ("experiment", &p.experiment),
                ("cpu", &p.cpu),
                ("cores", &p.cores.to_string()),
                ("load_before", &load(p.load_before)),
                ("load_after", &load(p.load_after)),
            ],
        );
        if let Some(note) = self.conditions_note(&m.record, t) {
            s.push_str(". ");
            s.push_str(&note);
        }
        if p.quick {
            // Short: it repeats on every value; the figure and the Reproduce section say it in full.
            s.push_str(" · ");
            s.push_str(t.get("quick_mode_short"));
        }
        s
    }

    /// What a reader should know of how `record`'s runs were measured, as recorded: under
    /// load (a load average above the cores the runs could use), with fewer cores than the
    /// machine has.
    pub(super) fn conditions_note(
        &self,
        record: &measured_measure::experiments::Record,
        t: &Strings,
    ) -> Option<String> {
        let c = measured_measure::experiments::Conditions::of(record);
        let lang = &t.lang;
        let mut notes = Vec::new();
        if c.loaded() {
            notes.push(t.fill(
                "conditions_loaded",
                &[
                    ("busy", &c.busy_runs.to_string()),
                    ("runs", &c.runs.to_string()),
                    ("load", &self.fmt(c.max_load, Filter::Fixed(2), lang)),
                    ("usable", &c.usable.to_string()),
                ],
            ));
        }
        if let (true, Some(online)) = (c.pinned(), c.online) {
            notes.push(t.fill(
                "conditions_pinned",
                &[
                    ("usable", &c.usable.to_string()),
                    ("online", &online.to_string()),
                    ("affinity", c.affinity.as_deref().unwrap_or("?")),
                ],
            ));
        }
        (!notes.is_empty()).then(|| notes.join(" "))
    }

    /// A value's spread, then where it was measured unless the page's slot says it (`slotted`).
    fn value_title(
        &self,
        m: &Measurement,
        v: &Value,
        kind: Kind,
        lang: &Lang,
        slotted: bool,
    ) -> String {
        let t = &self.strings[lang];
        let get = |k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
        let runs = v
            .get("runs")
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .to_string();
        let spread = match kind {
            Kind::Timing => Some(t.fill(
                "value_timing",
                &[
                    ("median", &self.fmt(get("median"), Filter::Duration, lang)),
                    ("low", &self.fmt(get("ci_low"), Filter::Duration, lang)),
                    ("high", &self.fmt(get("ci_high"), Filter::Duration, lang)),
                    ("runs", &runs),
                    ("q1", &self.fmt(get("q1"), Filter::Duration, lang)),
                    ("q3", &self.fmt(get("q3"), Filter::Duration, lang)),
                    ("n", &get("n").to_string()),
                ],
            )),
            Kind::Ratio | Kind::Share => {
                let (key, filter) = match kind {
                    Kind::Ratio => ("value_ratio", Filter::Ratio),
                    _ => ("value_share", Filter::Percent),
                };
                Some(t.fill(
                    key,
                    &[
                        ("value", &self.fmt(get("value"), filter, lang)),
                        ("low", &self.fmt(get("low"), filter, lang)),
                        ("high", &self.fmt(get("high"), filter, lang)),
                        ("runs", &runs),
                    ],
                ))
            }
            Kind::Plain => None,
        };
        match (spread, slotted) {
            (Some(s), true) => format!("{s}."),
            (None, true) => String::new(),
            (Some(s), false) => format!("{s}. {}", self.where_measured(m, t)),
            (None, false) => self.where_measured(m, t),
        }
    }

    fn source_url(&self, name: &str, lang: &Lang) -> String {
        format!(
            "{}{}/{name}/",
            self.config.lang_prefix(lang),
            measured_content::site::reserved::EXPERIMENTS
        )
    }

    /// The provenance details shown under a figure.
    fn provenance_html(&self, m: &Measurement, lang: &Lang) -> String {
        let t = &self.strings[lang];
        let p = &m.record.provenance;
        let load = |l: [f64; 3]| {
            l.iter()
                .map(|x| self.fmt(*x, Filter::Fixed(2), lang))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let mut text = t.fill(
            "provenance_text",
            &[
                ("experiment", &p.experiment),
                ("date", &p.measured_at),
                ("cpu", &p.cpu),
                ("cores", &p.cores.to_string()),
                ("kernel", &p.kernel),
                ("rustc", &p.rustc),
                ("load_before", &load(p.load_before)),
                ("load_after", &load(p.load_after)),
                (
                    "duration",
                    &self.fmt(p.duration_secs * 1e9, Filter::Duration, lang),
                ),
                ("source_hash", &p.source_hash),
                ("lock_hash", &p.lock_hash),
            ],
        );
        if let Some(note) = self.conditions_note(&m.record, t) {
            text.push(' ');
            text.push_str(&note);
        }
        if p.quick {
            text.push(' ');
            text.push_str(t.get("quick_mode"));
            text.push('.');
        }
        format!(
            "<details class=\"provenance\"><summary>{}</summary><p>{}</p><p><a href=\"{}\">{}: {}</a></p></details>",
            escape(t.get("provenance")),
            escape(&text),
            self.source_url(&p.experiment, lang),
            escape(t.get("experiment_source")),
            escape(&p.experiment)
        )
    }

    fn figure(&self, name: &str, body: &str, lang: &Lang) -> Result<String, HookError> {
        let (m, _, _) = values::measurement(self.measurements, name)?;
        let opts = BlockOptions::parse(body)?;
        let t = &self.strings[lang];
        let inner = if opts.is_empty() {
            self.output(m, name, lang)?
        } else if let Some(table) = &opts.table {
            self.table(m, name, table, &opts.columns, lang)?
        } else if opts.chart.is_some() {
            self.chart(m, name, &opts, lang)?
        } else {
            return Err(HookError::new("an experiment block with options needs `table:` or `chart:`")
                .hint("write `table: <path>` with `column:` lines, or `chart: line|bar|stacked` with `data:`, `x:` and `y:` lines"));
        };
        let caption = opts
            .caption
            .clone()
            .unwrap_or_else(|| t.fill("experiment_output", &[("experiment", name)]));
        Ok(format!(
            "<figure class=\"experiment\">\n{inner}\n<figcaption><span class=\"caption\">{}</span>\n{}</figcaption>\n</figure>\n",
            escape(&caption),
            self.provenance_html(m, lang)
        ))
    }

    fn rows<'v>(
        &self,
        m: &'v Measurement,
        name: &str,
        path: &str,
    ) -> Result<Vec<(Option<String>, &'v Value)>, HookError> {
        let v = values::at(&m.record.results, path).map_err(|e| HookError {
            message: format!("{} (experiment `{name}`)", e.message),
            hint: e.hint,
        })?;
        match v {
            Value::Array(items) => Ok(items.iter().map(|i| (None, i)).collect()),
            Value::Object(map) => Ok(map.iter().map(|(k, i)| (Some(k.clone()), i)).collect()),
            other => Err(HookError::new(format!(
                "`{name}.{path}` is a {}, not a list of rows",
                values::type_name(other)
            ))),
        }
    }

    fn cell(
        &self,
        row: &(Option<String>, &Value),
        col: &Column,
        lang: &Lang,
        name: &str,
    ) -> Result<(String, Option<f64>), HookError> {
        if col.field == "key" {
            if let Some(k) = &row.0 {
                return Ok((escape(k), None));
            }
        }
        let v = values::at(row.1, &col.field).map_err(|e| {
            HookError::new(format!(
                "column `{}`: {} (experiment `{name}`)",
                col.field, e.message
            ))
            .hint(e.hint.unwrap_or_default())
        })?;
        Ok(match values::number(v) {
            Some(n) => {
                let f = col.filter.unwrap_or(n.kind.default_filter());
                (escape(&n.show(f, lang)), Some(n.value))
            }
            None => match v {
                Value::String(s) => (escape(&measured_core::html::terminal_text(s)), None),
                Value::Null => (String::new(), None),
                other => (escape(&other.to_string()), None),
            },
        })
    }

    fn table(
        &self,
        m: &Measurement,
        name: &str,
        path: &str,
        columns: &[Column],
        lang: &Lang,
    ) -> Result<String, HookError> {
        if columns.is_empty() {
            return Err(HookError::new(
                "a table needs `column: field | label` lines",
            ));
        }
        let rows = self.rows(m, name, path)?;
        // Numbers are the common case: the table right-aligns its cells, and marks the ones
        // that hold text (and the headers of columns not all numbers) `txt`.
        let mut s = String::from("<div class=\"table-wrap\"><table class=\"nums\">\n<thead><tr>");
        let mut numeric = vec![true; columns.len()];
        let mut body = String::new();
        for row in &rows {
            body.push_str("<tr>");
            for (i, col) in columns.iter().enumerate() {
                let (text, num) = self.cell(row, col, lang, name)?;
                numeric[i] &= num.is_some();
                let _ = write!(
                    body,
                    "<td{}>{text}</td>",
                    if num.is_none() && !text.is_empty() {
                        " class=\"txt\""
                    } else {
                        ""
                    }
                );
            }
            body.push_str("</tr>\n");
        }
        for (i, col) in columns.iter().enumerate() {
            let _ = write!(
                s,
                "<th scope=\"col\"{}>{}</th>",
                if numeric[i] { "" } else { " class=\"txt\"" },
                escape(&col.label)
            );
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        s.push_str(&body);
        s.push_str("</tbody></table></div>");
        Ok(s)
    }

    /// A chart's series (values and intervals of each `y:`), the table's columns (each series
    /// with its interval's bounds) and the word the readouts name intervals with.
    #[allow(
        clippy::type_complexity,
        reason = "a private helper's three results, named at its one call site"
    )]
    fn chart_series(
        &self,
        rows: &[(Option<String>, &Value)],
        x: &Column,
        opts: &BlockOptions,
        lang: &Lang,
        (name, data): (&str, &str),
    ) -> Result<(Vec<Series>, Vec<Column>, &'static str), HookError> {
        let mut series = Vec::new();
        let mut columns = vec![x.clone()];
        let mut bounds_word = "chart_interval";
        for y in &opts.y {
            let mut values = Vec::new();
            let mut intervals = Vec::new();
            for row in rows {
                let cell = values::at(row.1, &y.field).ok();
                values.push(cell.and_then(values::number).map(|n| n.value));
                intervals.push(cell.and_then(Interval::of));
            }
            columns.push(y.clone());
            // The table shows each interval's bounds next to its series.
            let with_interval = rows
                .iter()
                .filter_map(|r| values::at(r.1, &y.field).ok())
                .find(|v| Interval::of(v).is_some());
            if let Some((low, high)) = with_interval.and_then(interval_fields) {
                let (word, filter) = match low {
                    "low" => ("chart_bounds", Filter::Ratio),
                    _ => ("chart_interval", Filter::Duration),
                };
                bounds_word = word;
                for (bound, key) in [(low, "chart_low"), (high, "chart_high")] {
                    columns.push(Column {
                        field: format!("{}.{bound}", y.field),
                        label: self.strings[lang].fill(key, &[("series", &y.label)]),
                        filter: y.filter.or(Some(filter)),
                    });
                }
            }
            if values.iter().all(Option::is_none) {
                return Err(HookError::new(format!(
                    "series `{}` has no number in any row of `{name}.{data}`",
                    y.field
                )));
            }
            series.push(Series {
                label: y.label.clone(),
                values,
                intervals,
            });
        }
        Ok((series, columns, bounds_word))
    }

    fn chart(
        &self,
        m: &Measurement,
        name: &str,
        opts: &BlockOptions,
        lang: &Lang,
    ) -> Result<String, HookError> {
        let (kind, data, x) = chart_shape(opts)?;
        let rows = self.rows(m, name, data)?;
        let mut x_labels = Vec::new();
        let mut x_values = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let (label, num) = self.cell(row, x, lang, name)?;
            x_labels.push(measured_core::html::strip_tags(&label));
            x_values.push(num.unwrap_or(i as f64));
        }
        let (series, columns, bounds_word) =
            self.chart_series(&rows, x, opts, lang, (name, data))?;
        // A timing series reads as durations, a ratio as a ratio, unless a filter says otherwise.
        let y_filter = opts.y[0].filter.unwrap_or_else(|| {
            let first = rows
                .iter()
                .find_map(|r| values::at(r.1, &opts.y[0].field).ok());
            first
                .and_then(values::number)
                .map_or(Filter::Auto, |n| n.kind.default_filter())
        });
        let x_filter = x.filter.unwrap_or(Filter::Auto);
        let fy = |v: f64| format::number(v, false, y_filter, lang);
        let fx = |v: f64| format::number(v, false, x_filter, lang);
        let fi = |low: &str, high: &str| {
            self.strings[lang].fill(bounds_word, &[("low", low), ("high", high)])
        };
        let title = opts.caption.clone().unwrap_or_else(|| name.to_string());
        let log_x = opts.scale.as_deref() == Some("log");
        let (x_label, y_label) = self.axis_labels(opts, x, lang);
        let chart = Chart {
            kind,
            title,
            x_label,
            y_label,
            x_labels,
            x_values,
            log_x,
            log_y: opts.log_y,
            series,
            format_y: &fy,
            format_x: &fx,
            format_interval: &fi,
        };
        // Short: every focusable point's readout id starts with it (twice per point).
        let id = format!(
            "c{}",
            blake3::hash(format!("{name}\0{opts:?}").as_bytes())
                .to_hex()
                .get(..8)
                .unwrap_or("0")
        );
        let svg = chart
            .svg(&id)
            .map_err(|e| HookError::new(e.message).hint(e.hint))?;
        let table = self.table(m, name, data, &columns, lang)?;
        Ok(format!(
            "<div class=\"chart\">{svg}</div>{}<details class=\"chart-data\"><summary>{}</summary>{table}</details>",
            chart.legend(),
            escape(self.strings[lang].get("chart_data"))
        ))
    }
}

impl Injector<'_> {
    /// The x and y axes' labels of a chart, a logarithmic axis saying so.
    fn axis_labels(&self, opts: &BlockOptions, x: &Column, lang: &Lang) -> (String, String) {
        let logarithmic = |label: String, log: bool| match log {
            true => self.strings[lang].fill("chart_log_axis", &[("label", &label)]),
            false => label,
        };
        let y = opts
            .y_label
            .clone()
            .unwrap_or_else(|| match opts.y.as_slice() {
                [only] => only.label.clone(),
                _ => String::new(),
            });
        (
            logarithmic(x.label.clone(), opts.scale.as_deref() == Some("log")),
            logarithmic(y, opts.log_y),
        )
    }
}

/// A chart block's kind, data path and x column, or what it lacks.
fn chart_shape(opts: &BlockOptions) -> Result<(ChartKind, &str, &Column), HookError> {
    let kind = match opts.chart.as_deref() {
        Some("line") => ChartKind::Line,
        Some("bar") => ChartKind::Bar,
        Some("stacked") => ChartKind::Stacked,
        Some(other) => {
            return Err(
                HookError::new(format!("unknown chart `{other}`")).hint("use line, bar or stacked")
            );
        }
        None => unreachable!("checked by the caller"),
    };
    let data = opts
        .data
        .as_deref()
        .ok_or_else(|| HookError::new("a chart needs `data: <path to rows>`"))?;
    let x = opts
        .x
        .as_ref()
        .ok_or_else(|| HookError::new("a chart needs `x: field | label`"))?;
    if opts.y.is_empty() {
        return Err(HookError::new(
            "a chart needs at least one `y: field | label` line",
        ));
    }
    Ok((kind, data, x))
}

/// The options of an experiment block: `key: value` lines.
#[derive(Debug, Clone, Default)]
struct BlockOptions {
    table: Option<String>,
    chart: Option<String>,
    data: Option<String>,
    x: Option<Column>,
    y: Vec<Column>,
    columns: Vec<Column>,
    caption: Option<String>,
    scale: Option<String>,
    y_label: Option<String>,
    log_y: bool,
}

/// `field | label | filter`.
#[derive(Debug, Clone)]
struct Column {
    field: String,
    label: String,
    filter: Option<Filter>,
}

impl BlockOptions {
    fn is_empty(&self) -> bool {
        self.table.is_none() && self.chart.is_none() && self.columns.is_empty() && self.y.is_empty()
    }
}

/// `text` as a CSS string (`'…'`): quotes and backslashes escaped, line breaks as spaces.
fn css_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\'' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
