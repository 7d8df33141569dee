//! ```` ```machines NAME ````: "measured elsewhere", one experiment on every machine whose
//! results the site has. Per machine its CPU, cores, kernel and toolchain, the values the
//! block's `value:` lines name, and whether each claim of the article that rests on the
//! experiment holds there, decided by the same code as the primary's claims on that machine's
//! runs; then "holds on N of M machines". A claim failing elsewhere is shown, not an error.

use std::fmt::Write;

use serde_json::Value;

use crate::markdown::HookError;
use measured_content::i18n::Strings;
use measured_core::html::escape;
use measured_core::lang::Lang;
use measured_measure::claims::{self, ArticleClaims, Claim, Decision, Outcome};
use measured_measure::experiments::Record;
use measured_measure::values;

use super::{Column, Injector, options};

/// The options of a machines block.
#[derive(Debug, Default)]
struct MachinesOptions {
    values: Vec<Column>,
    /// The claims to show, by id (default: every claim of the article on the experiment).
    claims: Option<Vec<String>>,
    caption: Option<String>,
}

impl MachinesOptions {
    fn parse(body: &str) -> Result<MachinesOptions, HookError> {
        let mut o = MachinesOptions::default();
        for line in options::lines(body) {
            let (key, value) = line?;
            match key {
                "value" => o.values.push(Column::parse(value)?),
                "claims" => {
                    o.claims = Some(
                        value
                            .split(',')
                            .map(|c| c.trim().to_string())
                            .filter(|c| !c.is_empty())
                            .collect(),
                    );
                }
                "caption" => o.caption = Some(value.to_string()),
                other => {
                    return Err(options::unknown(
                        "machines",
                        other,
                        &["value", "claims", "caption"],
                    ));
                }
            }
        }
        Ok(o)
    }
}

/// One machine (a column): its name, its record of the experiment,
/// and the decisions of the claims shown.
struct OnMachine<'m> {
    label: String,
    record: &'m Record,
    decisions: Vec<Option<Outcome>>,
}

impl Injector<'_> {
    /// The HTML of ```` ```machines NAME ```` with options `body`, on a page of the article
    /// whose claims are `article`.
    pub(super) fn machines(
        &self,
        name: &str,
        body: &str,
        lang: &Lang,
        article: Option<&(ArticleClaims, Vec<Decision>)>,
    ) -> Result<String, HookError> {
        let (primary, _, _) = values::measurement(self.measurements, name)?;
        let opts = MachinesOptions::parse(body)?;
        let t = &self.strings[lang];
        let shown = shown_claims(name, &opts, article)?;
        // The primary's values must exist: a missing one is a slip in the block.
        for col in &opts.values {
            values::at(&primary.record.results, &col.field).map_err(|e| HookError {
                message: format!("value `{}`: {} (experiment `{name}`)", col.field, e.message),
                hint: e.hint,
            })?;
        }
        let mut rows = vec![OnMachine {
            label: self.primary_label(t),
            record: &primary.record,
            decisions: shown.iter().map(|(_, d)| d.map(|d| d.outcome)).collect(),
        }];
        for (machine, records) in &self.measurements.elsewhere {
            let Some(record) = records.get(name) else {
                continue;
            };
            let on_machine = measured_measure::claims::report::measurements_of(records);
            rows.push(OnMachine {
                label: machine.clone(),
                record,
                decisions: shown
                    .iter()
                    .map(|(c, _)| claims::decide(&c.expr, &on_machine).ok().map(|d| d.outcome))
                    .collect(),
            });
        }
        let claims: Vec<&Claim> = shown.iter().map(|(c, _)| *c).collect();
        let table = self.machines_table(&rows, &opts.values, &claims, lang);
        let summary = summary(&rows, &claims, t);
        let caption = opts.caption.clone().unwrap_or_else(|| {
            t.fill(
                "machines_caption",
                &[("experiment", name), ("m", &rows.len().to_string())],
            )
        });
        Ok(format!(
            "<figure class=\"experiment machines\">\n{table}\n{summary}<figcaption><span class=\"caption\">{}</span></figcaption>\n</figure>\n",
            escape(&caption)
        ))
    }

    /// The primary row's name: the imported machine `site.toml` names, or this one.
    fn primary_label(&self, t: &Strings) -> String {
        match &self.measurements.primary {
            Some(id) => t.fill("machines_primary", &[("machine", id)]),
            None => t.get("machines_this").to_string(),
        }
    }

    /// The table: one column per machine, one row per fact of the machine, value and claim
    /// (a page's measure holds a few machines side by side better than a dozen columns).
    fn machines_table(
        &self,
        machines: &[OnMachine<'_>],
        values: &[Column],
        claims: &[&Claim],
        lang: &Lang,
    ) -> String {
        let t = &self.strings[lang];
        let mut s = format!(
            "<div class=\"table-wrap\"><table class=\"nums\">\n<thead><tr><th scope=\"col\" class=\"txt\">{}</th>",
            escape(t.get("machines_machine"))
        );
        for m in machines {
            let _ = write!(s, "<th scope=\"col\">{}</th>", escape(&m.label));
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        // Every cell right-aligned under its machine; an outcome's class colours it.
        let mut row = |label: &str, cell: &dyn Fn(&OnMachine<'_>) -> (&'static str, String)| {
            let _ = write!(
                s,
                "<tr><th scope=\"row\" class=\"txt\">{}</th>",
                escape(label)
            );
            for m in machines {
                let (class, html) = cell(m);
                if class.is_empty() {
                    let _ = write!(s, "<td>{html}</td>");
                } else {
                    let _ = write!(s, "<td class=\"{class}\">{html}</td>");
                }
            }
            s.push_str("</tr>\n");
        };
        let text = |f: fn(&OnMachine<'_>) -> String| move |m: &OnMachine<'_>| ("", escape(&f(m)));
        row(
            t.get("machines_cpu"),
            &text(|m| m.record.provenance.cpu.clone()),
        );
        row(
            t.get("machines_cores"),
            &text(|m| m.record.provenance.cores.to_string()),
        );
        row(
            t.get("machines_os"),
            &text(|m| format!("Linux {}", m.record.provenance.kernel)),
        );
        row(
            t.get("machines_rustc"),
            &text(|m| m.record.provenance.rustc.clone()),
        );
        row(t.get("machines_conditions"), &|m: &OnMachine<'_>| {
            let note = self.conditions_note(m.record, t);
            (
                "",
                escape(&note.unwrap_or_else(|| t.get("machines_quiet").to_string())),
            )
        });
        // The day only (the page's weight is counted; the provenance has the time).
        row(
            t.get("machines_when"),
            &text(|m| {
                let at = &m.record.provenance.measured_at;
                at.get(..10).unwrap_or(at).to_string()
            }),
        );
        for col in values {
            row(&col.label, &|m: &OnMachine<'_>| {
                ("", escape(&value_text(m.record, col, lang)))
            });
        }
        for (i, c) in claims.iter().enumerate() {
            let label = t.fill("machines_claim", &[("claim", &c.entry.id)]);
            row(&label, &|m: &OnMachine<'_>| {
                let (class, key) = outcome_key(m.decisions[i]);
                (class, escape(t.get(key)))
            });
        }
        s.push_str("</tbody></table></div>");
        s
    }
}

