//! `measured run --on HOST`: the experiments measured on a host `site.toml` names, through the
//! system `ssh` client, in steps: probe the host, copy the workspace there (its build cache
//! kept between runs), describe its machine, build with its own cargo, run each experiment
//! there one at a time as the local runner does, and bring the runs back as results files,
//! imported as the host's machine through the checks of `results import`. Nothing is
//! installed on the host, and nothing is written here unless every experiment ran.

pub mod archive;
pub mod scripts;
pub mod ssh;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::machine::Machine;
use super::machines::{self, Imported};
use super::results_file::ResultsFile;
use super::runs::run_of;
use super::{CrateInfo, Progress, Run, measure_command, runner, workspace};
use measured_content::config::{HostConfig, SiteConfig};
use measured_core::diag::{Diagnostic, Diagnostics, Place};

use ssh::{Call, Failure, Reply, Ssh};

/// The time a step that only asks the host something may take (ssh's connection included).
const QUICK_STEP: Duration = Duration::from_secs(60);
/// What a run may take beyond the experiment's timeout: connecting, and sending its output.
const RUN_MARGIN: Duration = Duration::from_secs(60);

/// What `run --on` measures, and where.
#[derive(Debug, Clone)]
pub struct RunOnOptions {
    /// The host's name in `site.toml`.
    pub host: String,
    /// The experiments to measure.
    pub names: Vec<String>,
}

/// What a `run --on` did.
#[derive(Debug, Clone)]
pub struct RanOn {
    pub host: HostConfig,
    /// The host's machine, as it described itself.
    pub machine: Machine,
    /// The results files added to `machines/<machine>/`.
    pub imported: Vec<Imported>,
    /// Process runs made there.
    pub runs: usize,
}

/// Measures `opts.names` on host `opts.host`, `[experiments] runs` times each, and imports
/// the results as its machine. Quick mode is never used: the results are for publishing.
pub fn run_on(
    config: &SiteConfig,
    opts: &RunOnOptions,
    progress: &dyn Progress,
) -> Result<RanOn, Diagnostics> {
    let host = find_host(config, &opts.host)?;
    let dir = &config.experiments.dir;
    let crates = workspace::discover(dir)?;
    let names = check_names(dir, &crates, &opts.names)?;
    let remote = Remote {
        host,
        ssh: Ssh::new(host),
        progress,
    };
    remote.probe()?;
    remote.copy(dir)?;
    let machine = remote.describe()?;
    let lock_hash = remote.build(&crates, &names)?;
    let session = Session {
        crates: &crates,
        machine: &machine,
        lock_hash: &lock_hash,
        timeout: config.experiments.timeout,
    };
    let runs = remote.measure_all(&session, &names, config.experiments.runs)?;
    let files = runs
        .into_iter()
        .map(|(name, runs)| {
            let label = PathBuf::from(format!("{}:{}/src/{name}", host.ssh, host.dir));
            (label, Ok(ResultsFile::new(&name, runs).to_json()))
        })
        .collect();
    let imported = machines::import_read(config, files, Some(&host.machine))?;
    Ok(RanOn {
        host: host.clone(),
        machine,
        runs: names.len() * config.experiments.runs,
        imported,
    })
}

/// How a command on the host ended, for a message: `exit status 3`, or killed by a signal.
fn status_text(status: Option<i32>) -> String {
    status.map_or_else(
        || "ssh was ended by a signal".to_string(),
        |code| format!("exit status {code}"),
    )
}

/// The host `name` of `site.toml`, or an error naming those it has.
fn find_host<'c>(config: &'c SiteConfig, name: &str) -> Result<&'c HostConfig, Diagnostic> {
    if let Some(host) = config.hosts.get(name) {
        return Ok(host);
    }
    let site = config.root.join("site.toml");
    let hint = if config.hosts.is_empty() {
        format!(
            "declare it in site.toml:\n\n    [hosts.{name}]\n    ssh = \"user@192.0.2.7\"\n\n(docs/authoring.md, Other machines and readers' results)"
        )
    } else {
        let names: Vec<&str> = config.hosts.keys().map(String::as_str).collect();
        match measured_core::diag::closest(name, names.iter().copied()) {
            Some(c) => format!(
                "did you mean `{c}`? site.toml's hosts are: {}",
                names.join(", ")
            ),
            None => format!("site.toml's hosts are: {}", names.join(", ")),
        }
    };
    Err(Diagnostic::new(
        Place::file(site),
        format!("--on {name}: site.toml names no host `{name}` ([hosts.{name}])"),
    )
    .with_hint(hint))
}

