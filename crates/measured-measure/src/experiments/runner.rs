//! Building and running experiments: one `cargo build --release` for every stale experiment,
//! then each binary alone, in its own process group, under a timeout after which the whole
//! group is killed. Results come from the file named by `MEASURED_RESULTS`; stdout is the output.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::results_file::{MAX_BYTES as MAX_RESULTS, MAX_OUTPUT};
use super::{CrateInfo, Progress, process};
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// Lines of stderr kept for an error message.
const TAIL_LINES: usize = 25;

/// What is kept of a run's output: as much stdout as a results file may hold of one run (it
/// is shown on the page), and the end of stderr, for the error message.
pub const LIMITS: process::Limits = process::Limits {
    stdout: MAX_OUTPUT,
    stderr: 64 << 10,
};

/// Why `cargo build` failed.
#[derive(Debug, Clone)]
pub struct BuildFailure {
    /// Experiments that did not compile.
    pub failed: Vec<String>,
    pub stderr_tail: String,
    /// cargo's error diagnostics, each whole (its first line, the code it points at, its
    /// notes), in order.
    pub errors: Vec<String>,
}

/// cargo's and rustc's diagnostics in stderr `lines`, each whole: a block begins with a line
/// that starts `error` or `warning` and runs to the next one. cargo's own summaries
/// (`could not compile`, `aborting`) are left out.
fn error_blocks(lines: &[String]) -> Vec<String> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in lines {
        let starts = line.starts_with("error") || line.starts_with("warning");
        if starts {
            blocks.push(vec![line]);
        } else if let Some(b) = blocks.last_mut() {
            b.push(line);
        }
    }
    blocks
        .into_iter()
        .filter(|b| b[0].starts_with("error"))
        .filter(|b| !b[0].contains("could not compile") && !b[0].starts_with("error: aborting"))
        .map(|b| b.join("\n").trim_end().to_string())
        .collect()
}

impl BuildFailure {
    pub fn diagnostics(&self, dir: &Path) -> Diagnostics {
        let mut d = Diagnostics::default();
        for name in &self.failed {
            // Its first error whole, its paths under the experiments' folder (so a terminal
            // or an editor opens them); cargo's last lines when no error names it.
            let own = format!("--> {name}/");
            let first = self.errors.iter().find(|e| e.contains(&own));
            let text = match first.or(self.errors.first()) {
                Some(e) => {
                    let more = self.errors.iter().filter(|e| e.contains(&own)).count();
                    let e = e.replace("--> ", &format!("--> {}/", dir.display()));
                    match more {
                        0 | 1 => e,
                        n => format!("{e}\n(and {} more error(s))", n - 1),
                    }
                }
                None => self.stderr_tail.clone(),
            };
            d.push(
                Diagnostic::new(
                    Place::file(dir.join(name)),
                    format!("experiment `{name}` does not compile:\n{text}"),
                )
                .with_hint(format!(
                    "to see every error: cd {} && cargo build --release -p {name}",
                    dir.display()
                )),
            );
        }
        d
    }
}

/// Builds the experiments `names` with one cargo invocation, `--keep-going` so one broken
/// experiment does not stop the others.
pub fn build(dir: &Path, names: &[String], progress: &dyn Progress) -> Result<(), BuildFailure> {
    progress.compile_started(names);
    let started = Instant::now();
    // Absolute: cargo reads CARGO_TARGET_DIR relative to its own working directory.
    let dir = &std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut cmd = Command::new("cargo");
    cmd.args(["build", "--release", "--keep-going", "--color", "never"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_TERM_PROGRESS_WHEN", "never")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for n in names {
        cmd.args(["-p", n]);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            progress.compile_finished(false, started.elapsed());
            return Err(BuildFailure {
                failed: names.to_vec(),
                stderr_tail: format!("cannot run cargo: {e}"),
                errors: Vec::new(),
            });
        }
    };
    let mut lines = Vec::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            progress.compile_line(&line);
            lines.push(line);
        }
    }
    let ok = child.wait().map(|s| s.success()).unwrap_or(false);
    progress.compile_finished(ok, started.elapsed());
    if ok {
        return Ok(());
    }
    Err(failure_of(&lines, names))
}

