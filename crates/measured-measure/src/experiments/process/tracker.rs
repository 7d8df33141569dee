//! Everything a run started, found through `/proc` where no PID namespace holds it: measured
//! becomes the subreaper of orphans (a `setsid` daemon whose parent exits comes back to it,
//! not to init), notes the run's process tree as it grows, and at the end kills every process
//! that is in that tree, in the run's process group or session, or that carries the run's tag
//! in its environment, until none is left, reaping those that came back to it.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

/// The environment variable that carries a run's tag to every process it starts.
pub const TAG_VAR: &str = "MEASURED_RUN";

/// How often the tree is walked while the run goes on.
const SCAN_EVERY: Duration = Duration::from_millis(50);

/// Makes this process the subreaper of its descendants' orphans (idempotent).
pub fn become_subreaper() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// What `/proc/<pid>/stat` says of a process.
#[derive(Debug, Clone, Copy)]
struct Stat {
    state: u8,
    ppid: i32,
    pgrp: i32,
    session: i32,
    /// Clock ticks since boot when it started: a pid reused later starts later.
    start: u64,
}

/// The processes of one run.
pub struct Tracker {
    root: i32,
    root_start: u64,
    tag: String,
    /// Every process seen in the run's tree, with when it started.
    known: BTreeMap<i32, u64>,
    scanned: Instant,
}

impl Tracker {
    /// A tag no other run has (this process's id, the time, and a count).
    pub fn new_tag() -> String {
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{}-{nanos}-{n}", std::process::id())
    }

    /// Tracks the run whose first process is `root`, started with `tag` in its environment.
    pub fn new(root: u32, tag: String) -> Tracker {
        let root = i32::try_from(root).unwrap_or(i32::MAX);
        let root_start = stat(root).map_or(0, |s| s.start);
        Tracker {
            root,
            root_start,
            tag,
            known: BTreeMap::from([(root, root_start)]),
            scanned: Instant::now(),
        }
    }

    /// Notes the processes the tree has now (at most every [`SCAN_EVERY`]).
    pub fn scan(&mut self) {
        if self.scanned.elapsed() < SCAN_EVERY {
            return;
        }
        self.scanned = Instant::now();
        let mut queue: Vec<i32> = self.known.keys().copied().collect();
        while let Some(pid) = queue.pop() {
            for child in children(pid) {
                if self.known.contains_key(&child) {
                    continue;
                }
                if let Some(s) = stat(child).filter(|s| s.start >= self.root_start) {
                    self.known.insert(child, s.start);
                    queue.push(child);
                }
            }
        }
    }

    /// Kills every process of the run, round after round until none is left (a process may
    /// start another while it is being killed), and reaps those that are this process's.
    pub fn kill_all(&mut self) {
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        for _ in 0..100 {
            let members = self.members();
            let alive: Vec<(i32, Stat)> = members
                .iter()
                .copied()
                .filter(|(_, s)| s.state != b'Z')
                .collect();
            for &(pid, _) in &alive {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            for &(pid, s) in &members {
                if s.ppid == me && pid != self.root {
                    let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
                }
            }
            if alive.is_empty() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Every process of the run now, with its stat.
    fn members(&mut self) -> Vec<(i32, Stat)> {
        let all: BTreeMap<i32, Stat> = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| Some((pid, stat(pid)?)))
            .filter(|(_, s)| s.start >= self.root_start)
            .collect();
        let mut members = Vec::new();
        for (&pid, &s) in &all {
            if self.is_member(pid, s, &all) {
                self.known.insert(pid, s.start);
                members.push((pid, s));
            }
        }
        members
    }

    fn is_member(&self, pid: i32, s: Stat, all: &BTreeMap<i32, Stat>) -> bool {
        if self.known.get(&pid) == Some(&s.start)
            || s.pgrp == self.root
            || s.session == self.root
            || has_tag(pid, &self.tag)
        {
            return true;
        }
        // A descendant of a known process.
        let mut at = s.ppid;
        for _ in 0..all.len() {
            match all.get(&at) {
                Some(p) if self.known.get(&at) == Some(&p.start) => return true,
                Some(p) => at = p.ppid,
                None => return false,
            }
        }
        false
    }
}

/// The `/proc/<pid>/stat` of a process, if it is still there.
fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces and parentheses: fields follow the last.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(Stat {
        state: fields.first()?.bytes().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        session: fields.get(3)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// The children of every thread of `pid`.
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<i32>>()
        })
        .collect()
}

/// Whether the environment of `pid` holds the run's tag.
fn has_tag(pid: i32, tag: &str) -> bool {
    let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
        return false;
    };
    let wanted = format!("{TAG_VAR}={tag}");
    environ.split(|&b| b == 0).any(|v| v == wanted.as_bytes())
}
