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