/// Which of `names` a failed `cargo build` of them blames, from its stderr `lines`: those it
/// could not compile, or all of them when it blames another crate (a shared dependency) or
/// none.
pub fn failure_of(lines: &[String], names: &[String]) -> BuildFailure {
    let not_compiled: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("error: could not compile `"))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_string)
        .collect();
    let blames_shared = not_compiled.iter().any(|c| !names.contains(c)) || not_compiled.is_empty();
    let failed = if blames_shared {
        names.to_vec()
    } else {
        not_compiled
    };
    BuildFailure {
        failed,
        stderr_tail: tail(&lines.join("\n"), TAIL_LINES),
        errors: error_blocks(lines),
    }
}

/// How to run an experiment.
#[derive(Debug, Clone)]
pub struct RunSettings {
    pub timeout: Duration,
    pub quick: bool,
    /// Where results files are written while experiments run.
    pub scratch: PathBuf,
}

/// A successful run.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub results: serde_json::Value,
    pub stdout: String,
    pub started_at: String,
    pub elapsed: Duration,
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
}

/// Why a run failed.
#[derive(Debug, Clone)]
pub struct RunFailure {
    pub what: String,
    pub stderr_tail: String,
}

impl RunFailure {
    pub fn diagnostic(&self, name: &str, dir: &Path) -> Diagnostic {
        let mut message = format!("experiment `{name}` failed: {}", self.what);
        if !self.stderr_tail.trim().is_empty() {
            message.push_str(&format!(
                "\n--- stderr (last lines) ---\n{}",
                self.stderr_tail
            ));
        }
        Diagnostic::new(Place::file(dir), message).with_hint(
            "the previous good results (if any) are kept; fix the experiment and build again",
        )
    }
}

/// How an experiment's process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A signal killed it.
    Signal,
    /// It ran past the timeout and was killed with every process it started.
    TimedOut,
}

/// The results file a run wrote, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Results {
    Read(Vec<u8>),
    /// Larger than a results file may be: its size, it was not read.
    TooLarge(u64),
}

/// What a run left behind, before it is checked: where it ran (here, or on a host over SSH)
/// makes no difference from here on.
#[derive(Debug, Clone)]
pub struct Ended {
    pub exit: Exit,
    /// The first [`LIMITS`]`.stdout` bytes of its stdout.
    pub stdout: String,
    /// How many bytes it wrote to stdout in all.
    pub stdout_total: u64,
    /// The end of its stderr.
    pub stderr: String,
    /// The file it wrote at `MEASURED_RESULTS`, if any.
    pub results: Option<Results>,
    pub started_at: String,
    pub elapsed: Duration,
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
    /// The timeout it ran under, for the message when it ran past it.
    pub timeout: Duration,
}

/// Checks what a run left: it exited with success, wrote a results file, and that file is one
/// JSON object of finite numbers.
pub fn outcome_of(ended: Ended) -> Result<Outcome, RunFailure> {
    let stderr_tail = tail(&ended.stderr, TAIL_LINES);
    let failure = |what: String| RunFailure {
        what,
        stderr_tail: stderr_tail.clone(),
    };
    match ended.exit {
        Exit::Code(0) => {}
        Exit::TimedOut => {
            return Err(failure(format!(
                "timed out after {} s and was killed with every process it started (raise [experiments] timeout_secs in site.toml if it needs longer)",
                ended.timeout.as_secs()
            )));
        }
        Exit::Code(101) => return Err(failure("panicked (exit status 101)".into())),
        // A shell reports a process a signal killed as 128 + the signal.
        Exit::Code(code @ 129..=192) => {
            return Err(failure(format!(
                "exited with status {code} (killed by signal {}?)",
                code - 128
            )));
        }
        Exit::Code(code) => return Err(failure(format!("exited with status {code}"))),
        Exit::Signal => return Err(failure("was killed by a signal".into())),
    }
    if ended.stdout_total > MAX_OUTPUT as u64 {
        return Err(failure(format!(
            "printed {} on stdout, and an experiment's output, shown on its page and kept with its results, may have at most {}: print a summary, and write bulk data to a file of its own",
            size(ended.stdout_total),
            size(MAX_OUTPUT as u64)
        )));
    }
    let bytes = match ended.results {
        Some(Results::Read(bytes)) => bytes,
        Some(Results::TooLarge(n)) => {
            return Err(failure(format!(
                "wrote {} to MEASURED_RESULTS, and a results file may have at most {}: keep in it the values the pages show",
                size(n),
                size(MAX_RESULTS as u64)
            )));
        }
        None => {
            return Err(failure(
                "wrote no results file (it must write one JSON object to the path in MEASURED_RESULTS)"
                    .into(),
            ));
        }
    };
    let results: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        // serde_json refuses numbers beyond f64 (`1e400`): say that they are not finite.
        let why = if e.to_string().starts_with("number out of range") {
            " (a number too large to be finite: results hold finite numbers only)"
        } else {
            ""
        };
        failure(format!("wrote invalid JSON to MEASURED_RESULTS: {e}{why}"))
    })?;
    if !results.is_object() {
        return Err(failure("its results are not a JSON object".into()));
    }
    Ok(Outcome {
        results,
        stdout: ended.stdout,
        started_at: ended.started_at,
        elapsed: ended.elapsed,
        load_before: ended.load_before,
        load_after: ended.load_after,
    })
}

