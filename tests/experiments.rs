//! Integration tests of the experiment stage with fixture experiments that have no
//! dependencies (they compile in about a second): injection, blocks, excerpts, claims, the
//! cache, --rerun and --frozen, and every kind of failure.

mod common;

use std::collections::BTreeSet;

use common::fixtures::{experiment_source, runs, site_with};
use common::{TestSite, attrs, html, texts, tooltips};
use measured::experiments::{ExperimentOptions, Rerun};

const NUMS: &str = r#"{"big": 1234567, "frac": 6.9712, "quick": QUICK, "engine": "PostgreSQL 15", "t": {"type": "timing", "unit": "ns", "n": 51, "median": 391234.0, "ci_low": 380000.0, "ci_high": 400000.0, "mad": 1500.0, "q1": 385000.0, "q3": 395000.0, "min": 370000.0, "max": 450000.0, "p99": 440000.0, "mean": 392000.0, "outliers": 1, "batch": 1}, "speedup": {"type": "ratio", "value": 9.73, "low": 9.1, "high": 10.2}, "rows": [{"name": "JSON", "bytes": 440, "t": {"type": "timing", "median": 2743.0, "ci_low": 2700.0, "ci_high": 2800.0}}, {"name": "Protobuf", "bytes": 188, "t": {"type": "timing", "median": 283.0, "ci_low": 280.0, "ci_high": 290.0}}], "plan": "WindowAgg\n  -> Index Scan <a>"}"#;

fn build_with(
    site: &TestSite,
    experiments: ExperimentOptions,
) -> Result<measured::Built, measured::Diagnostics> {
    measured::build_in_memory(&measured::BuildOptions {
        experiments,
        ..site.options()
    })
}

fn nums_site() -> TestSite {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  faster: nums.speedup > 2\n  spread: nums.t.median < nums.t.max",
        "Lớn {{ nums.big }}, lẻ {{ nums.frac }}, cố định {{ nums.frac | fixed(1) }}, thời gian {{ nums.t }}, gấp {{ nums.speedup }}, máy {{ nums.engine }}, byte {{ nums.rows.0.bytes | bytes }}. {{ claim.faster }}{{ claim.spread }}\n\nMáy {{ nums.engine | code }}, số {{ nums.big | code }}, Helm `{{ .Values.tag }}` giữ nguyên.\n\n{{ nums.plan | code }}\n\n```yaml\nimage: \"{{ helm.tag }}\"\n```\n",
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "Big {{ nums.big }}, fraction {{ nums.frac }}, fixed {{ nums.frac | fixed(1) }}, time {{ nums.t }}, speedup {{ nums.speedup }}, bytes {{ nums.rows.0.bytes | bytes }}. {{ claim.faster }}{{ claim.spread }}\n",
    );
    site
}

#[test]
fn values_are_injected_and_formatted_per_language() {
    let site = nums_site();
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let vi = html(&b, "a/index.html");
    assert_eq!(
        texts(&vi, "data"),
        ["1.234.567", "6,97", "7,0", "391 µs", "9,73×", "440 B"]
    );
    assert_eq!(
        attrs(&vi, "data", "value")[..3],
        ["1234567", "6.9712", "6.9712"]
    );
    assert_eq!(texts(&vi, "span.measured"), ["PostgreSQL 15"]);
    let en = html(&b, "en/a/index.html");
    assert_eq!(
        texts(&en, "data"),
        ["1,234,567", "6.97", "7.0", "391 µs", "9.73×", "440 B"]
    );
    let titles = tooltips(&en, "data");
    assert!(
        titles[3].contains("median 391\u{a0}µs, 95% interval 380\u{a0}µs–400\u{a0}µs (runs: 3)")
            && titles[3].contains("n = 153"),
        "{}",
        titles[3]
    );
    assert!(
        titles[0].contains("by the nums experiment"),
        "{}",
        titles[0]
    );
    assert!(!titles[0].contains("quick mode"), "{}", titles[0]);
}

