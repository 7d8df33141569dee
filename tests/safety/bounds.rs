//! Issue 35, crashes, hangs and unbounded memory: formulas and diagrams nested thousands
//! deep, front matter nested or huge, experiments that leave daemons holding their output or
//! print without end, and `results import` of what is not a file.

use super::common::{self, TestSite, sleeping};
use super::{errors, first_error};

#[test]
fn formulas_and_diagrams_nested_thousands_deep_are_errors_at_their_line_not_crashes() {
    let site = TestSite::new();
    let sqrt = format!("{}y{}", "\\sqrt{".repeat(3000), "}".repeat(3000));
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        &format!("Mở đầu.\n\nCăn ${sqrt}$ lồng nhau.\n"),
    );
    let frac = format!("{}b{}", "\\frac{a}{".repeat(3000), "}".repeat(3000));
    site.article(
        "b",
        "vi",
        "title: B\ndate: 2026-01-02",
        &format!("Phân số:\n\n$$\n{frac}\n$$\n"),
    );
    let mut mermaid = String::from("```mermaid\nsequenceDiagram\n");
    mermaid.push_str(&"loop again\n".repeat(3000));
    mermaid.push_str("A->>B: hi\n");
    mermaid.push_str(&"end\n".repeat(3000));
    mermaid.push_str("```\n");
    site.article("c", "vi", "title: C\ndate: 2026-01-02", &mermaid);
    let got: Vec<(String, Option<usize>, String)> = errors(&site)
        .into_iter()
        .map(|(f, l, m)| (f, l, m.chars().take(70).collect()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "content/a/index.vi.md".to_string(),
                Some(7),
                "this formula is not LaTeX that can be drawn: it nests more than 40 lev"
                    .to_string()
            ),
            (
                "content/b/index.vi.md".to_string(),
                Some(8),
                "this formula is not LaTeX that can be drawn: it nests more than 40 lev"
                    .to_string()
            ),
            (
                "content/c/index.vi.md".to_string(),
                Some(70),
                "this Mermaid diagram cannot be drawn: it nests more than 64 levels dee"
                    .to_string()
            ),
        ]
    );
    let e = site.build_err();
    assert!(
        e.contains("help: write it with less nesting, or as several formulas: measured draws at most 40 levels"),
        "{e}"
    );
    assert!(
        e.contains("split it into smaller diagrams, or nest less"),
        "{e}"
    );
}

#[test]
fn deeply_nested_or_huge_front_matter_is_refused_at_once_at_its_line() {
    for (n, line, message) in [
        (
            20_000,
            4,
            "front matter: the front matter nests lists and maps more than 16 levels deep here",
        ),
        (
            100_000,
            2,
            "front matter: the front matter has 200033 bytes; measured reads at most 64 KB of it",
        ),
    ] {
        let site = TestSite::new();
        site.article(
            "a",
            "vi",
            &format!(
                "title: A\ndate: 2026-01-02\ntags: {}{}",
                "[".repeat(n),
                "]".repeat(n)
            ),
            "x\n",
        );
        let started = std::time::Instant::now();
        let (file, at, got, hint) = first_error(&site);
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!(
            (file.as_str(), at, got.as_str()),
            ("content/a/index.vi.md", Some(line), message)
        );
        assert!(
            hint.contains("write lists flat, e.g. `tags: [a, b]`"),
            "{hint}"
        );
    }
}

/// A `sleep` duration no other test uses (seconds: `whole.nanos`), starting with `whole`.
pub(super) fn marker(whole: u32) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{whole}.{nanos:09}")
}

/// An experiment that starts `setsid sleep <marker>`, which inherits its stdout and stderr,
/// and ends at once with its results written.
pub(super) fn daemon_experiment(marker: &str) -> String {
    format!(
        r##"fn main() {{
    std::process::Command::new("setsid").args(["sleep", "{marker}"]).spawn().unwrap();
    println!("started");
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), r#"{{"n": 1}}"#).unwrap();
}}
"##
    )
}

pub(super) fn site_using(name: &str, main: &str, timeout_secs: u32) -> TestSite {
    let site = common::fixtures::site_with(&[(name, main.to_string())]);
    site.write(
        "site.toml",
        &site.read("site.toml").replace(
            "timeout_secs = 20",
            &format!("timeout_secs = {timeout_secs}"),
        ),
    );
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-02",
        &format!("Giá trị {{{{ {name}.n }}}}.\n"),
    );
    site
}

#[test]
fn a_child_holding_stdout_holds_a_run_past_neither_its_end_nor_its_timeout() {
    let m = marker(60);
    let site = site_using("daemon", &daemon_experiment(&m), 5);
    let started = std::time::Instant::now();
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    let took = started.elapsed();
    assert_eq!(built.experiments_ran, ["daemon"]);
    // Compiling takes a few seconds; the daemon would hold the run for 60.
    assert!(took < std::time::Duration::from_secs(30), "{took:?}");
}

#[test]
fn a_setsid_daemon_an_experiment_starts_is_killed_when_the_run_ends() {
    let m = marker(61);
    let site = site_using("daemon", &daemon_experiment(&m), 20);
    site.build().unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(sleeping(&m), Vec::<String>::new());
}

#[test]
fn three_hundred_megabytes_of_output_are_an_error_and_nothing_of_them_is_kept() {
    let main = r##"fn main() {
    use std::io::Write;
    let chunk = vec![b'x'; 1 << 20];
    let mut out = std::io::stdout().lock();
    for _ in 0..300 { out.write_all(&chunk).unwrap(); }
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), r#"{"n": 1}"#).unwrap();
}
"##;
    let site = site_using("loud", main, 60);
    let e = site.build_err();
    assert!(
        e.contains("experiment `loud` failed: printed 300.0 MB on stdout, and an experiment's output, shown on its page and kept with its results, may have at most 256 KB: print a summary, and write bulk data to a file of its own"),
        "{e}"
    );
    let kept: u64 = walkdir::WalkDir::new(site.path(".measured"))
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|e| e.metadata().ok())
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len())
        .sum();
    assert!(kept < 1 << 20, "{kept} bytes kept in .measured/");
}

#[test]
fn a_results_file_past_its_limit_is_an_error_with_its_size() {
    let main = r#"fn main() {
    let big = format!("{{\"n\": 1, \"pad\": \"{}\"}}", "x".repeat(5 << 20));
    std::fs::write(std::env::var("MEASURED_RESULTS").unwrap(), big).unwrap();
}
"#;
    let site = site_using("fat", main, 60);
    let e = site.build_err();
    assert!(
        e.contains("experiment `fat` failed: wrote 5.0 MB to MEASURED_RESULTS, and a results file may have at most 4.0 MB"),
        "{e}"
    );
}

/// Runs `measured` in `site` with `args`, failing the test (not hanging it) past 20 s.
fn cli_within(site: &TestSite, args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_measured"))
        .args(args)
        .current_dir(site.root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run measured");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("measured {args:?} still runs after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn results_import_reads_only_regular_files_and_never_past_its_limit() {
    let site = common::fixtures::frozen_site(serde_json::json!({"n": 1}));
    let fifo = site.path("results.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for (file, kind) in [
        (
            fifo.display().to_string(),
            "a pipe (a FIFO, or a shell's process substitution)",
        ),
        ("/dev/zero".to_string(), "a device"),
    ] {
        let out = cli_within(&site, &["results", "import", &file]);
        assert!(!out.status.success());
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(
            e.contains(&format!("{file}: error: not a regular file (it is {kind}): a results file is read from a file")),
            "{e}"
        );
        assert!(e.contains("help: save the results in a file first"), "{e}");
    }
}
