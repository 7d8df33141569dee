//! The claims stage's loop on scripted runs: deciding, measuring again while inconclusive and
//! the budget lasts, and the errors of claims that fail or stay inconclusive.

use std::collections::VecDeque;

use serde_json::json;

use super::*;
use crate::experiments::{Measurement, Origin, Provenance, Record, Run};

fn provenance(load: f64) -> Provenance {
    serde_json::from_value(json!({
        "experiment": "x", "source_hash": "", "lock_hash": "", "rustc": "", "cpu": "", "cores": 2,
        "kernel": "", "measured_at": "", "load_before": [load, 0.0, 0.0], "load_after": [load, 0.0, 0.0],
        "duration_secs": 0.5, "quick": true, "command": ""
    }))
    .unwrap()
}

/// A run of experiment `x` whose timing `t` has median `median` (own interval ± 0.05) and whose
/// count `n` is 200.
fn run(median: f64, load: f64) -> Run {
    Run {
        results: json!({"t": {"type": "timing", "median": median, "ci_low": median - 0.05, "ci_high": median + 0.05}, "n": 200}),
        output: String::new(),
        provenance: provenance(load),
    }
}

fn measurements(runs: Vec<Run>) -> Measurements {
    let mut m = Measurements::default();
    m.by_name.insert(
        "x".into(),
        Measurement {
            record: Record::of_runs("x", "key", runs),
            origin: Origin::Fresh,
        },
    );
    m
}

/// Runs again from a script of timing medians, at load 3.
struct Script {
    next: VecDeque<f64>,
    asked: Vec<String>,
}

impl Remeasure for Script {
    fn run_again(
        &mut self,
        m: &mut Measurements,
        name: &str,
        _: (usize, usize),
    ) -> Result<(), Diagnostics> {
        self.asked.push(name.to_string());
        let median = self.next.pop_front().expect("the script has a run left");
        let found = m.by_name.get_mut(name).expect("measured");
        found.record = found.record.clone().with_run(run(median, 3.0));
        Ok(())
    }

    /// Two new runs of each experiment from the script, replacing the old ones.
    fn restart(&mut self, m: &mut Measurements, names: &[String]) -> Result<usize, Diagnostics> {
        for name in names {
            self.asked.push(format!("restart {name}"));
            let runs = (0..2)
                .map(|_| run(self.next.pop_front().expect("a run left"), 0.5))
                .collect();
            m.by_name.insert(
                name.clone(),
                Measurement {
                    record: Record::of_runs(name, "key", runs),
                    origin: Origin::Fresh,
                },
            );
        }
        Ok(2 * names.len())
    }
}

fn article(claims: &[(&str, &str)]) -> ArticleClaims {
    ArticleClaims {
        dir: "a".into(),
        path: "content/a/index.vi.md".into(),
        claims: claims
            .iter()
            .enumerate()
            .map(|(i, (id, text))| Claim {
                entry: Entry {
                    id: id.to_string(),
                    text: text.to_string(),
                    line: 5 + i,
                    col: 5 + id.len(),
                    source_line: format!("  {id}: {text}"),
                },
                expr: parse(text).unwrap(),
            })
            .collect(),
    }
}

fn settle_with(
    claims: &[(&str, &str)],
    runs: Vec<Run>,
    script: &[f64],
    extra_runs: usize,
) -> (Result<Settled, Diagnostics>, Vec<String>) {
    let mut runner = Script {
        next: script.iter().copied().collect(),
        asked: Vec::new(),
    };
    let more = More {
        budget: Budget {
            runs: 2,
            extra_runs,
            extra_time: Duration::from_secs(60),
        },
        runner: &mut runner,
        progress: &crate::experiments::Silent,
    };
    let settled = settle_articles(vec![article(claims)], measurements(runs), more);
    (settled, runner.asked)
}

#[test]
fn claims_that_hold_need_no_more_runs() {
    let (s, asked) = settle_with(
        &[("small", "x.t < 100"), ("count", "x.n == 200")],
        vec![run(10.0, 0.1), run(12.0, 0.1)],
        &[],
        6,
    );
    let s = s.unwrap();
    assert!(asked.is_empty());
    let outcomes: Vec<Outcome> = s.articles[0].1.iter().map(|d| d.outcome).collect();
    assert_eq!(outcomes, [Outcome::Holds, Outcome::Holds]);
    assert_eq!(s.extra_runs, 0);
}