#[test]
fn the_code_filter_shows_values_as_code_and_other_braces_in_code_stay_literal() {
    let site = nums_site();
    let b = site.build().unwrap();
    let vi = html(&b, "a/index.html");
    assert_eq!(
        texts(&vi, "p code.measured"),
        ["PostgreSQL 15", "1.234.567", "WindowAgg -> Index Scan <a>"]
    );
    let page = b.output.text("a/index.html").unwrap();
    assert!(
        page.contains(">WindowAgg\n  -&gt; Index Scan &lt;a&gt;</code>"),
        "a plan keeps its lines, escaped"
    );
    assert_eq!(texts(&vi, "code.lines"), ["WindowAgg -> Index Scan <a>"]);
    assert!(
        attrs(&vi, "code.measured", "title")[0].contains("nums"),
        "the tooltip says where the value was measured"
    );
    assert_eq!(texts(&vi, "p code:not(.measured)"), ["{{ .Values.tag }}"]);
    assert!(
        texts(&vi, "pre.code")
            .iter()
            .any(|t| t.contains("image: \"{{ helm.tag }}\""))
    );
}

#[test]
fn an_experiment_named_in_code_is_an_error_with_a_hint() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "Vùng `{{ .Values.x }}` và `{{ nums.engine }}`.\n\n```text\n{{ helm.x }}\nplan: {{ nums.plan | fixed(2) }}\n```\n",
    );
    let e = site.build_err();
    for expected in [
        "index.vi.md:5:28: error: `{{ nums.engine }}` is inside a code span, so the page would show it as written, not the value it names",
        "help: write {{ nums.engine | code }} outside the backticks to show the value as code, or {{ nums.engine }} to show it as prose",
        "index.vi.md:9:7: error: `{{ nums.plan | fixed(2) }}` is inside a code block",
        "help: write {{ nums.plan | code }} outside the code block to show the value as code",
    ] {
        assert!(e.contains(expected), "missing `{expected}` in:\n{e}");
    }
    assert_eq!(
        e.matches(": error: ").count(),
        2,
        "Helm's braces and an unknown name stay literal: {e}"
    );
}

#[test]
fn experiment_blocks_show_output_tables_and_charts_with_provenance() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "```experiment nums\n```\n\n```experiment nums\ntable: rows\ncaption: Kích thước\ncolumn: name | Định dạng\ncolumn: bytes | Kích thước | bytes\ncolumn: t | Giải mã\n```\n\n```experiment nums\nchart: bar\ndata: rows\nx: name | Định dạng\ny: bytes | Byte | bytes\ncaption: Biểu đồ kích thước\n```\n\n```experiment nums\nchart: bar\ndata: rows\nx: name | Định dạng\ny: t | Giải mã\nlog_y: true\n```\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let doc = html(&b, "a/index.html");
    assert_eq!(texts(&doc, "figure.experiment pre.output"), ["total 55"]);
    assert_eq!(
        texts(&doc, "figure.experiment figcaption .caption")[..2],
        [
            "Kết quả in ra của thí nghiệm nums".to_string(),
            "Kích thước".to_string()
        ]
    );
    let first_table: Vec<String> = texts(&doc, "figure.experiment:nth-of-type(2) tbody td");
    assert_eq!(
        first_table,
        ["JSON", "440 B", "2,74 µs", "Protobuf", "188 B", "283 ns"]
    );
    assert_eq!(
        texts(&doc, "figure.experiment:nth-of-type(2) table.nums .txt"),
        ["Định dạng", "JSON", "Protobuf"],
        "numbers are right-aligned by the table, text cells and headers are marked"
    );
    assert_eq!(
        attrs(&doc, ".chart svg", "role"),
        ["group", "group"],
        "a chart is a group of focusable points, each an image"
    );
    assert_eq!(attrs(&doc, ".chart .pt", "tabindex"), ["0"; 4]);
    assert_eq!(
        texts(&doc, "figure.experiment:nth-of-type(4) .chart-data th"),
        [
            "Định dạng",
            "Giải mã",
            "Giải mã: cận dưới",
            "Giải mã: cận trên"
        ],
        "a timing series brings its interval's bounds into the table"
    );
    assert_eq!(
        texts(&doc, "figure.experiment:nth-of-type(4) .chart .ci").len(),
        2,
        "a whisker a bar"
    );
    let named = texts(&doc, "figure.experiment:nth-of-type(4) .chart .pt .tip");
    assert!(
        named[0].starts_with("JSON · Giải mã: 2,74 µs (khoảng tin cậy 95% "),
        "{named:?}"
    );
    assert_eq!(
        texts(&doc, ".chart svg title").first().map(String::as_str),
        Some("Biểu đồ kích thước")
    );
    assert_eq!(
        texts(&doc, "figure.experiment:nth-of-type(3) .chart-data td"),
        ["JSON", "440 B", "Protobuf", "188 B"],
        "the chart's numbers as a table"
    );
    assert_eq!(
        attrs(&doc, "details.provenance a", "href"),
        ["/experiments/nums/"; 4]
    );
    let source_page = html(&b, "experiments/nums/index.html");
    assert!(texts(&source_page, "h2").contains(&"src/main.rs".to_string()));
    assert!(b.output.get("en/experiments/nums/index.html").is_some());
}