/// The experiments named, each one of the workspace, sorted and once each.
fn check_names(
    dir: &Path,
    crates: &BTreeMap<String, CrateInfo>,
    names: &[String],
) -> Result<Vec<String>, Diagnostics> {
    let mut diags = Diagnostics::default();
    if names.is_empty() {
        diags.push(
            Diagnostic::new(
                Place::file(dir),
                "there is no experiment to run: the pages use none",
            )
            .with_hint("name the experiments to run: `measured run --on HOST NAME…`"),
        );
    }
    for name in names.iter().filter(|n| !crates.contains_key(*n)) {
        let hint = measured_core::diag::did_you_mean(
            name,
            crates.keys().map(String::as_str),
            "the experiments are",
        );
        diags.push(
            Diagnostic::new(
                Place::file(dir),
                format!("`{name}` is not an experiment of this site"),
            )
            .with_hint(hint),
        );
    }
    let mut names = names.to_vec();
    names.sort();
    names.dedup();
    diags.into_result(names)
}

/// What every run on the host is recorded with.
struct Session<'a> {
    crates: &'a BTreeMap<String, CrateInfo>,
    machine: &'a Machine,
    /// Hash of the lockfile as the host built it.
    lock_hash: &'a str,
    timeout: Duration,
}

/// Why a run on the host stopped.
enum Stop {
    /// The host could not be reached or did not run the script: no other run can go on.
    Host(Diagnostic),
    /// The experiment failed there: the others go on, so that every failure is reported.
    Experiment(Diagnostic),
}

/// One host, step by step.
struct Remote<'a> {
    host: &'a HostConfig,
    ssh: Ssh,
    progress: &'a dyn Progress,
}

