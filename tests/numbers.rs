//! One page, one set of numbers (issue 34): a derived value is the quotient of the parts the
//! page shows beside it, with the interval of the runs' paired values; a median lies between
//! its quartiles; the output block shows the combined figures in the page's language; claims
//! over the experiment's inputs, or across kinds, are refused where they are written.

mod common;

use common::fixtures::site_with;
use common::{TestSite, html, texts, tooltips};

/// Four runs whose timings `a` and `b` move between runs (medians in µs: a 100, 130, 115,
/// 120; b 50, 52, 60, 55; each run's quartiles its median ∓ 3 µs), with `r` declared as the
/// ratio a / b (each run's own), the input `n`, and an output table of the three.
const RUNS: &str = r##"//! A fixture experiment whose runs differ.
fn main() {
    let k: usize = std::fs::read_to_string(".count").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    std::fs::write(".count", (k + 1).to_string()).unwrap();
    let a = [100.0, 130.0, 115.0, 120.0][k % 4] * 1000.0;
    let b = [50.0, 52.0, 60.0, 55.0][k % 4] * 1000.0;
    let t = |m: f64| format!(r#"{{"type": "timing", "median": {m:?}, "ci_low": {:?}, "ci_high": {:?}, "q1": {:?}, "q3": {:?}, "n": 20}}"#, m * 0.99, m * 1.01, m - 3000.0, m + 3000.0);
    let r = format!(r#"{{"type": "ratio", "value": {:?}, "low": 0.0, "high": 0.0, "derived": {{"op": "ratio", "of": ["a", "b"]}}}}"#, a / b);
    let table = r#"[{"columns": [{"vi": "đại lượng", "en": "quantity"}, {"vi": "giá trị", "en": "value"}],
        "rows": [[{"text": {"vi": "thời gian a", "en": "time a"}}, {"value": "a"}],
                 [{"text": {"vi": "tỉ số", "en": "ratio"}}, {"value": "r"}],
                 [{"text": {"vi": "số lần", "en": "count"}}, {"value": "big", "filter": "int"}]]}]"#;
    let json = format!(r#"{{"a": {}, "b": {}, "r": {r}, "n": 7, "big": 1234567, "_inputs": ["n"], "_output": {table}}}"#, t(a), t(b));
    println!("run {k}: a = {a} ns");
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), json).unwrap();
}
"##;

fn site(vi_body: &str, en_body: &str, claims: &str) -> TestSite {
    let site = site_with(&[("x", RUNS.to_string())]);
    site.write(
        "site.toml",
        &format!(
            "{}\n[experiments]\nruns = 4\ntimeout_secs = 20\n[claims]\nextra_runs = 0\n",
            common::SITE_TOML
        ),
    );
    let claims = if claims.is_empty() {
        String::new()
    } else {
        format!("\nclaims:\n  {claims}")
    };
    site.article(
        "a",
        "vi",
        &format!("title: A\ndate: 2026-01-01{claims}"),
        vi_body,
    );
    site.article("a", "en", "title: A\ndate: 2026-01-01", en_body);
    site
}

fn shown(text: &str) -> f64 {
    let number: String = text
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no number in {text:?}"))
}

