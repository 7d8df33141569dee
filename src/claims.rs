//! Claims: front-matter comparisons (`tcp-handshake.speedup > 2`) checked against the current
//! results, so a re-measurement that breaks an article's sentence fails the build.

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::experiments::Measurements;
use crate::site::Site;
use crate::values;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            _ => return None,
        })
    }

    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }
}

/// The experiment names a claim refers to (for deciding what to run).
pub fn experiments_of(claim: &str) -> Vec<String> {
    let tokens: Vec<&str> = claim.split_whitespace().collect();
    [tokens.first(), tokens.get(2)]
        .into_iter()
        .flatten()
        .filter(|t| t.parse::<f64>().is_err() && Op::parse(t).is_none())
        .filter_map(|t| t.split('.').next().map(str::to_string))
        .collect()
}

/// Checks one claim; `Err` says why it is malformed or does not hold.
pub fn check(claim: &str, m: &Measurements) -> Result<(), (String, Option<String>)> {
    let tokens: Vec<&str> = claim.split_whitespace().collect();
    let [lhs, op, rhs] = tokens[..] else {
        return Err((
            format!("claim `{claim}` is not `<path> <op> <number|path>`"),
            Some("separate the parts with spaces, e.g. `tls-price.full.median > tls-price.tcp.median`".into()),
        ));
    };
    let op = Op::parse(op).ok_or_else(|| {
        (
            format!("claim `{claim}`: unknown comparison `{op}`"),
            Some("use < <= > >= == !=".into()),
        )
    })?;
    let side = |s: &str| -> Result<f64, (String, Option<String>)> {
        if let Ok(n) = s.parse::<f64>() {
            return Ok(n);
        }
        let (_, v) = values::resolve(m, s)
            .map_err(|e| (format!("claim `{claim}`: {}", e.message), e.hint))?;
        values::number(v).map(|n| n.value).ok_or_else(|| {
            (
                format!(
                    "claim `{claim}`: `{s}` is a {}, not a number",
                    values::type_name(v)
                ),
                None,
            )
        })
    };
    let (a, b) = (side(lhs)?, side(rhs)?);
    if op.holds(a, b) {
        Ok(())
    } else {
        let measured = if rhs.parse::<f64>().is_ok() {
            format!("{lhs} = {a}")
        } else {
            format!("{lhs} = {a}, {rhs} = {b}")
        };
        Err((
            format!("claim `{claim}` does not hold: measured {measured}"),
            Some("the measurement no longer supports the sentence: rewrite the prose and its claim to say what was measured".into()),
        ))
    }
}

/// Checks every claim of every page.
pub fn check_site(site: &Site, m: &Measurements) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for p in &site.pages {
        for (claim, line) in &p.doc.front.claims {
            if let Err((message, hint)) = check(claim, m) {
                let mut d = Diagnostic::new(Place::at(&p.doc.path, *line, 1), message)
                    .with_snippet(format!("  - {claim}"));
                d.hint = hint;
                diags.push(d);
            }
        }
    }
    diags.into_result(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::{Measurement, Origin, Provenance, Record};

    fn measurements() -> Measurements {
        let results = serde_json::json!({"tcp": {"type": "timing", "median": 20.0}, "tls": {"type": "timing", "median": 400.0}, "speedup": 1.7});
        let provenance: Provenance = serde_json::from_value(serde_json::json!({
            "experiment": "x", "source_hash": "", "lock_hash": "", "rustc": "", "cpu": "", "cores": 2, "kernel": "",
            "measured_at": "", "load_before": [0.0, 0.0, 0.0], "load_after": [0.0, 0.0, 0.0], "duration_secs": 0.0, "quick": false, "command": ""
        }))
        .unwrap();
        let record = Record {
            experiment: "x".into(),
            key: String::new(),
            results,
            output: String::new(),
            provenance,
            runs: Vec::new(),
        };
        let mut m = Measurements::default();
        m.by_name.insert(
            "x".into(),
            Measurement {
                record,
                origin: Origin::Fresh,
            },
        );
        m
    }

    #[test]
    fn claims_hold_or_fail_with_the_values() {
        let m = measurements();
        assert!(check("x.tls > x.tcp", &m).is_ok());
        assert!(check("x.speedup >= 1.5", &m).is_ok());
        let (msg, _) = check("x.speedup > 2", &m).unwrap_err();
        assert_eq!(
            msg,
            "claim `x.speedup > 2` does not hold: measured x.speedup = 1.7"
        );
        let (msg, _) = check("x.tcp > x.tls", &m).unwrap_err();
        assert_eq!(
            msg,
            "claim `x.tcp > x.tls` does not hold: measured x.tcp = 20, x.tls = 400"
        );
    }

    #[test]
    fn malformed_claims_are_explained() {
        let m = measurements();
        assert!(
            check("x.speedup>2", &m)
                .unwrap_err()
                .0
                .contains("is not `<path> <op> <number|path>`")
        );
        assert!(
            check("x.speedup => 2", &m)
                .unwrap_err()
                .0
                .contains("unknown comparison `=>`")
        );
        let (msg, hint) = check("x.speedpu > 2", &m).unwrap_err();
        assert!(msg.contains("no `speedpu`"), "{msg}");
        assert_eq!(
            hint.as_deref(),
            Some("did you mean `speedup`? (paths are relative to `x`'s results)")
        );
        assert_eq!(experiments_of("a.b > c.d"), ["a", "c"]);
        assert_eq!(experiments_of("a.b > 2"), ["a"]);
    }
}