#[test]
fn source_excerpts_show_the_marked_region_that_ran() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "```source nums work\n```\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let doc = html(&b, "a/index.html");
    assert_eq!(
        texts(&doc, "figure.source pre"),
        ["let total: u64 = (1..=10).sum();"]
    );
    assert_eq!(
        attrs(&doc, "figure.source figcaption a", "href"),
        ["/experiments/nums/#file-src-main-rs"]
    );
    let page = b.output.text("experiments/nums/index.html").unwrap();
    assert!(page.contains("id=\"file-src-main-rs\""));
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "```source nums nowhere\n```\n",
    );
    let e = site.build_err();
    assert!(
        e.contains("index.vi.md:5:1: error: experiment `nums` has no region `nowhere`"),
        "{e}"
    );
}

#[test]
fn claims_that_hold_pass_and_a_false_claim_fails_naming_article_claim_and_values() {
    let site = nums_site();
    site.build().unwrap_or_else(|e| panic!("{e}"));
    site.article("b", "vi", "title: B\ndate: 2026-01-01\nclaims:\n  faster: nums.speedup > 2\n  smaller: nums.rows.0.bytes < nums.rows.1.bytes", "x {{ claim.faster }} {{ claim.smaller }}\n");
    let e = site
        .build_err_strict()
        .replace(&format!("{}/", site.root().display()), "");
    assert_eq!(
        e,
        "content/b/index.vi.md:6:12: error: claim `smaller` fails: nums.rows.0.bytes < nums.rows.1.bytes
  nums.rows.0.bytes = 440 (the same in all 3 runs)
  nums.rows.1.bytes = 188 (the same in all 3 runs)
 6 |   smaller: nums.rows.0.bytes < nums.rows.1.bytes
   |            ^
  = help: the measurements contradict the sentence: rewrite it and its claim to say what was measured"
    );
}

#[test]
fn unknown_experiment_path_and_non_numbers_are_errors_with_suggestions() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.article("a", "vi", "title: A\ndate: 2026-01-01", "Một {{ numz.big }}.\n\nHai {{ nums.bgi }}.\n\nBa {{ nums.engine | fixed(2) }}.\n\nBốn {{ nums.rows }}.\n");
    let e = site.build_err();
    for expected in [
        "index.vi.md:5:5: error: unknown experiment `numz` in `numz.big`",
        "help: did you mean `nums`?",
        "index.vi.md:7:5: error: no `bgi` in the results (experiment `nums`, reference `nums.bgi`)",
        "help: did you mean `big`? (paths are relative to `nums`'s results)",
        "index.vi.md:9:4: error: `nums.engine` is a string, and filters format numbers",
        "index.vi.md:11:5: error: `nums.rows` is a list, not a value to show",
    ] {
        assert!(e.contains(expected), "missing `{expected}` in:\n{e}");
    }
}