#[test]
fn an_inconclusive_claim_is_decided_by_more_runs() {
    // Two runs, 10 and 12: the mean 11 ± 12.7 (t with 1 degree of freedom) reaches past 15.
    // A third run at 11: 11 ± 2.48, wholly below 15.
    let (s, asked) = settle_with(
        &[("small", "x.t < 15")],
        vec![run(10.0, 0.1), run(12.0, 0.1)],
        &[11.0],
        6,
    );
    let s = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(asked, ["x"]);
    assert_eq!(s.extra_runs, 1);
    assert_eq!(s.articles[0].1[0].outcome, Outcome::Holds);
    assert_eq!(s.measurements.by_name["x"].record.runs.len(), 3);
}

#[test]
fn a_claim_still_inconclusive_after_the_budget_fails_the_build_with_its_values() {
    // Runs 10, 12, 20, 5: median 11; the geometric t-interval (t(3) = 3.1824) is
    // [4.204, 26.06].
    let (s, asked) = settle_with(
        &[("small", "x.t < 15")],
        vec![run(10.0, 0.1), run(12.0, 0.1)],
        &[20.0, 5.0],
        2,
    );
    assert_eq!(asked, ["x", "x"], "one more run per round, two rounds");
    let e = s.unwrap_err().to_string();
    assert_eq!(
        e,
        "content/a/index.vi.md:5:10: error: claim `small` is inconclusive after 4 runs: x.t < 15
  x.t = 11 ns [4.204 ns, 26.06 ns] over 4 runs
 5 |   small: x.t < 15
   |          ^
  = help: each experiment had its 2 runs and 2 extra. Measure more: raise `[claims] extra_runs` or `extra_secs` in site.toml, or run `measured build --rerun x` on a quiet machine; or soften the sentence and its claim"
    );
}

#[test]
fn a_value_that_moved_is_told_apart_from_noise() {
    // Runs at 10 (load 0.1), then more at 20 (load 3): the intervals do not overlap.
    let (s, _) = settle_with(
        &[("fast", "x.t < 10.2")],
        vec![run(10.0, 0.1), run(10.1, 0.1)],
        &[20.0, 20.1, 19.9],
        3,
    );
    let e = s.unwrap_err().to_string();
    assert!(
        e.contains("  re-measuring moved it rather than widening it: 10.05 ns [9.434 ns, 10.71 ns] over 2 runs in runs 1–2 (load 0.1 → 0.1), 20 ns [19.75 ns, 20.25 ns] over 3 runs in runs 3–5 (load 3 → 3); a value that shifts with the machine's state is not noise"),
        "{e}"
    );
}

#[test]
fn a_claim_that_fails_is_not_measured_again_and_says_what_the_data_supports() {
    let (s, asked) = settle_with(
        &[("slow", "x.t > 20"), ("same", "x.t ~= 11 ± 1%")],
        vec![run(10.0, 0.1), run(10.2, 0.1), run(10.1, 0.1)],
        &[],
        6,
    );
    assert!(asked.is_empty());
    let e = s.unwrap_err().to_string();
    // Runs 10, 10.2, 10.1: the geometric t-interval is [9.854, 10.35].
    assert!(
        e.contains(
            "error: claim `slow` fails: x.t > 20\n  x.t = 10.1 ns [9.854 ns, 10.35 ns] over 3 runs"
        ),
        "{e}"
    );
    assert!(
        e.contains("= help: the measurements contradict the sentence: rewrite it and its claim to say what was measured\n"),
        "no equivalence is suggested for a bound: {e}"
    );
    assert!(
        e.contains("error: claim `same` fails: x.t ~= 11 ± 1%"),
        "{e}"
    );
    // 9.8543 / 11 and 10.3512 / 11.
    assert!(
        e.contains("  LHS / RHS is within [0.8958, 0.941], the band is [0.99, 1.01]"),
        "{e}"
    );
    assert!(
        e.contains("e.g. `x.t ~= 11 ± 15%`, the tolerance the data supports"),
        "{e}"
    );
}

#[test]
fn exact_equality_on_a_measured_value_is_refused_before_measuring() {
    let (s, asked) = settle_with(
        &[("eq", "x.t == 10")],
        vec![run(10.0, 0.1), run(10.0, 0.1)],
        &[],
        6,
    );
    assert!(asked.is_empty());
    let e = s.unwrap_err().to_string();
    assert!(
        e.starts_with("content/a/index.vi.md:5:7: error: claim `eq`: `==` compares exact values, and `x.t` is measured: 10 ns [9.95 ns, 10.05 ns] over 2 runs"),
        "{e}"
    );
}

