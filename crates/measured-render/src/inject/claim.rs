//! `{{ claim.id }}`: the mark a reader sees after a checked sentence, in the page's language:
//! a focusable ✓ whose tooltip says the claim in words, each side's value with its interval
//! and runs, and when and where they were measured.

use crate::markdown::HookError;
use measured_content::i18n::Strings;
use measured_core::format::{self, Filter};
use measured_core::html::escape;
use measured_core::lang::Lang;
use measured_measure::claims::{
    self, ArticleClaims, Claim, Cmp, Decision, Outcome, Quantity, Tolerance, Value,
};
use measured_measure::values::Kind;

use super::{Injector, Slots};
use measured_measure::experiments::Measurement;

impl Injector<'_> {
    /// The mark of claim `id` of `article` (with its decisions), or why there is none.
    pub(super) fn claim_mark(
        &self,
        article: Option<&(ArticleClaims, Vec<Decision>)>,
        id: &str,
        lang: &Lang,
        slots: &Slots,
    ) -> Result<String, HookError> {
        let Some((article, decisions)) = article else {
            return Err(HookError::new(format!(
                "`claim.{id}` marks a claim, and this article declares none"
            ))
            .hint(format!(
                "declare it in the front matter of the article's original file: claims:\n  {id}: <experiment.path> > <number>"
            )));
        };
        let Some(i) = article.claims.iter().position(|c| c.entry.id == id) else {
            let ids = article.claims.iter().map(|c| c.entry.id.as_str());
            let hint = match measured_core::diag::closest(id, ids.clone()) {
                Some(near) => format!("did you mean `claim.{near}`?"),
                None => format!(
                    "the article's claims are: {}",
                    ids.collect::<Vec<_>>().join(", ")
                ),
            };
            return Err(HookError::new(format!(
                "`claim.{id}` names no claim of this article (declared in {})",
                article.path.display()
            ))
            .hint(hint));
        };
        let claim = &article.claims[i];
        let measured = self.claim_measurement(&claim.expr);
        let slot = measured.and_then(|m| slots.of(m));
        let d = &decisions[i];
        let mut title = self.claim_title(claim, d, lang);
        if let (Some(m), None) = (measured, slot) {
            title.push(' ');
            title.push_str(&self.where_measured(m, &self.strings[lang]));
        }
        let verdict = claims::Verdict::of(d.outcome).word();
        let t = &self.strings[lang];
        // The glyph is what sighted readers tell the verdicts by, beside its colour; the
        // label says the verdict in words to everyone else.
        let glyph = match d.outcome {
            Outcome::Holds => "✓",
            Outcome::Inconclusive => "?",
            Outcome::Fails => "✗",
        };
        // A claim that holds reads as its ✓ and its tooltip (which says it was checked);
        // the others also carry their verdict as their accessible name.
        let label = match d.outcome {
            Outcome::Holds => String::new(),
            _ => format!(
                " role=\"img\" aria-label=\"{}\"",
                escape(t.get(&format!("claim_label_{verdict}")))
            ),
        };
        Ok(format!(
            "<span class=\"claim\" data-verdict=\"{verdict}\" tabindex=\"0\"{label} title=\"{}\"{}>{glyph}</span>",
            escape(&title),
            super::slot_attr(slot)
        ))
    }

    /// The claim in words with its values: "Checked at build: a (3.1×, 2.9×–3.3× over 3
    /// runs) is above 2.5." (where it was measured is the page's, or appended by the caller).
    fn claim_title(&self, claim: &Claim, d: &Decision, lang: &Lang) -> String {
        let t = &self.strings[lang];
        let expr = &claim.expr;
        // A literal reads in the unit of the measured side it is compared with.
        let kind = if d.lhs.runs > 0 {
            d.lhs.kind
        } else {
            d.rhs.kind
        };
        let lhs = side(t, &expr.lhs.text, &expr.lhs.value, &d.lhs, kind, lang);
        let rhs = side(t, &expr.rhs.text, &expr.rhs.value, &d.rhs, kind, lang);
        let cmp = match expr.cmp {
            Cmp::Lt => t.get("claim_lt").to_string(),
            Cmp::Le => t.get("claim_le").to_string(),
            Cmp::Gt => t.get("claim_gt").to_string(),
            Cmp::Ge => t.get("claim_ge").to_string(),
            Cmp::Eq => t.get("claim_eq").to_string(),
            Cmp::Ne => t.get("claim_ne").to_string(),
            Cmp::Approx(tol) => {
                let band = match tol {
                    Tolerance::Relative(p) => {
                        format!("±{}%", format::number(p, false, Filter::Auto, lang))
                    }
                    Tolerance::Absolute(x) => format!("±{}", show(x, kind, lang)),
                };
                t.fill("claim_approx", &[("band", &band)])
            }
        };
        let key = match d.outcome {
            Outcome::Holds => "claim_mark",
            Outcome::Inconclusive => "claim_mark_inconclusive",
            Outcome::Fails => "claim_mark_fails",
        };
        t.fill(key, &[("lhs", &lhs), ("cmp", &cmp), ("rhs", &rhs)])
    }

    /// The measurement of the claim's first measured side: where its values were measured.
    fn claim_measurement(&self, expr: &claims::Expr) -> Option<&Measurement> {
        [&expr.lhs.value, &expr.rhs.value]
            .into_iter()
            .find_map(|v| match v {
                Value::Path { experiment } => self.measurements.by_name.get(experiment),
                Value::Number(_) => None,
            })
    }
}

/// One side of a claim: a literal as a number, a measured value with its interval and runs.
fn side(t: &Strings, text: &str, value: &Value, q: &Quantity, kind: Kind, lang: &Lang) -> String {
    match value {
        Value::Number(_) => show(q.value, kind, lang),
        Value::Path { .. } if q.exact.is_some() => t.fill(
            "claim_exact",
            &[("name", text), ("value", &show(q.value, q.kind, lang))],
        ),
        Value::Path { .. } => t.fill(
            "claim_measured",
            &[
                ("name", text),
                ("value", &show(q.value, q.kind, lang)),
                ("low", &show(q.low, q.kind, lang)),
                ("high", &show(q.high, q.kind, lang)),
                ("runs", &q.runs.to_string()),
            ],
        ),
    }
}

/// A number of `kind` as the page shows it.
fn show(x: f64, kind: Kind, lang: &Lang) -> String {
    let is_int = kind == Kind::Plain && x.fract() == 0.0;
    format::number(x, is_int, kind.default_filter(), lang)
}
