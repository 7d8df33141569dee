//! `{{ machine.cores }}` and the other values of the machine that measured a page's
//! experiments, read from their provenance: per page, since each page names its experiments.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::markdown::{BlockKind, HookError, Hooks};
use measured_core::lang::Lang;
use measured_measure::claims::{ArticleClaims, Decision};
use measured_measure::experiments::Measurement;
use measured_measure::values::MACHINE;

use super::Injector;

/// The values of the machine, by name.
const FIELDS: [&str; 5] = ["cores", "cpu", "memory", "kernel", "rustc"];

/// A page's hooks: the injector, and the experiments the page uses (for `machine.*`).
pub struct PageHooks<'p, 'a> {
    pub injector: &'p Injector<'a>,
    pub experiments: BTreeSet<String>,
    /// The page's experiments, whose provenance the page's body carries once.
    pub slots: super::Slots,
    /// The claims of the page's article with their decisions, for `{{ claim.id }}`.
    pub claims: Option<&'p (ArticleClaims, Vec<Decision>)>,
}

impl Hooks for PageHooks<'_, '_> {
    fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError> {
        let r = measured_core::reference::Reference::parse(expr);
        if let Some(id) = r.claim_id() {
            return self.injector.claim_mark(self.claims, id, lang, &self.slots);
        }
        match (r.name, r.path) {
            (MACHINE, field) if r.text.contains('.') => {
                let m = self.measuring(r.text)?;
                let v = value(m, field, r.text)?;
                self.injector.show(m, &v, expr, lang, &self.slots)
            }
            _ => self.injector.inline_on(expr, lang, &self.slots),
        }
    }

    fn block(
        &self,
        kind: BlockKind,
        args: &str,
        body: &str,
        lang: &Lang,
    ) -> Result<String, HookError> {
        match kind {
            BlockKind::Machines => self.injector.machines(args.trim(), body, lang, self.claims),
            _ => self.injector.block(kind, args, body, lang),
        }
    }

    fn names_experiment(&self, name: &str) -> bool {
        self.injector.names_experiment(name)
    }
}

impl PageHooks<'_, '_> {
    /// The measurement whose machine the page's `reference` names: the page's experiments
    /// must all have been measured on one machine.
    fn measuring(&self, reference: &str) -> Result<&Measurement, HookError> {
        let by_name = &self.injector.measurements.by_name;
        let used: Vec<&Measurement> = self
            .experiments
            .iter()
            .filter_map(|n| by_name.get(n))
            .collect();
        let Some(first) = used.first() else {
            return Err(HookError::new(format!(
                "`{reference}` is the machine that measured this page's experiments, and the page uses none"
            ))
            .hint("use a value of an experiment on this page, or write the machine out of the article"));
        };
        let machines: BTreeSet<String> = used.iter().map(|m| identity(m)).collect();
        if machines.len() > 1 {
            let each: Vec<String> = used
                .iter()
                .map(|m| format!("{} on {}", m.record.provenance.experiment, identity(m)))
                .collect();
            return Err(HookError::new(format!(
                "`{reference}`: this page's experiments were measured on different machines ({})",
                each.join("; ")
            ))
            .hint("measure them again on one machine: `measured build --rerun`"));
        }
        Ok(first)
    }
}

/// What tells machines apart.
fn identity(m: &Measurement) -> String {
    let p = &m.record.provenance;
    let memory = p
        .memory
        .map_or_else(|| "memory unknown".to_string(), |b| format!("{b} B"));
    format!(
        "{}, {} cores, {memory}, {}, {}",
        p.cpu, p.cores, p.kernel, p.rustc
    )
}

/// The value `field` of the machine that measured `m`.
fn value(m: &Measurement, field: &str, reference: &str) -> Result<Value, HookError> {
    let p = &m.record.provenance;
    Ok(match field {
        "cores" => json!(p.cores),
        "cpu" => json!(p.cpu),
        "kernel" => json!(p.kernel),
        "rustc" => json!(p.rustc),
        "memory" => match p.memory {
            Some(bytes) => json!(bytes),
            None => {
                return Err(HookError::new(format!(
                    "`{reference}`: the results of `{}` were stored without the machine's memory",
                    p.experiment
                ))
                .hint("measure it again: `measured build --rerun`"));
            }
        },
        other => {
            let hint = measured_core::diag::closest(other, FIELDS).map_or_else(
                || format!("the machine's values are: {}", FIELDS.join(", ")),
                |c| format!("did you mean `machine.{c}`?"),
            );
            return Err(HookError::new(format!("the machine has no `{other}`")).hint(hint));
        }
    })
}
