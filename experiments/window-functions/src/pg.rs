//! A throwaway PostgreSQL cluster: initdb in a temporary folder, a server listening on
//! 127.0.0.1 only, stopped and removed on drop (also when the experiment panics).

use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Where `initdb` and `pg_ctl` are: `PG_BIN` if set, else the newest
/// /usr/lib/postgresql/<ver>/bin (Debian), else `PATH`.
pub fn find_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let ver = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((ver, bin))
        })
        .collect();
    debian.sort();
    if let Some((_, bin)) = debian.pop() {
        return Some(bin);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .find(|d| d.join("initdb").exists() && d.join("pg_ctl").exists())
}

/// The user PostgreSQL runs as: when we are root, the `postgres` account
/// (PostgreSQL refuses to run as root); otherwise ourselves.
fn run_as() -> Result<Option<(u32, u32)>, BoxError> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    // SAFETY: the name is a valid C string; the returned record is read at once,
    // before any other passwd call.
    let pw = unsafe { libc::getpwnam(c"postgres".as_ptr()) };
    if pw.is_null() {
        return Err("running as root and there is no `postgres` user".into());
    }
    // SAFETY: pw is non-null and points to a valid passwd record.
    let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
    Ok(Some((uid, gid)))
}

// ANCHOR: cluster
/// A running throwaway cluster. The server is `postgres` itself, started as this
/// process's child and in its process group: `pg_ctl start` would detach it with
/// `setsid`, and a timeout that kills the experiment's group would leave it running.
/// Dropping the cluster stops the server (SIGQUIT, PostgreSQL's immediate shutdown),
/// waits for it, and deletes the folder.
pub struct Cluster {
    pub port: u16,
    bin: PathBuf,
    data: PathBuf,
    user: Option<(u32, u32)>,
    server: Option<Child>,
    dir: tempfile::TempDir,
}

impl Cluster {
    pub fn start(bin: &Path) -> Result<Cluster, BoxError> {
        let user = run_as()?;
        let dir = tempfile::Builder::new().prefix("window-pg-").tempdir()?;
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))?;
        }
        let data = dir.path().join("data");
        let mut cluster = Cluster {
            port: 0,
            bin: bin.to_path_buf(),
            data,
            user,
            server: None,
            dir,
        };
        let data = path(&cluster.data).to_owned();
        let init = &["-D", &data, "-U", "postgres", "-A", "trust"];
        let mut initdb = cluster.command("initdb", init);
        initdb.args(["-E", "UTF8", "--locale=C", "--no-sync"]);
        let out = initdb.stdout(Stdio::null()).output()?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(format!("initdb failed ({}): {err}", out.status).into());
        }
        cluster.port = free_port()?;
        let (port, socket_dir) = (
            cluster.port.to_string(),
            path(cluster.dir.path()).to_owned(),
        );
        let log = std::fs::File::create(cluster.dir.path().join("log"))?;
        let mut postgres =
            cluster.command("postgres", &["-D", &data, "-p", &port, "-k", &socket_dir]);
        postgres.args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]);
        postgres.args(["-c", "synchronous_commit=off"]);
        postgres.stdout(log.try_clone()?).stderr(log);
        cluster.server = Some(postgres.spawn()?);
        cluster.wait_ready(Duration::from_secs(30))?;
        Ok(cluster)
    }

    /// A PostgreSQL tool with the cluster's folder, locale and user.
    fn command(&self, tool: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(self.bin.join(tool));
        cmd.args(args)
            .current_dir(self.dir.path())
            .env("LC_ALL", "C")
            .stdin(Stdio::null());
        if let Some((uid, gid)) = self.user {
            cmd.uid(uid).gid(gid);
        }
        cmd
    }

    /// Waits, at most `limit`, until the server says "ready" in its pid file (the
    /// eighth line, PostgreSQL 10 and later); fails at once if it exits.
    fn wait_ready(&mut self, limit: Duration) -> Result<(), BoxError> {
        let pid_file = self.data.join("postmaster.pid");
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(server) = self.server.as_mut()
                && let Some(status) = server.try_wait()?
            {
                let log = std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default();
                return Err(
                    format!("postgres exited ({status}) before it was ready: {log}").into(),
                );
            }
            let text = std::fs::read_to_string(&pid_file).unwrap_or_default();
            if text.lines().nth(7).is_some_and(|l| l.trim() == "ready") {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(format!("postgres was not ready after {} s", limit.as_secs()).into())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(mut server) = self.server.take() {
            let pid = i32::try_from(server.id()).expect("pids fit in i32");
            // SAFETY: kill(2) on our own child, which has not been reaped yet.
            unsafe { libc::kill(pid, libc::SIGQUIT) };
            let stopping = Instant::now();
            while matches!(server.try_wait(), Ok(None))
                && stopping.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = server.kill();
            let _ = server.wait();
        }
        // `dir` (a TempDir) is removed when this struct's fields drop.
    }
}
// ANCHOR_END: cluster

fn path(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

/// A port that was free on 127.0.0.1 a moment ago.
fn free_port() -> Result<u16, BoxError> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}
