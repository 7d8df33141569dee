//! One process of an experiment run, held from start to end: started in a session of its own
//! (a PID namespace where the system allows one, else tracked through `/proc` by
//! [`tracker`]), its stdout and stderr read within bounds while it runs, and read no more once
//! it has exited or its time is up; then everything it started is killed, `setsid` daemons
//! included. Separate from [`super::runner`], which decides what to run and what its results
//! mean.

pub mod tracker;

use std::io::Read;
use std::os::fd::AsFd;
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// How much of a run's output is kept.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The first bytes of stdout kept (the rest is counted, not kept).
    pub stdout: usize,
    /// The last bytes of stderr kept.
    pub stderr: usize,
}

/// How a run is held so that what it starts ends with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Containment {
    /// In a PID namespace of its own (`unshare` with these options): when the run's first
    /// process exits, the kernel kills every other process of the namespace.
    Namespace(Vec<&'static str>),
    /// Watched through `/proc` ([`tracker`]), with this process as the subreaper of orphans.
    Tracked,
}

/// The containment this system allows, found once: a PID namespace if `unshare` can make one
/// (as root, or in a user namespace of the current user), else tracking.
pub static DETECTED: LazyLock<Containment> = LazyLock::new(|| {
    let options: [&[&'static str]; 2] = [
        &["--pid", "--fork", "--kill-child"],
        &[
            "--user",
            "--map-current-user",
            "--pid",
            "--fork",
            "--kill-child",
        ],
    ];
    options
        .into_iter()
        .find(|opts| {
            Command::new("unshare")
                .args(*opts)
                .args(["--", "true"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .map_or(Containment::Tracked, |opts| {
            Containment::Namespace(opts.to_vec())
        })
});

/// What a run left.
#[derive(Debug)]
pub struct Ran {
    /// How it ended; `None`: it ran past its timeout and was killed.
    pub status: Option<ExitStatus>,
    /// The first [`Limits::stdout`] bytes it wrote to stdout.
    pub stdout: Vec<u8>,
    /// How many bytes it wrote to stdout in all.
    pub stdout_total: u64,
    /// The last [`Limits::stderr`] bytes it wrote to stderr.
    pub stderr: Vec<u8>,
}

/// Runs `program` as `cmd` describes it (its working folder and environment), held by
/// `containment`, for at most `timeout`.
pub fn run(
    program: &std::path::Path,
    cmd: impl FnOnce(&mut Command),
    timeout: Duration,
    limits: Limits,
    containment: &Containment,
) -> std::io::Result<Ran> {
    let tag = tracker::Tracker::new_tag();
    let mut command = match containment {
        Containment::Namespace(opts) => {
            // `sh` is the namespace's first process, so that the experiment is an ordinary
            // one (the first ignores signals it does not handle); its exit ends the others.
            let mut c = Command::new("unshare");
            c.args(opts)
                .args(["--", "sh", "-c", "\"$0\" \"$@\"; exit $?"])
                .arg(program);
            c
        }
        Containment::Tracked => {
            tracker::become_subreaper();
            let mut c = Command::new(program);
            c.env(tracker::TAG_VAR, &tag);
            c
        }
    };
    cmd(&mut command);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn()?;
    let mut tracked =
        (*containment == Containment::Tracked).then(|| tracker::Tracker::new(child.id(), tag));
    let mut pipes = Pipes::new(&mut child, limits);
    let status = wait(&mut child, &mut pipes, tracked.as_mut(), timeout)?;
    if let Some(t) = tracked.as_mut() {
        t.kill_all();
    }
    // What is already in the pipes, for a moment at most: a process that escaped every kill
    // must not hold the run open.
    pipes.drain(Duration::from_millis(200));
    Ok(pipes.finish(status))
}

/// Waits for `child` while reading its pipes: its exit status, or `None` at the timeout, when
/// it is killed with its process group.
fn wait(
    child: &mut Child,
    pipes: &mut Pipes,
    mut tracked: Option<&mut tracker::Tracker>,
    timeout: Duration,
) -> std::io::Result<Option<ExitStatus>> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            let pgid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
            let _ = killpg(pgid, Signal::SIGKILL);
            child.wait()?;
            return Ok(None);
        }
        pipes.pump((deadline - now).min(Duration::from_millis(50)));
        if let Some(t) = tracked.as_deref_mut() {
            t.scan();
        }
    }
}

/// The first bytes of a stream and how long it was.
struct Head {
    kept: Vec<u8>,
    total: u64,
    cap: usize,
}

/// The last bytes of a stream.
struct Tail {
    kept: Vec<u8>,
    cap: usize,
}

/// A run's stdout and stderr while they are open.
struct Pipes {
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    head: Head,
    tail: Tail,
    buf: Vec<u8>,
}

impl Pipes {
    fn new(child: &mut Child, limits: Limits) -> Pipes {
        Pipes {
            stdout: child.stdout.take(),
            stderr: child.stderr.take(),
            head: Head {
                kept: Vec::new(),
                total: 0,
                cap: limits.stdout,
            },
            tail: Tail {
                kept: Vec::new(),
                cap: limits.stderr,
            },
            buf: vec![0; 64 << 10],
        }
    }

    /// Reads what the pipes have, waiting at most `wait` for something.
    fn pump(&mut self, wait: Duration) {
        let timeout = PollTimeout::try_from(wait).unwrap_or(PollTimeout::MAX);
        let ready = {
            let mut fds: Vec<PollFd<'_>> = Vec::new();
            if let Some(p) = &self.stdout {
                fds.push(PollFd::new(p.as_fd(), PollFlags::POLLIN));
            }
            if let Some(p) = &self.stderr {
                fds.push(PollFd::new(p.as_fd(), PollFlags::POLLIN));
            }
            if fds.is_empty() {
                std::thread::sleep(wait);
                return;
            }
            if poll(&mut fds, timeout).is_err() {
                return;
            }
            fds.iter()
                .map(|f| f.any().unwrap_or(true))
                .collect::<Vec<bool>>()
        };
        let mut ready = ready.into_iter();
        let buf = &mut self.buf;
        if self.stdout.is_some() && ready.next() == Some(true) {
            match self.stdout.as_mut().map(|p| p.read(buf)) {
                Some(Ok(n)) if n > 0 => self.head.push(&buf[..n]),
                _ => self.stdout = None,
            }
        }
        if self.stderr.is_some() && ready.next() == Some(true) {
            match self.stderr.as_mut().map(|p| p.read(buf)) {
                Some(Ok(n)) if n > 0 => self.tail.push(&buf[..n]),
                _ => self.stderr = None,
            }
        }
    }

    /// Reads until both pipes are closed, for at most `grace`.
    fn drain(&mut self, grace: Duration) {
        let until = Instant::now() + grace;
        while self.stdout.is_some() || self.stderr.is_some() {
            let now = Instant::now();
            if now >= until {
                break;
            }
            self.pump(until - now);
        }
    }

    fn finish(self, status: Option<ExitStatus>) -> Ran {
        let Tail { mut kept, cap } = self.tail;
        kept.drain(..kept.len().saturating_sub(cap));
        Ran {
            status,
            stdout: self.head.kept,
            stdout_total: self.head.total,
            stderr: kept,
        }
    }
}

impl Head {
    fn push(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.total += bytes.len() as u64;
    }
}

impl Tail {
    fn push(&mut self, bytes: &[u8]) {
        self.kept.extend_from_slice(bytes);
        if self.kept.len() > 2 * self.cap {
            self.kept.drain(..self.kept.len() - self.cap);
        }
    }
}

#[cfg(test)]
mod tests;
