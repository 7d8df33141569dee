//! A bare ```` ```experiment NAME ```` block: the tables the experiment declared as its
//! output (`_output`, written by the harness's `Results::table`), rendered from the combined
//! results in the page's language and number format, so that the block shows the same figures
//! as the page's values, tables and claims. One run's raw stdout is never the block: an
//! experiment that declares no table shows its latest run's output collapsed, labelled as
//! what it is, and the build warns.

use std::fmt::Write;

use serde_json::Value;

use crate::markdown::HookError;
use measured_core::format::Filter;
use measured_core::html::escape;
use measured_core::lang::Lang;
use measured_measure::experiments::Measurement;
use measured_measure::values;

use super::Injector;

impl Injector<'_> {
    /// The HTML of experiment `name`'s output block, on a page in `lang`.
    pub(super) fn output(
        &self,
        m: &Measurement,
        name: &str,
        lang: &Lang,
    ) -> Result<String, HookError> {
        let Some(tables) = m.record.results.get("_output").and_then(Value::as_array) else {
            return Ok(self.raw_output(m, lang));
        };
        let mut html = String::new();
        for (i, t) in tables.iter().enumerate() {
            html.push_str(&self.output_table(m, t, lang).map_err(|e| HookError {
                message: format!(
                    "output table {} of experiment `{name}`: {}",
                    i + 1,
                    e.message
                ),
                hint: e.hint,
            })?);
        }
        Ok(html)
    }

    /// One declared table: its title, labelled columns, and cells of text or values.
    fn output_table(&self, m: &Measurement, t: &Value, lang: &Lang) -> Result<String, HookError> {
        let label = |v: &Value| -> String {
            let text = v.get(lang.code()).or_else(|| v.get("en"));
            measured_core::html::terminal_text(text.and_then(Value::as_str).unwrap_or_default())
                .into_owned()
        };
        let mut s = String::new();
        if let Some(title) = t.get("title") {
            let _ = write!(s, "<p class=\"output-title\">{}</p>", escape(&label(title)));
        }
        s.push_str("<div class=\"table-wrap\"><table class=\"nums\">\n<thead><tr>");
        let columns = t
            .get("columns")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let rows: Vec<&Vec<Value>> = t
            .get("rows")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .collect();
        for (i, c) in columns.enumerate() {
            // The first column names the rows; the others hold numbers.
            let class = if i == 0 { " class=\"txt\"" } else { "" };
            let _ = write!(s, "<th scope=\"col\"{class}>{}</th>", escape(&label(c)));
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for row in rows {
            s.push_str("<tr>");
            for cell in row {
                let (text, numeric) = match (cell.get("text"), cell.get("value")) {
                    (Some(l), _) => (escape(&label(l)), false),
                    (None, Some(path)) => self.output_cell(m, cell, path, lang)?,
                    _ => (String::new(), true),
                };
                let class = if numeric { "" } else { " class=\"txt\"" };
                let _ = write!(s, "<td{class}>{text}</td>");
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table></div>\n");
        Ok(s)
    }

    /// A value cell: the combined value at its path, with its filter or its kind's.
    fn output_cell(
        &self,
        m: &Measurement,
        cell: &Value,
        path: &Value,
        lang: &Lang,
    ) -> Result<(String, bool), HookError> {
        let path = path.as_str().unwrap_or_default();
        let v = values::at(&m.record.results, path)?;
        if let Value::String(text) = v {
            return Ok((escape(&measured_core::html::terminal_text(text)), false));
        }
        let n = values::number(v).ok_or_else(|| {
            HookError::new(format!(
                "`{path}` is a {}, not a number",
                values::type_name(v)
            ))
        })?;
        let filter = match cell.get("filter").and_then(Value::as_str) {
            Some(f) => Filter::parse(f).map_err(HookError::new)?,
            None => n.kind.default_filter(),
        };
        Ok((escape(&n.show(filter, lang)), true))
    }

    /// The latest run's stdout, collapsed and labelled as one run of several, for an
    /// experiment that declares no output table.
    fn raw_output(&self, m: &Measurement, lang: &Lang) -> String {
        let t = &self.strings[lang];
        let runs = m.record.runs.len().max(1).to_string();
        format!(
            "<details class=\"raw-output\"><summary>{}</summary><pre class=\"output\" tabindex=\"0\"><code>{}</code></pre></details>",
            escape(&t.fill("raw_output", &[("run", &runs), ("runs", &runs)])),
            measured_core::html::escape_body(
                measured_core::html::terminal_text(&m.record.output).trim_end()
            )
        )
    }
}