/// Experiments `one` and `two`, and an article that uses both.
fn two_experiments_site() -> TestSite {
    let site = site_with(&[
        ("one", experiment_source("one", r#"{"v": 1}"#)),
        ("two", experiment_source("two", r#"{"v": 2}"#)),
    ]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "{{ one.v }} {{ two.v }}\n",
    );
    site
}

#[test]
fn an_unchanged_rebuild_runs_nothing_and_a_touched_experiment_reruns_alone() {
    let site = two_experiments_site();
    let first = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.experiments_ran, ["one", "two"]);
    assert_eq!(
        runs(&site),
        ["one", "two", "one", "two", "one", "two"],
        "three runs each, one of each per round"
    );
    let again = site.build().unwrap();
    assert!(again.experiments_ran.is_empty());
    assert_eq!(runs(&site).len(), 6, "no experiment ran");
    site.write(
        "experiments/two/src/main.rs",
        &experiment_source("two changed", r#"{"v": 22}"#),
    );
    let touched = site.build().unwrap();
    assert_eq!(touched.experiments_ran, ["two"]);
    assert_eq!(texts(&html(&touched, "a/index.html"), "data"), ["1", "22"]);
}

#[test]
fn a_session_reruns_an_experiment_whose_source_changed_and_nothing_else() {
    let site = two_experiments_site();
    // What `serve` does: one session, which keeps the measurements while nothing they were
    // made from changes.
    let mut session = measured::pipeline::Session::new(site.options());
    let silent = measured::experiments::Silent;
    let first = session.build(&silent).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.experiments_ran, ["one", "two"]);
    let again = session.build(&silent).unwrap();
    assert!(again.experiments_ran.is_empty());
    site.write(
        "experiments/two/src/main.rs",
        &experiment_source("two changed", r#"{"v": 22}"#),
    );
    let touched = session.build(&silent).unwrap();
    assert_eq!(touched.experiments_ran, ["two"]);
    assert_eq!(texts(&html(&touched, "a/index.html"), "data"), ["1", "22"]);
    let after = session.build(&silent).unwrap();
    assert!(after.experiments_ran.is_empty());
    assert_eq!(runs(&site).len(), 9);
    assert_eq!(runs(&site)[6..], ["two", "two", "two"]);
}

#[test]
fn rerun_all_or_one_and_frozen_results() {
    let site = two_experiments_site();
    site.build().unwrap_or_else(|e| panic!("{e}"));
    let all = build_with(
        &site,
        ExperimentOptions {
            rerun: Rerun::All,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(all.experiments_ran, ["one", "two"]);
    let only = build_with(
        &site,
        ExperimentOptions {
            rerun: Rerun::Only(BTreeSet::from(["two".to_string()])),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(only.experiments_ran, ["two"]);

    let frozen_opts = ExperimentOptions {
        frozen: true,
        ..Default::default()
    };
    let e = build_with(&site, frozen_opts.clone())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--frozen: experiment `one` has no frozen results"),
        "{e}"
    );
    let out = site.cli(&["freeze"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(site.path("frozen/one.json").exists() && site.path("frozen/two.json").exists());
    // A frozen build neither compiles nor runs anything: without the cache and the
    // experiments' build output, it still builds, and makes neither again.
    std::fs::remove_dir_all(site.path(".measured")).unwrap();
    std::fs::remove_dir_all(site.path("experiments/target")).unwrap();
    let runs_before = runs(&site).len();
    let frozen = build_with(&site, frozen_opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(frozen.experiments_ran.is_empty());
    assert_eq!(runs(&site).len(), runs_before);
    assert!(
        !site.path("experiments/target").exists(),
        "a frozen build compiled"
    );
    assert_eq!(texts(&html(&frozen, "a/index.html"), "data"), ["1", "2"]);
}

#[test]
fn quick_mode_is_passed_to_experiments_and_shown_and_cannot_be_frozen() {
    let site = nums_site();
    let b = build_with(
        &site,
        ExperimentOptions {
            quick: true,
            ..Default::default()
        },
    )
    .unwrap();
    let titles = tooltips(&html(&b, "en/a/index.html"), "data");
    assert!(titles[0].contains("quick mode"), "{}", titles[0]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_measured"))
        .args(["freeze"])
        .env("MEASURED_QUICK", "1")
        .current_dir(site.root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("measured in quick mode"), "{stderr}");
}

mod failures {
    use super::*;

    fn failing(main: &str) -> (TestSite, String) {
        let site = site_with(&[
            ("good", experiment_source("good", r#"{"v": 1}"#)),
            ("bad", main.to_string()),
        ]);
        site.article(
            "a",
            "vi",
            "title: A\ndate: 2026-01-01",
            "{{ good.v }} {{ bad.v }}\n",
        );
        let e = site.build_err();
        (site, e)
    }

    fn good_result_kept(site: &TestSite) {
        let record = site.read(".measured/results/good.json");
        assert!(record.contains("\"v\": 1"), "{record}");
    }

    #[test]
    fn a_compile_error_names_the_experiment_with_cargos_message_and_keeps_the_others() {
        // Many warnings after the error: a tail of cargo's output would cut the error off.
        let warnings: String = (0..40).map(|i| format!("fn unused{i}() {{}}\n")).collect();
        let (site, e) = failing(&format!(
            "fn main() {{ let x: u32 = \"not a number\"; }}\n{warnings}"
        ));
        assert!(
            e.contains("experiment `bad` does not compile:\nerror[E0308]: mismatched types\n"),
            "{e}"
        );
        // Its place, under the experiments' folder, and the code it points at.
        let dir = site.path("experiments");
        assert!(
            e.contains(&format!("--> {}/bad/src/main.rs:1:", dir.display())),
            "{e}"
        );
        assert!(e.contains("expected `u32`, found `&str`"), "{e}");
        assert!(
            !e.contains("unused39"),
            "the warnings are not the error: {e}"
        );
        assert!(
            e.contains(&format!(
                "to see every error: cd {} && cargo build --release -p bad",
                dir.display()
            )),
            "{e}"
        );
        good_result_kept(&site);
    }

    #[test]
    fn a_panic_fails_the_build_with_the_stderr_tail() {
        let (site, e) = failing("fn main() { panic!(\"the disk is full of sadness\"); }\n");
        assert!(e.contains("experiment `bad` failed: panicked"), "{e}");
        assert!(e.contains("the disk is full of sadness"), "{e}");
        good_result_kept(&site);
    }

    #[test]
    fn invalid_json_and_missing_results_fail() {
        let (_, e) = failing(
            "fn main() { std::fs::write(std::env::var(\"MEASURED_RESULTS\").unwrap(), \"{not json\").unwrap(); }\n",
        );
        assert!(
            e.contains("experiment `bad` failed: wrote invalid JSON to MEASURED_RESULTS"),
            "{e}"
        );
        let (_, e) = failing("fn main() { println!(\"forgot\"); }\n");
        assert!(
            e.contains("experiment `bad` failed: wrote no results file"),
            "{e}"
        );
    }

    #[test]
    fn a_sleeping_experiment_is_killed_at_its_timeout_with_every_process_it_started() {
        let marker = format!("measured-test-{}", std::process::id());
        let main = format!(
            "fn main() {{ let _child = std::process::Command::new(\"sh\").args([\"-c\", \"sleep 300; echo {marker}\"]).spawn().unwrap(); std::thread::sleep(std::time::Duration::from_secs(300)); }}\n"
        );
        let site = site_with(&[("sleepy", main)]);
        site.write(
            "site.toml",
            &format!("{}\n[experiments]\ntimeout_secs = 2\n", common::SITE_TOML),
        );
        site.article("a", "vi", "title: A\ndate: 2026-01-01", "{{ sleepy.v }}\n");
        let started = std::time::Instant::now();
        let e = site.build_err();
        assert!(
            e.contains("experiment `sleepy` failed: timed out after 2 s"),
            "{e}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(120));
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&marker))
            .collect();
        assert!(left.is_empty(), "processes left behind: {left:?}");
    }

    #[test]
    fn a_failed_run_never_overwrites_a_previous_good_result() {
        let site = site_with(&[("flaky", experiment_source("flaky", r#"{"v": 7}"#))]);
        site.article("a", "vi", "title: A\ndate: 2026-01-01", "{{ flaky.v }}\n");
        site.build().unwrap_or_else(|e| panic!("{e}"));
        let before = site.read(".measured/results/flaky.json");
        site.write(
            "experiments/flaky/src/main.rs",
            "fn main() { std::process::exit(3); }\n",
        );
        let e = site.build_err();
        assert!(
            e.contains("experiment `flaky` failed: exited with status 3"),
            "{e}"
        );
        assert_eq!(site.read(".measured/results/flaky.json"), before);
    }
}

#[test]
fn articles_get_a_reproduce_section_and_a_results_json() {
    let site = nums_site();
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let doc = html(&b, "en/a/index.html");
    assert_eq!(texts(&doc, ".reproduce h3"), ["nums"]);
    let command = texts(&doc, ".reproduce pre");
    assert_eq!(
        command,
        [
            "cd experiments && cargo build --release -p nums && cd nums && MEASURED_RESULTS=results.json ../target/release/nums",
            "cargo run --release -- measure nums --out nums.results.json",
        ]
    );
    assert_eq!(
        attrs(&doc, ".reproduce a[type='application/json']", "href"),
        ["/en/a/results.json"]
    );
    let json: serde_json::Value =
        serde_json::from_slice(b.output.get("en/a/results.json").expect("results.json")).unwrap();
    assert_eq!(json["article"], "/en/a/");
    assert_eq!(
        json["experiments"]["nums"]["results"]["t"]["ci_low"],
        380000.0
    );
    assert_eq!(
        json["experiments"]["nums"]["provenance"]["experiment"],
        "nums"
    );
    assert!(
        json["experiments"]["nums"]["provenance"]["cpu"]
            .as_str()
            .is_some_and(|c| !c.is_empty())
    );
}

#[test]
fn the_command_line_builds_experiments_from_a_relative_root() {
    let site = nums_site();
    let out = site.cli(&["build", "--root", "."]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(site.path("experiments/target/release/nums").exists());
    assert!(
        !site.path("experiments/experiments").exists(),
        "cargo's target dir must not move under the workspace"
    );
    assert!(site.read("public/a/index.html").contains("1.234.567"));
}

#[test]
fn excerpts_may_quote_a_library_crate_of_the_workspace() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.write(
        "experiments/shared/Cargo.toml",
        "[package]\nname = \"shared\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    );
    site.write("experiments/shared/src/lib.rs", "//! Shared code.\n// ANCHOR: helper\npub fn helper() -> u32 { 42 }\n// ANCHOR_END: helper\n");
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "{{ nums.big }}\n\n```source shared helper\n```\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let doc = html(&b, "a/index.html");
    assert_eq!(
        texts(&doc, "figure.source pre"),
        ["pub fn helper() -> u32 { 42 }"]
    );
    assert_eq!(
        attrs(&doc, "figure.source figcaption a", "href"),
        ["/experiments/shared/#file-src-lib-rs"]
    );
    assert!(
        b.output.get("experiments/shared/index.html").is_some(),
        "the library's source page is published"
    );
}

#[test]
fn source_pages_show_every_file_of_every_experiment_and_library_in_order() {
    let site = site_with(&[
        ("nums", experiment_source("total", NUMS)),
        ("more", experiment_source("more", NUMS)),
    ]);
    site.write(
        "experiments/nums/src/extra.rs",
        "pub const EXTRA: u32 = 7;\n",
    );
    site.write("experiments/nums/data.sql", "SELECT 1;\n");
    site.write(
        "experiments/shared/Cargo.toml",
        "[package]\nname = \"shared\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    );
    site.write(
        "experiments/shared/src/lib.rs",
        "pub fn helper() -> u32 { 42 }\n",
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "{{ nums.big }} {{ more.big }}\n",
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let pages = [
        (
            "nums",
            &["Cargo.toml", "data.sql", "src/extra.rs", "src/main.rs"][..],
        ),
        ("more", &["Cargo.toml", "src/main.rs"][..]),
        ("shared", &["Cargo.toml", "src/lib.rs"][..]),
    ];
    for (name, files) in pages {
        for prefix in ["", "en/"] {
            let doc = html(&b, &format!("{prefix}experiments/{name}/index.html"));
            assert_eq!(texts(&doc, "h2"), files, "{prefix}{name}");
            let code = texts(&doc, "h2 + pre code");
            for (file, code) in files.iter().zip(&code) {
                let source =
                    std::fs::read_to_string(site.path(&format!("experiments/{name}/{file}")))
                        .expect("read the source");
                let words = source.split_whitespace().collect::<Vec<_>>().join(" ");
                assert_eq!(code, &words, "{prefix}{name}/{file}");
            }
        }
    }
}

/// Where a page shows `{{` outside code (`pre`, `code`, scripts): text and attribute values.
fn template_text_outside_code(page: &scraper::Html) -> Vec<String> {
    let mut found = Vec::new();
    for node in page.tree.nodes() {
        let in_code = node.ancestors().any(|a| {
            a.value()
                .as_element()
                .is_some_and(|e| matches!(e.name(), "pre" | "code" | "script" | "style"))
        });
        match node.value() {
            scraper::Node::Text(t) if t.contains("{{") && !in_code => found.push(t.to_string()),
            scraper::Node::Element(e) if !in_code => found.extend(
                e.attrs()
                    .filter(|(_, v)| v.contains("{{"))
                    .map(|(k, v)| format!("{}[{k}={v}]", e.name())),
            ),
            _ => {}
        }
    }
    found
}

#[test]
fn no_page_of_a_blog_like_site_shows_template_text_outside_code() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    let vi = "Máy chủ DNS làm chủ vùng {{ nums.engine | code }}, số {{ nums.big }}.\n\nKế hoạch:\n\n{{ nums.plan | code }}\n\nMột mẫu Helm `{{ .Values.image }}` và Jinja:\n\n```jinja\n{% for x in xs %}{{ x.name }}{% endfor %}\n```\n\n```experiment nums\ntable: rows\ncolumn: name | Tên\ncolumn: bytes | Byte | bytes\n```\n\n```source nums work\n```\n";
    let en = "The DNS server owns the zone {{ nums.engine | code }}, number {{ nums.big }}.\n\nThe plan:\n\n{{ nums.plan | code }}\n\nA Helm example `{{ .Values.image }}` and Jinja:\n\n```jinja\n{% for x in xs %}{{ x.name }}{% endfor %}\n```\n\n```experiment nums\n```\n";
    for slug in ["dns", "plans"] {
        let front = format!("title: {slug}\ndate: 2026-01-01");
        site.article(slug, "vi", &front, vi);
        site.article(slug, "en", &front, en);
    }
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let mut pages = Vec::new();
    for (path, bytes) in &b.output.files {
        if path.ends_with(".html") {
            let page = scraper::Html::parse_document(&String::from_utf8_lossy(bytes));
            let found = template_text_outside_code(&page);
            assert!(found.is_empty(), "{path}: {found:?}");
            pages.push(path.clone());
        }
    }
    for page in [
        "dns/index.html",
        "en/plans/index.html",
        "experiments/nums/index.html",
    ] {
        assert!(pages.iter().any(|p| p == page), "{page} checked: {pages:?}");
    }
    let page = html(&b, "en/dns/index.html");
    assert_eq!(texts(&page, "p code.measured")[0], "PostgreSQL 15");
    assert_eq!(
        texts(&page, "p code:not(.measured)"),
        ["{{ .Values.image }}"]
    );
    assert!(
        texts(&page, "pre.code")
            .iter()
            .any(|t| t.contains("{{ x.name }}")),
        "Jinja stays literal"
    );
}

#[test]
fn the_measuring_machine_is_injectable_and_formatted_per_language() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    let body = "Trên {{ machine.cores }} lõi, {{ machine.memory | bytes }}, nhân {{ machine.kernel }}, {{ machine.rustc }}, số {{ nums.big }}.\n";
    site.article("a", "vi", "title: A\ndate: 2026-01-01", body);
    site.article("a", "en", "title: A\ndate: 2026-01-01", body);
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let cores = std::thread::available_parallelism().unwrap().get();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kb: u64 = meminfo.lines().next().unwrap()["MemTotal:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap();
    for path in ["a/index.html", "en/a/index.html"] {
        let page = html(&b, path);
        let values = attrs(&page, "data", "value");
        assert_eq!(values[0], cores.to_string(), "{path}");
        assert_eq!(values[1], (kb * 1024).to_string(), "{path}");
        let shown = texts(&page, "span.measured");
        assert_eq!(shown[0], kernel.trim(), "{path}");
        assert!(shown[1].starts_with("rustc "), "{path}: {shown:?}");
        assert!(
            tooltips(&page, "data")[0].contains("nums"),
            "the tooltip says which experiment's run measured it"
        );
    }
    // 24 GiB: `25,8 GB` in Vietnamese, `25.8 GB` in English (decimal separators differ).
    let vi = texts(&html(&b, "a/index.html"), "data");
    let en = texts(&html(&b, "en/a/index.html"), "data");
    assert_eq!(vi[1].replace(',', "."), en[1], "{vi:?} {en:?}");
}

#[test]
fn machine_values_need_an_experiment_and_a_known_field_and_no_crate_takes_the_name() {
    let site = site_with(&[("nums", experiment_source("total", NUMS))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "Máy {{ machine.cores }}.\n",
    );
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-01-01",
        "Số {{ nums.big }} trên {{ machine.core }}, `{{ machine.cpu }}`.\n",
    );
    let e = site.build_err();
    for expected in [
        "a/index.vi.md:5:5: error: `machine.cores` is the machine that measured this page's experiments, and the page uses none",
        "b/index.vi.md:5:24: error: the machine has no `core`",
        "help: did you mean `machine.cores`?",
        "b/index.vi.md:5:45: error: `{{ machine.cpu }}` is inside a code span",
    ] {
        assert!(e.contains(expected), "missing `{expected}` in:\n{e}");
    }
    let site = site_with(&[("machine", experiment_source("total", NUMS))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "Số {{ machine.cores }}.\n",
    );
    let e = site.build_err();
    assert!(
        e.contains("machine/Cargo.toml: error: an experiment may not be named `machine`"),
        "{e}"
    );
}

/// A fixture whose value `v` and timing `t` (median `t`, ±5 %) are as given.
fn drifting(v: u32, t: u32) -> String {
    let (lo, hi) = (t * 95 / 100, t * 105 / 100);
    experiment_source(
        "drifting",
        &format!(
            r#"{{"v": {v}, "t": {{"type": "timing", "unit": "ns", "n": 9, "median": {t}.0, "ci_low": {lo}.0, "ci_high": {hi}.0}}}}"#
        ),
    )
}

#[test]
fn every_run_is_kept_and_values_that_moved_since_the_previous_results_are_drift() {
    let site = site_with(&[
        ("moves", drifting(10, 100)),
        ("steady", experiment_source("steady", r#"{"w": 5}"#)),
    ]);
    let body = "{{ moves.v }} {{ moves.t }} {{ steady.w }}. {{ claim.high }}\n";
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  high: moves.v > 5",
        body,
    );
    site.article("a", "en", "title: A\ndate: 2026-01-01", body);
    let first = site.build().unwrap_or_else(|e| panic!("{e}"));
    let history = |name: &str| {
        std::fs::read_to_string(site.path(&format!(".measured/history/{name}.jsonl")))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let per_build = history("moves");
    assert!(
        per_build >= 1 && history("steady") == per_build,
        "each run is kept"
    );
    assert!(
        first
            .warnings
            .iter()
            .all(|w| !w.message.contains("previous results"))
    );

    // `moves` changes its values; `steady` only its source, not what it measures.
    site.write("experiments/moves/src/main.rs", &drifting(30, 200));
    site.write(
        "experiments/steady/src/main.rs",
        &experiment_source("steady, reworded", r#"{"w": 5}"#),
    );
    let second = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(history("moves"), 2 * per_build, "the older runs stay");
    let drift: Vec<&measured::Diagnostic> = second
        .warnings
        .iter()
        .filter(|w| w.message.contains("previous results"))
        .collect();
    assert_eq!(drift.len(), 1, "only `moves` drifted: {drift:?}");
    let text = drift[0].to_string();
    assert!(text.contains("experiment `moves`"), "{text}");
    assert!(text.contains("2 value(s) moved"), "{text}");
    assert!(
        text.contains("t moved from") && text.contains("v moved from 10"),
        "{text}"
    );
    assert!(text.contains("the experiment's source"), "{text}");
    assert!(text.contains("experiments/moves/Cargo.toml"), "{text}");

    // With --strict, drift is an error, and a claim that held before and fails now says so.
    site.write("experiments/moves/src/main.rs", &drifting(2, 200));
    let strict = ExperimentOptions {
        strict: true,
        ..ExperimentOptions::default()
    };
    let err = build_with(&site, strict).unwrap_err().to_string();
    assert!(err.contains("v moved from 30"), "{err}");
    assert!(
        err.contains("claim `high`") && err.contains("held before and failed now"),
        "{err}"
    );
    assert!(
        !err.contains("t moved"),
        "the timing stayed within its interval: {err}"
    );
}