impl Remote<'_> {
    /// An error of `step` on this host, at its table in `site.toml`, with what the host wrote
    /// on stderr.
    fn error(&self, step: &str, what: &str, stderr: &str, hint: &str) -> Diagnostic {
        let port = self
            .host
            .port
            .map(|p| format!(", port {p}"))
            .unwrap_or_default();
        let mut message = format!(
            "host `{}` ({}{port}): {step}: {what}",
            self.host.name, self.host.ssh
        );
        let tail = runner::tail(stderr, 25);
        if !tail.trim().is_empty() {
            message.push_str(&format!("\n--- the host's stderr (last lines) ---\n{tail}"));
        }
        Diagnostic::new(self.host.place.clone(), message).with_hint(hint)
    }

    /// Runs `call` for `step`; ssh's own failures (it could not start, connect, or ran past the
    /// timeout) are errors here, the script's are its caller's.
    fn call(&self, step: &str, call: &Call<'_>) -> Result<Reply, Diagnostic> {
        let reach = format!(
            "check that `{} true` works from here without a prompt: ssh runs in batch mode, so it needs a key (an agent, or identity = \"…\" in [hosts.{}]) and the host's key in known_hosts",
            self.ssh.shown, self.host.name
        );
        match self.ssh.run(call) {
            Err(Failure::Spawn(e)) => Err(self.error(
                step,
                &format!("cannot run ssh here: {e}"),
                "",
                "install OpenSSH's client (Debian: apt-get install openssh-client)",
            )),
            Err(Failure::TimedOut(after, stderr)) => Err(self.error(
                step,
                &format!("no answer within {} s; ssh was stopped", after.as_secs()),
                &stderr,
                &reach,
            )),
            Ok(reply) if reply.status == Some(255) || reply.status.is_none() => Err(self.error(
                step,
                "ssh could not connect, or lost the connection (exit status 255)",
                &reply.stderr,
                &reach,
            )),
            Ok(reply) => Ok(reply),
        }
    }

    fn quick_call<'s>(&self, script: &'s str) -> Call<'s> {
        Call {
            script,
            input: None,
            timeout: Some(QUICK_STEP),
            on_line: None,
        }
    }

    /// Connects, and checks that the host has tar, cargo and rustc.
    fn probe(&self) -> Result<(), Diagnostic> {
        self.progress.remote_step(&self.host.name, "connecting");
        let script = scripts::probe(self.host);
        let reply = self.call("connect", &self.quick_call(&script))?;
        let stdout = String::from_utf8_lossy(&reply.stdout);
        let Some(probe) = scripts::read_probe(&stdout).filter(|_| reply.status == Some(0)) else {
            return Err(self.error(
                "connect",
                &format!("the host's shell did not run measured's check ({})", status_text(reply.status)),
                &reply.stderr,
                "measured runs `sh -c '…'` through the login shell: the account needs a POSIX shell (sh, bash, dash, zsh)",
            ));
        };
        if probe.missing.is_empty() {
            return Ok(());
        }
        let what = format!(
            "the host has no {} (its PATH in an ssh session: {})",
            probe.missing.join(", "),
            probe.path
        );
        let hint = if probe.missing.iter().any(|m| m == "cargo" || m == "rustc") {
            format!(
                "install a Rust toolchain on the host (rustup, or its distribution's cargo package): measured installs nothing there. If it is installed, add its folder to path = [\"…\"] in [hosts.{}]",
                self.host.name
            )
        } else {
            "install tar on the host: measured installs nothing there".to_string()
        };
        Err(self.error("connect", &what, "", &hint))
    }

    /// Replaces the host's copy of the workspace `dir` (its build cache is kept).
    fn copy(&self, dir: &Path) -> Result<(), Diagnostic> {
        let (archive, files) = archive::workspace(dir).map_err(|e| {
            measured_core::diag::io_error(dir, "read the experiments to copy them", &e)
        })?;
        self.progress.remote_step(
            &self.host.name,
            &format!(
                "copying the experiments ({files} files, {} KB) to {}",
                archive.len() / 1024,
                self.host.dir
            ),
        );
        let script = scripts::copy(self.host);
        let reply = self.call(
            "copy",
            &Call {
                script: &script,
                input: Some(&archive),
                timeout: None,
                on_line: None,
            },
        )?;
        if reply.status == Some(0) && reply.stdout.ends_with(b"measured-copy-ok\n") {
            return Ok(());
        }
        let name = &self.host.name;
        let (what, hint) = match reply.status {
            Some(scripts::NOT_OURS) => (
                format!(
                    "the folder {} on the host holds files measured did not put there, and measured writes only into a folder of its own",
                    self.host.dir
                ),
                format!(
                    "choose a folder that is new or empty with dir = \"…\" in [hosts.{name}], or empty {} on the host yourself",
                    self.host.dir
                ),
            ),
            Some(scripts::UNPACK_FAILED) => (
                format!(
                    "the host's tar could not unpack the experiments into {}",
                    self.host.dir
                ),
                "its error is above; check the space left on the host (`df -h` there)".to_string(),
            ),
            status => (
                format!(
                    "the experiments could not be written into {} ({})",
                    self.host.dir,
                    status_text(status)
                ),
                format!(
                    "check that the host can write there, or choose another dir = \"…\" in [hosts.{name}]"
                ),
            ),
        };
        Err(self.error("copy", &what, &reply.stderr, &hint))
    }

    /// The host's machine, as it describes itself.
    fn describe(&self) -> Result<Machine, Diagnostic> {
        let script = scripts::describe(self.host);
        let reply = self.call("describe", &self.quick_call(&script))?;
        let facts = scripts::read_facts(&String::from_utf8_lossy(&reply.stdout))
            .filter(|_| reply.status == Some(0));
        facts.map(|f| Machine::of_facts(&f)).ok_or_else(|| {
            self.error(
                "describe",
                "the host did not describe its machine (its CPU, cores, kernel and `rustc -vV`)",
                &reply.stderr,
                "run `rustc -vV` on the host, in the copy of the experiments, to see why it fails",
            )
        })
    }

    /// Builds `names` on the host; the hash of the lockfile as it built them.
    fn build(
        &self,
        crates: &BTreeMap<String, CrateInfo>,
        names: &[String],
    ) -> Result<String, Diagnostics> {
        self.progress.compile_started(names);
        let started = Instant::now();
        let script = scripts::build(self.host, names);
        let on_line = |line: &str| self.progress.compile_line(line);
        let reply = self.call(
            "build",
            &Call {
                script: &script,
                input: None,
                timeout: None,
                on_line: Some(&on_line),
            },
        );
        let ok = reply.as_ref().is_ok_and(|r| r.status == Some(0));
        self.progress.compile_finished(ok, started.elapsed());
        let reply = reply?;
        if ok {
            return Ok(blake3::hash(&scripts::read_lock(&reply.stdout))
                .to_hex()
                .to_string());
        }
        let lines: Vec<String> = reply.stderr.lines().map(str::to_string).collect();
        let failure = runner::failure_of(&lines, names);
        let mut diags = Diagnostics::default();
        for name in &failure.failed {
            diags.push(
                Diagnostic::new(
                    Place::file(&crates[name].dir),
                    format!("experiment `{name}` does not compile on host `{}`:\n{}", self.host.name, failure.stderr_tail),
                )
                .with_hint(format!(
                    "the errors are the host's cargo's (its toolchain: `rustc -vV` there); see them all with `cargo build --release -p {name}` in {}/src on the host",
                    self.host.dir
                )),
            );
        }
        Err(diags)
    }

    /// Runs each experiment of `names` `count` times, one run of each per round (as the
    /// local runner does), and returns every run of each; any failure fails them all.
    fn measure_all(
        &self,
        s: &Session<'_>,
        names: &[String],
        count: usize,
    ) -> Result<BTreeMap<String, Vec<Run>>, Diagnostics> {
        let mut runs: BTreeMap<String, Vec<Run>> = BTreeMap::new();
        let mut diags = Diagnostics::default();
        let mut failed = std::collections::BTreeSet::new();
        let total = names.len() * count;
        let mut index = 0;
        for _ in 0..count {
            for name in names {
                if failed.contains(name) {
                    continue;
                }
                index += 1;
                self.progress.run_started(name, index, total);
                let started = Instant::now();
                let run = self.run_once(s, name);
                self.progress
                    .run_finished(name, run.is_ok(), started.elapsed());
                match run {
                    Ok(run) => runs.entry(name.clone()).or_default().push(run),
                    // The host is gone: the other runs would fail the same way.
                    Err(Stop::Host(d)) => {
                        diags.push(d);
                        return Err(diags);
                    }
                    Err(Stop::Experiment(d)) => {
                        diags.push(d);
                        failed.insert(name.clone());
                    }
                }
            }
        }
        diags.into_result(runs)
    }

    /// One run of experiment `name` on the host, checked by the local runner's code.
    fn run_once(&self, s: &Session<'_>, name: &str) -> Result<Run, Stop> {
        let info = &s.crates[name];
        let script = scripts::run(
            self.host,
            &scripts::RunScript {
                name,
                timeout: s.timeout,
            },
        );
        let started_at = runner::now_rfc3339();
        let started = Instant::now();
        let reply = self
            .call(
                &format!("run {name}"),
                &Call {
                    script: &script,
                    input: None,
                    timeout: Some(s.timeout + RUN_MARGIN),
                    on_line: None,
                },
            )
            .map_err(Stop::Host)?;
        let elapsed = started.elapsed();
        let Some(ran) = scripts::read_run(&reply.stdout) else {
            return Err(Stop::Host(self.error(
                &format!("run {name}"),
                &format!("the host's answer is not what measured's run script prints ({})", status_text(reply.status)),
                &reply.stderr,
                &format!("is the experiment built on the host? `measured run --on {}` builds it first; run it again", self.host.name),
            )));
        };
        let ended = runner::Ended {
            exit: ran
                .status
                .map_or(runner::Exit::TimedOut, runner::Exit::Code),
            stdout: String::from_utf8_lossy(&ran.stdout).into_owned(),
            stdout_total: ran.stdout_total,
            stderr: reply.stderr,
            results: ran.results,
            started_at,
            elapsed,
            load_before: ran.load_before,
            load_after: ran.load_after,
            timeout: s.timeout,
        };
        let outcome = runner::outcome_of(ended).map_err(|f| {
            let mut message = format!("experiment `{name}` failed on host `{}`: {}", self.host.name, f.what);
            if !f.stderr_tail.trim().is_empty() {
                message.push_str(&format!("\n--- stderr (last lines) ---\n{}", f.stderr_tail));
            }
            Stop::Experiment(Diagnostic::new(Place::file(&info.dir), message).with_hint(format!(
                "nothing was imported: the results are imported only when every experiment ran; fix it and run `measured run --on {}` again",
                self.host.name
            )))
        })?;
        Ok(run_of(
            outcome,
            info,
            s.lock_hash,
            s.machine,
            false,
            measure_command(name),
        ))
    }
}
