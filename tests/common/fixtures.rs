//! Fixture experiments: dependency-free crates that compile in about a second, each logging
//! its runs to `runs.log` at the site root.

use super::TestSite;

/// An experiment's main.rs that prints `stdout`, writes `json` as its results and logs each run.
pub fn experiment_source(stdout: &str, json: &str) -> String {
    format!(
        r##"//! A fixture experiment.
fn main() {{
    // ANCHOR: work
    let total: u64 = (1..=10).sum();
    // ANCHOR_END: work
    println!("{stdout} {{total}}");
    use std::io::Write;
    let mut log = std::fs::OpenOptions::new().create(true).append(true).open("../../runs.log").unwrap();
    writeln!(log, "{{}}", env!("CARGO_PKG_NAME")).unwrap();
    let quick = std::env::var("MEASURED_QUICK").is_ok();
    let json = r#"{json}"#.replace("QUICK", if quick {{ "true" }} else {{ "false" }});
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), json).unwrap();
}}
"##
    )
}

/// A site whose experiments workspace holds `experiments` (name, main.rs).
pub fn site_with(experiments: &[(&str, String)]) -> TestSite {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!("{}\n[experiments]\ntimeout_secs = 20\n", super::SITE_TOML),
    );
    site.write(
        "experiments/Cargo.toml",
        "[workspace]\nresolver = \"3\"\nmembers = [\"*\"]\nexclude = [\"target\"]\n",
    );
    for (name, main) in experiments {
        add_experiment(&site, name, main);
    }
    site
}

pub fn add_experiment(site: &TestSite, name: &str, main: &str) {
    site.write(
        &format!("experiments/{name}/Cargo.toml"),
        &format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n"),
    );
    site.write(&format!("experiments/{name}/src/main.rs"), main);
}

pub fn runs(site: &TestSite) -> Vec<String> {
    std::fs::read_to_string(site.path("runs.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A site whose one experiment, `exp`, has `results` frozen (never compiled or run).
pub fn frozen_site(results: serde_json::Value) -> TestSite {
    let site = TestSite::new();
    site.write(
        "experiments/Cargo.toml",
        "[workspace]\nmembers = [\"exp\"]\nresolver = \"2\"\n",
    );
    site.write(
        "experiments/exp/Cargo.toml",
        "[package]\nname = \"exp\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    );
    site.write("experiments/exp/src/main.rs", "fn main() {}\n");
    // Frozen for the experiment's current source, lockfile and toolchain: not stale.
    let dir = site.path("experiments");
    let crates = measured::experiments::workspace::discover(&dir).expect("the fixture workspace");
    let source_hash = crates["exp"].source_hash[..16].to_string();
    let lock_hash =
        measured::experiments::workspace::Lock::read(&dir).hash_of("exp")[..16].to_string();
    let rustc = measured::experiments::machine::Machine::read(&dir).rustc;
    let record = serde_json::json!({
        "experiment": "exp",
        "key": "test",
        "results": results,
        "output": "",
        "provenance": {
            "experiment": "exp", "source_hash": source_hash, "lock_hash": lock_hash, "rustc": rustc,
            "cpu": "test", "cores": 2, "kernel": "6.1", "measured_at": "2026-01-01T00:00:00Z",
            "load_before": [0.0, 0.0, 0.0], "load_after": [0.0, 0.0, 0.0],
            "duration_secs": 1.0, "quick": false, "command": "none"
        }
    });
    site.write("frozen/exp.json", &record.to_string());
    site
}

/// The options of a build of `site` from its frozen results.
pub fn frozen_options(site: &TestSite) -> measured::BuildOptions {
    measured::BuildOptions {
        experiments: measured::experiments::ExperimentOptions {
            frozen: true,
            ..Default::default()
        },
        ..site.options()
    }
}