#[test]
fn frozen_results_are_never_measured_again() {
    let mut m = measurements(vec![run(10.0, 0.1), run(12.0, 0.1)]);
    m.by_name.get_mut("x").unwrap().origin = Origin::Frozen;
    let mut runner = Script {
        next: VecDeque::new(),
        asked: Vec::new(),
    };
    let more = More {
        budget: Budget {
            runs: 3,
            extra_runs: 0,
            extra_time: Duration::ZERO,
        },
        runner: &mut runner,
        progress: &crate::experiments::Silent,
    };
    let e = settle_articles(vec![article(&[("small", "x.t < 15")])], m, more)
        .unwrap_err()
        .to_string();
    assert!(runner.asked.is_empty());
    assert!(
        e.contains("= help: frozen results are never measured again. Measure more:"),
        "{e}"
    );
}

fn settle_cached(
    claims: &[(&str, &str)],
    runs: Vec<Run>,
    script: &[f64],
) -> (Result<(Settled, Diagnostics), Diagnostics>, Vec<String>) {
    let mut m = measurements(runs);
    m.by_name.get_mut("x").unwrap().origin = Origin::Cached;
    let mut runner = Script {
        next: script.iter().copied().collect(),
        asked: Vec::new(),
    };
    let more = More {
        budget: Budget {
            runs: 2,
            extra_runs: 2,
            extra_time: Duration::from_secs(60),
        },
        runner: &mut runner,
        progress: &crate::experiments::Silent,
    };
    let settled = settle_keeping_failures(vec![article(claims)], m, more);
    (settled, runner.asked)
}

#[test]
fn cached_runs_that_leave_a_claim_undecided_are_measured_again_from_scratch() {
    // An earlier build's four runs (its extra runs spent) leave `x.t < 15` inconclusive: a
    // later build does not repeat them but measures again, and the new runs decide it.
    let (s, asked) = settle_cached(
        &[("small", "x.t < 15")],
        vec![
            run(10.0, 6.0),
            run(20.0, 6.0),
            run(11.0, 6.0),
            run(19.0, 6.0),
        ],
        &[11.0, 11.2],
    );
    let (s, failures) = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(asked, ["restart x"]);
    assert!(failures.0.is_empty(), "{failures}");
    assert_eq!(s.articles[0].1[0].outcome, Outcome::Holds);
    assert_eq!(s.extra_runs, 2);
    let runs = &s.measurements.by_name["x"].record.runs;
    assert_eq!(runs.len(), 2, "the earlier runs are dropped");
}

#[test]
fn a_claim_failing_on_cached_runs_is_measured_again_and_then_extra_runs_follow() {
    // Cached: failing (20, 21 > 15). Measured again: 14, 16, inconclusive; one extra run at 14.5
    // is allowed by the budget (2 + 2 runs) and the build does not restart twice.
    let (s, asked) = settle_cached(
        &[("small", "x.t < 15")],
        vec![run(20.0, 6.0), run(21.0, 6.0)],
        &[14.0, 16.0, 14.5, 14.6],
    );
    let (s, failures) = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(asked, ["restart x", "x", "x"]);
    assert_eq!(s.measurements.by_name["x"].record.runs.len(), 4);
    // Still undecided: it is the caller's to publish with its verdict or fail under --strict.
    assert_eq!(s.articles[0].1[0].outcome, Outcome::Inconclusive);
    assert_eq!(failures.0.len(), 1);
}

#[test]
fn runs_made_by_this_build_are_not_measured_again_from_scratch() {
    let (s, asked) = settle_with(
        &[("small", "x.t < 15")],
        vec![run(10.0, 0.1), run(20.0, 0.1)],
        &[11.0],
        1,
    );
    assert_eq!(asked, ["x"], "one extra run, no restart");
    assert!(s.is_err());
}

#[test]
fn holding_claims_on_cached_runs_are_not_measured_again() {
    let (s, asked) = settle_cached(
        &[("small", "x.t < 100")],
        vec![run(10.0, 0.1), run(12.0, 0.1)],
        &[],
    );
    assert!(s.is_ok());
    assert!(asked.is_empty());
}