#[test]
fn a_ratio_is_the_quotient_of_its_shown_parts_with_the_interval_of_its_paired_runs() {
    let body = "{{ x.a }} / {{ x.b }} = {{ x.r }}\n";
    let site = site(body, body, "");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let en = html(&b, "en/a/index.html");
    let values = texts(&en, "data");
    // a: median of 100, 130, 115, 120 = 117.5 µs; b: median of 50, 52, 60, 55 = 53.5 µs.
    assert_eq!(values, ["118 µs", "53.5 µs", "2.2×"]);
    // 117.5 / 53.5 = 2.196: the quotient of the shown parts (118 / 53.5 = 2.206) to the shown
    // precision, not the median of the runs' own ratios (2, 2.5, 1.917, 2.182: 2.09).
    let quotient = shown(&values[0]) / shown(&values[1]);
    assert!(
        (quotient - shown(&values[2])).abs() <= 0.05 + 0.01,
        "{quotient}"
    );
    // The interval is the runs' own ratios' geometric t-interval: logarithms of 2, 2.5,
    // 1.9167, 2.1818, t(3) = 3.1824 → [1.774, 2.577].
    let tips = tooltips(&en, "data");
    assert!(
        tips[2].starts_with("ratio 2.2×, 95% interval 1.77×–2.58× (runs: 4)"),
        "{}",
        tips[2]
    );
    let results: serde_json::Value =
        serde_json::from_slice(b.output.get("a/results.json").unwrap()).unwrap();
    let r = &results["experiments"]["x"]["results"]["r"];
    assert_eq!(r["value"].as_f64().unwrap(), 117.5 / 53.5);
    assert_eq!(r["run_values"].as_array().unwrap().len(), 4);
    assert_eq!(
        results["experiments"]["x"]["runs"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn a_combined_median_lies_between_its_quartiles() {
    let body = "{{ x.a }} {{ x.a.q1 | duration }} {{ x.a.q3 | duration }}\n";
    let site = site(body, body, "");
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let en = html(&b, "en/a/index.html");
    let v: Vec<f64> = texts(&en, "data").iter().map(|t| shown(t)).collect();
    // The median run's own quartiles (110 ∓ 3) would not hold 117.5; the runs' quartiles
    // pooled (medians of 97, 127, 112, 117 and of 103, 133, 118, 123) are 114.5 and 120.5,
    // shown to three digits.
    assert_eq!(v, [118.0, 114.0, 120.0]);
    assert!(v[1] <= v[0] && v[0] <= v[2]);
    let tip = &tooltips(&en, "data")[0];
    assert!(
        tip.contains("quartiles 114\u{a0}µs–120\u{a0}µs; n = 80"),
        "{tip}"
    );
}

#[test]
fn the_output_block_shows_the_combined_figures_in_the_pages_language() {
    let site = site(
        "{{ x.a }} {{ x.r }}\n\n```experiment x\n```\n",
        "{{ x.a }} {{ x.r }}\n\n```experiment x\n```\n",
        "",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    for (path, head, cells) in [
        (
            "a/index.html",
            ["đại lượng", "giá trị"],
            [
                "thời gian a",
                "118 µs",
                "tỉ số",
                "2,2×",
                "số lần",
                "1.234.567",
            ],
        ),
        (
            "en/a/index.html",
            ["quantity", "value"],
            ["time a", "118 µs", "ratio", "2.2×", "count", "1,234,567"],
        ),
    ] {
        let page = html(&b, path);
        assert_eq!(texts(&page, "figure.experiment th"), head);
        let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        assert_eq!(texts(&page, "figure.experiment td"), cells);
        // The same key shows the same figure in the prose and in the block.
        let inline = texts(&page, "data");
        assert_eq!(inline, [cells[1].clone(), cells[3].clone()]);
        // No run's raw stdout stands in for the combination.
        assert!(texts(&page, "figure.experiment pre").is_empty());
    }
}

#[test]
fn an_experiment_that_declares_no_table_shows_one_run_collapsed_and_labelled() {
    let site = site_with(&[(
        "plain",
        common::fixtures::experiment_source("total", r#"{"v": 1}"#),
    )]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "```experiment plain\n```\n",
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "```experiment plain\n```\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let en = html(&b, "en/a/index.html");
    assert_eq!(
        texts(&en, "details.raw-output summary"),
        ["Raw output of run 3 of 3, as the experiment printed it"]
    );
    let vi = html(&b, "a/index.html");
    assert_eq!(
        texts(&vi, "details.raw-output summary"),
        ["Đầu ra thô của lần chạy 3/3, đúng như thí nghiệm in ra"]
    );
}

/// The errors of a build, paths relative to the site.
fn errors(site: &TestSite) -> String {
    site.build_err()
        .replace(&format!("{}/", site.root().display()), "")
}

#[test]
fn a_claim_over_the_experiments_inputs_only_is_an_error_at_its_line() {
    let site = site(
        "{{ x.a }} {{ claim.same }}\n",
        "{{ x.a }} {{ claim.same }}\n",
        "same: x.n > 5",
    );
    let e = errors(&site);
    assert!(
        e.starts_with("content/a/index.vi.md:5:9: error: claim `same`: compares the experiment's inputs, not a measurement: `x.n` is set by the experiment"),
        "{e}"
    );
    assert!(
        e.contains("help: claim what the experiment measures"),
        "{e}"
    );
    // A measurement compared with an input is a claim.
    let site = self::site(
        "{{ x.a }} {{ claim.more }}\n",
        "{{ x.a }} {{ claim.more }}\n",
        "more: x.big > x.n",
    );
    site.build().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_claim_comparing_a_duration_with_a_ratio_is_an_error_at_its_line() {
    let site = site(
        "{{ x.a }} {{ claim.odd }}\n",
        "{{ x.a }} {{ claim.odd }}\n",
        "odd: x.a > x.r",
    );
    let e = errors(&site);
    assert!(
        e.starts_with("content/a/index.vi.md:5:14: error: claim `odd`: compares a duration (`x.a`) with a ratio (`x.r`): values of different kinds or units"),
        "{e}"
    );
}

#[test]
fn a_log_log_chart_labels_both_axes_as_logarithmic() {
    let chart = "```experiment x\nchart: line\ndata: rows\nx: n | Rows\ny: t | Time | duration\nscale: log-log\n```\n";
    let rows = r#"{"rows": [{"n": 10, "t": 100}, {"n": 100, "t": 1000}, {"n": 1000, "t": 10000}]}"#;
    let site = site_with(&[("x", common::fixtures::experiment_source("rows", rows))]);
    site.article("a", "vi", "title: A\ndate: 2026-01-01", chart);
    site.article("a", "en", "title: A\ndate: 2026-01-01", chart);
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let labels = texts(&html(&b, "en/a/index.html"), "svg g text");
    assert!(
        labels.contains(&"Rows (log scale)".to_string()),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"Time (log scale)".to_string()),
        "{labels:?}"
    );
    let vi = texts(&html(&b, "a/index.html"), "svg g text");
    assert!(vi.contains(&"Rows (thang logarit)".to_string()), "{vi:?}");
    let e = {
        site.article(
            "a",
            "en",
            "title: A\ndate: 2026-01-01",
            &chart.replace("log-log", "loglog"),
        );
        errors(&site)
    };
    assert!(e.contains("`scale: loglog` is not a scale"), "{e}");
}