/// The claims of `article` the block shows, with their decisions on the primary.
fn shown_claims<'a>(
    name: &str,
    opts: &MachinesOptions,
    article: Option<&'a (ArticleClaims, Vec<Decision>)>,
) -> Result<Vec<(&'a Claim, Option<&'a Decision>)>, HookError> {
    let Some((article, decisions)) = article else {
        return match opts.claims.as_deref() {
            Some([first, ..]) => Err(HookError::new(format!(
                "`claims: {first}`: this article declares no claims"
            ))
            .hint("declare them in the front matter of the article's original file")),
            _ => Ok(Vec::new()),
        };
    };
    let on_experiment = |c: &Claim| {
        claims::experiments_of(&c.entry.text)
            .iter()
            .any(|e| e == name)
    };
    let all = article.claims.iter().zip(decisions.iter().map(Some));
    let Some(ids) = &opts.claims else {
        return Ok(all.filter(|(c, _)| on_experiment(c)).collect());
    };
    let mut out = Vec::new();
    for id in ids {
        match article.claims.iter().position(|c| &c.entry.id == id) {
            Some(i) if on_experiment(&article.claims[i]) => {
                out.push((&article.claims[i], decisions.get(i)));
            }
            Some(_) => {
                return Err(HookError::new(format!(
                    "claim `{id}` does not rest on experiment `{name}`"
                ))
                .hint("a machines block shows the claims of its own experiment"));
            }
            None => {
                let known = article.claims.iter().map(|c| c.entry.id.as_str());
                let hint = measured_core::diag::closest(id, known).map_or_else(
                    || "list ids of the article's claims, separated by commas".to_string(),
                    |c| format!("did you mean `{c}`?"),
                );
                return Err(HookError::new(format!(
                    "`claims: {id}` names no claim of this article"
                ))
                .hint(hint));
            }
        }
    }
    Ok(out)
}

/// A value of `record` as the column says; a dash where that machine's results lack it.
fn value_text(record: &Record, col: &Column, lang: &Lang) -> String {
    match values::at(&record.results, &col.field) {
        Ok(v) => match values::number(v) {
            Some(n) => n.show(col.filter.unwrap_or(n.kind.default_filter()), lang),
            None => match v {
                Value::String(s) => measured_core::html::terminal_text(s).into_owned(),
                other => other.to_string(),
            },
        },
        Err(_) => "—".to_string(),
    }
}

fn outcome_key(outcome: Option<Outcome>) -> (&'static str, &'static str) {
    match outcome {
        Some(Outcome::Holds) => ("holds", "machines_holds"),
        Some(Outcome::Fails) => ("fails", "machines_fails"),
        Some(Outcome::Inconclusive) => ("inconclusive", "machines_inconclusive"),
        None => ("unmeasured", "machines_unmeasured"),
    }
}

/// "Claim x holds on N of M machines", per claim: M counts the machines that decided it.
fn summary(rows: &[OnMachine<'_>], claims: &[&Claim], t: &Strings) -> String {
    if claims.is_empty() {
        return String::new();
    }
    let mut s = String::from("<ul class=\"machines-summary\">");
    for (i, c) in claims.iter().enumerate() {
        let decided: Vec<Outcome> = rows.iter().filter_map(|r| r.decisions[i]).collect();
        let holds = decided.iter().filter(|o| **o == Outcome::Holds).count();
        let _ = write!(
            s,
            "<li>{}</li>",
            escape(&t.fill(
                "machines_summary",
                &[
                    ("claim", &c.entry.id),
                    ("n", &holds.to_string()),
                    ("m", &decided.len().to_string()),
                ],
            ))
        );
    }
    s.push_str("</ul>\n");
    s
}
