//! Experiment progress on the terminal: indicatif bars when stderr is a terminal (compile and
//! each run, with name, elapsed time and how many are left), plain lines otherwise.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use measured::experiments::Progress;

/// Progress for `build`, `check`, `freeze`, `measure` and `run --on`.
pub struct Terminal {
    tty: bool,
    bar: Mutex<Option<ProgressBar>>,
    /// In a log (no terminal): the compile's heartbeat, so a log shows a line at least every
    /// 30 s while cargo compiles a crate that takes long.
    heartbeat: Mutex<Option<Heartbeat>>,
    /// Crates cargo finished compiling in this compile.
    compiled: Arc<AtomicUsize>,
}

/// A thread that prints a line every [`BEAT`] until stopped.
struct Heartbeat {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

/// How often a log hears from a compile that prints nothing else.
const BEAT: Duration = Duration::from_secs(20);

impl Heartbeat {
    fn start(compiled: Arc<AtomicUsize>) -> Heartbeat {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut last = Instant::now();
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if last.elapsed() >= BEAT {
                    last = Instant::now();
                    eprintln_line(&format!(
                        "still compiling experiments ({}s so far, {} crates begun)",
                        started.elapsed().as_secs(),
                        compiled.load(Ordering::Relaxed)
                    ));
                }
            }
        });
        Heartbeat { stop, thread }
    }

    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal {
            tty: std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
            heartbeat: Mutex::new(None),
            compiled: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn spinner(&self, msg: String) {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar.set_message(msg);
        *self.bar.lock().expect("progress") = Some(bar);
    }

    fn finish(&self, line: String) {
        if let Some(bar) = self.bar.lock().expect("progress").take() {
            bar.finish_and_clear();
        }
        eprintln_line(&line);
    }
}

#[allow(
    clippy::print_stderr,
    reason = "progress is printed by the binary, never by the library"
)]
fn eprintln_line(line: &str) {
    eprintln!("{line}");
}

impl Progress for Terminal {
    fn compile_started(&self, names: &[String]) {
        let msg = format!(
            "compiling {} experiment(s): {}",
            names.len(),
            names.join(", ")
        );
        if self.tty {
            self.spinner(msg)
        } else {
            eprintln_line(&msg);
            self.compiled.store(0, Ordering::Relaxed);
            *self.heartbeat.lock().expect("progress") =
                Some(Heartbeat::start(self.compiled.clone()));
        }
    }

    fn compile_line(&self, line: &str) {
        if let Some(bar) = self.bar.lock().expect("progress").as_ref() {
            bar.set_message(format!("compiling: {}", line.trim()));
        }
        // In a log, each crate cargo starts (its own progress lines are for terminals).
        let line = line.trim();
        if !self.tty && line.starts_with("Compiling ") {
            self.compiled.fetch_add(1, Ordering::Relaxed);
            eprintln_line(&format!("  {line}"));
        }
    }

    fn compile_finished(&self, ok: bool, elapsed: Duration) {
        if let Some(beat) = self.heartbeat.lock().expect("progress").take() {
            beat.stop();
        }
        self.finish(format!(
            "compiled experiments in {:.1?}{}",
            elapsed,
            if ok { "" } else { " (with errors)" }
        ));
    }

    fn run_started(&self, name: &str, index: usize, total: usize) {
        let msg = format!(
            "running {name} ({index}/{total}, {} left after it)",
            total - index
        );
        if self.tty {
            self.spinner(msg)
        } else {
            eprintln_line(&msg)
        }
    }

    fn remeasure_started(&self, names: &[String], claims: &[String], round: usize) {
        eprintln_line(&format!(
            "{} claim(s) inconclusive ({}): measuring {} once more (round {round})",
            claims.len(),
            claims.join(", "),
            names.join(", ")
        ));
    }

    fn restart_started(&self, names: &[String], claims: &[String]) {
        eprintln_line(&format!(
            "{} claim(s) not decided by the runs of an earlier build ({}): measuring {} again",
            claims.len(),
            claims.join(", "),
            names.join(", ")
        ));
    }

    fn remeasure_finished(&self, runs: usize, elapsed: Duration) {
        eprintln_line(&format!(
            "extra runs for inconclusive claims: {runs} in {elapsed:.1?}"
        ));
    }

    fn remote_step(&self, host: &str, step: &str) {
        eprintln_line(&format!("{host}: {step}"));
    }

    fn run_finished(&self, name: &str, ok: bool, elapsed: Duration) {
        self.finish(format!(
            "{} {name} in {:.1?}",
            if ok { "ran" } else { "FAILED" },
            elapsed
        ));
    }
}