/// Runs the built binary of `info` with its folder as working directory.
pub fn run(dir: &Path, info: &CrateInfo, settings: &RunSettings) -> Result<Outcome, RunFailure> {
    let fail = |what: String| RunFailure {
        what,
        stderr_tail: String::new(),
    };
    // Absolute: a relative program path would be resolved from the child's working directory.
    let binary = std::path::absolute(dir.join("target/release").join(&info.name))
        .unwrap_or_else(|_| dir.join("target/release").join(&info.name));
    std::fs::create_dir_all(&settings.scratch)
        .map_err(|e| fail(format!("cannot create {}: {e}", settings.scratch.display())))?;
    let results_path = settings.scratch.join(format!("{}.results.json", info.name));
    let results_path = std::path::absolute(&results_path).unwrap_or(results_path);
    let _ = std::fs::remove_file(&results_path);
    let load_before = super::machine::load_average();
    let started_at = now_rfc3339();
    let started = Instant::now();
    let environment = |cmd: &mut Command| {
        cmd.current_dir(&info.dir)
            .env("MEASURED_RESULTS", &results_path);
        if settings.quick {
            cmd.env("MEASURED_QUICK", "1");
        } else {
            cmd.env_remove("MEASURED_QUICK");
        }
    };
    let ran = process::run(
        &binary,
        environment,
        settings.timeout,
        LIMITS,
        &process::DETECTED,
    )
    .map_err(|e| fail(format!("cannot start {}: {e}", binary.display())))?;
    let elapsed = started.elapsed();
    let exit = match ran.status {
        None => Exit::TimedOut,
        Some(s) => s.code().map_or(Exit::Signal, Exit::Code),
    };
    let results = (exit == Exit::Code(0))
        .then(|| read_results(&results_path))
        .flatten();
    let outcome = outcome_of(Ended {
        exit,
        stdout: String::from_utf8_lossy(&ran.stdout).into_owned(),
        stdout_total: ran.stdout_total,
        stderr: String::from_utf8_lossy(&ran.stderr).into_owned(),
        results,
        started_at,
        elapsed,
        load_before,
        load_after: super::machine::load_average(),
        timeout: settings.timeout,
    })?;
    let _ = std::fs::remove_file(&results_path);
    Ok(outcome)
}

/// The results file an experiment wrote, read at most one byte past [`MAX_RESULTS`] (a bigger
/// one is refused by [`outcome_of`] from its size), and only if it is a regular file.
fn read_results(path: &Path) -> Option<Results> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    if meta.len() > MAX_RESULTS as u64 {
        return Some(Results::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_RESULTS as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(if bytes.len() > MAX_RESULTS {
        Results::TooLarge(bytes.len() as u64)
    } else {
        Results::Read(bytes)
    })
}

/// A size in bytes as a message says it: `512 bytes`, `256 KB`, `300.0 MB`.
fn size(bytes: u64) -> String {
    const KB: u64 = 1 << 10;
    const MB: u64 = 1 << 20;
    if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else if bytes >= KB {
        format!("{} KB", bytes / KB)
    } else {
        format!("{bytes} bytes")
    }
}

pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

pub fn now_rfc3339() -> String {
    let now = jiff::Timestamp::now();
    format!(
        "{}Z",
        now.to_zoned_datetime(jiff::tz::TimeZone::UTC)
            .datetime()
            .round(jiff::Unit::Second)
            .unwrap_or_default()
    )
}
