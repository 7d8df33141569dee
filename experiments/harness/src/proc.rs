//! Child processes that cannot outlive the experiment: `ChildGuard` kills
//! and reaps its child (or the child's whole process group) on drop, even
//! when the experiment panics.

use std::io;
use std::ops::{Deref, DerefMut};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a process group gets between SIGTERM and SIGKILL on drop.
const TERM_GRACE: Duration = Duration::from_secs(2);

/// Owns a running child process; on drop, kills it and waits for it.
///
/// Dereferences to [`Child`] (stdin/stdout handles, `id()`, `try_wait()`...).
#[derive(Debug)]
pub struct ChildGuard {
    child: Option<Child>,
    /// The child leads its own process group (see [`spawn_group`]).
    group: bool,
}

/// Spawns `cmd` as a guarded child. On drop it gets SIGKILL and is reaped.
pub fn spawn(cmd: &mut Command) -> io::Result<ChildGuard> {
    Ok(ChildGuard {
        child: Some(cmd.spawn()?),
        group: false,
    })
}

/// Spawns `cmd` in a new process group led by the child
/// (`process_group(0)`). On drop the whole group gets SIGTERM, then SIGKILL
/// after a short grace period if the leader has not exited: use this for
/// servers started through a shell or that fork workers.
pub fn spawn_group(cmd: &mut Command) -> io::Result<ChildGuard> {
    cmd.process_group(0);
    Ok(ChildGuard {
        child: Some(cmd.spawn()?),
        group: true,
    })
}

impl ChildGuard {
    /// Guards an already spawned child (killed alone, not as a group).
    pub fn new(child: Child) -> ChildGuard {
        ChildGuard {
            child: Some(child),
            group: false,
        }
    }

    /// Guards a child spawned in its own process group by the caller.
    pub fn new_group(child: Child) -> ChildGuard {
        ChildGuard {
            child: Some(child),
            group: true,
        }
    }

    /// Waits for the child to exit by itself, then disarms the guard.
    pub fn wait(mut self) -> io::Result<ExitStatus> {
        let mut child = self.child.take().expect("child present");
        child.wait()
    }

    /// Gives the child up without killing it.
    pub fn into_inner(mut self) -> Child {
        self.child.take().expect("child present")
    }

    /// Stops the child now (as on drop) and returns its exit status.
    pub fn stop(mut self) -> io::Result<ExitStatus> {
        self.terminate()
    }

    fn terminate(&mut self) -> io::Result<ExitStatus> {
        let mut child = self.child.take().expect("child present");
        if let Some(status) = child.try_wait()? {
            if self.group {
                signal_group(child.id(), libc::SIGKILL);
            }
            return Ok(status);
        }
        if self.group {
            let pgid = child.id();
            signal_group(pgid, libc::SIGTERM);
            let deadline = Instant::now() + TERM_GRACE;
            let status = loop {
                if let Some(s) = child.try_wait()? {
                    break Some(s);
                }
                if Instant::now() >= deadline {
                    break None;
                }
                sleep(Duration::from_millis(5));
            };
            // Whatever is left of the group (workers, grandchildren) dies too.
            signal_group(pgid, libc::SIGKILL);
            match status {
                Some(s) => Ok(s),
                None => child.wait(),
            }
        } else {
            let _ = child.kill();
            child.wait()
        }
    }
}

/// Sends `sig` to process group `pgid` (ignores "no such process").
fn signal_group(pgid: u32, sig: libc::c_int) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return;
    };
    if pgid > 1 {
        // SAFETY: kill(2) with a negative pid signals a process group; it
        // has no memory-safety preconditions.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

impl Deref for ChildGuard {
    type Target = Child;
    fn deref(&self) -> &Child {
        self.child.as_ref().expect("child present")
    }
}

impl DerefMut for ChildGuard {
    fn deref_mut(&mut self) -> &mut Child {
        self.child.as_mut().expect("child present")
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if self.child.is_some() {
            let _ = self.terminate();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(pid: u32) -> bool {
        // SAFETY: signal 0 only checks for existence.
        unsafe { libc::kill(pid as libc::pid_t, 0) == 0 }
    }

    #[test]
    fn drop_kills_child() {
        let g = spawn(Command::new("sleep").arg("30")).unwrap();
        let pid = g.id();
        assert!(alive(pid));
        drop(g);
        assert!(!alive(pid));
    }

    #[test]
    fn drop_kills_group() {
        // The shell forks a grandchild `sleep`; the group kill reaches it.
        let mut g = spawn_group(
            Command::new("sh")
                .arg("-c")
                .arg("sleep 30 & echo $!; wait")
                .stdout(std::process::Stdio::piped()),
        )
        .unwrap();
        let mut line = String::new();
        use std::io::BufRead;
        std::io::BufReader::new(g.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let grandchild: u32 = line.trim().parse().unwrap();
        assert!(alive(grandchild));
        drop(g);
        // the grandchild is not ours to reap: wait until init has done it
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(grandchild) && Instant::now() < deadline {
            sleep(Duration::from_millis(10));
        }
        assert!(!alive(grandchild));
    }

    #[test]
    fn wait_disarms() {
        let g = spawn(&mut Command::new("true")).unwrap();
        assert!(g.wait().unwrap().success());
    }
}
