//! A throwaway PostgreSQL cluster: initdb in a temporary folder, a server listening on
//! 127.0.0.1 only, stopped and removed on drop (also when the experiment panics).

use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
/// A running throwaway cluster. Dropping it stops the server
/// (`pg_ctl stop -m immediate`) and deletes the folder.
pub struct Cluster {
    pub port: u16,
    bin: PathBuf,
    data: PathBuf,
    user: Option<(u32, u32)>,
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
            dir,
        };
        cluster.run(
            "initdb",
            &["-D", path(&cluster.data), "-U", "postgres", "-A", "trust"],
            &["-E", "UTF8", "--locale=C", "--no-sync"],
        )?;
        cluster.port = free_port()?;
        let opts = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off -c synchronous_commit=off",
            cluster.port,
            path(cluster.dir.path())
        );
        let log = cluster.dir.path().join("log");
        cluster.run(
            "pg_ctl",
            &["-D", path(&cluster.data), "-l", path(&log), "-o", &opts],
            &["-w", "-t", "30", "start"],
        )?;
        Ok(cluster)
    }

    fn run(&self, tool: &str, args: &[&str], more: &[&str]) -> Result<(), BoxError> {
        let mut cmd = Command::new(self.bin.join(tool));
        cmd.args(args)
            .args(more)
            .current_dir(self.dir.path())
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        if let Some((uid, gid)) = self.user {
            cmd.uid(uid).gid(gid);
        }
        let out = cmd.output()?;
        if !out.status.success() {
            let log = std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default();
            return Err(format!(
                "{tool} failed ({}): {}{log}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        Ok(())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let pid_file = self.data.join("postmaster.pid");
        if pid_file.exists() {
            let _ = self.run(
                "pg_ctl",
                &["-D", path(&self.data), "-m", "immediate"],
                &["-w", "stop"],
            );
        }
        // If the server is somehow still there, kill it before removing its files.
        if let Ok(text) = std::fs::read_to_string(&pid_file)
            && let Some(pid) = text
                .lines()
                .next()
                .and_then(|l| l.trim().parse::<i32>().ok())
        {
            // SAFETY: plain kill(2) on the postmaster's pid read from its pid file.
            unsafe { libc::kill(pid, libc::SIGKILL) };
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
