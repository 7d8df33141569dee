//! A real OpenSSH server on 127.0.0.1, started by a test as the current user from a temporary
//! folder (its own host key, client key, authorized_keys and config), and killed when dropped.
//! Nothing of ~/.ssh is read for keys or written: the client side is the `[hosts.NAME]` table
//! [`Sshd::host_toml`] writes.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SSHD: &str = "/usr/sbin/sshd";
const SETUP: &str = "install OpenSSH (as root: scripts/setup-ssh.sh, which `make test` runs; or apt-get install openssh-server openssh-client)";

pub struct Sshd {
    child: Child,
    pub port: u16,
    pub dir: tempfile::TempDir,
    pub user: String,
}

/// A loopback port nothing listens on (now).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}; {SETUP}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

impl Sshd {
    /// An sshd on a free loopback port; `wrap` is a command it runs under (`taskset -c 0`).
    pub fn start(wrap: &[&str]) -> Sshd {
        assert!(
            Path::new(SSHD).is_file(),
            "the `run --on` tests need OpenSSH's server at {SSHD}: {SETUP}"
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        for key in ["host_key", "client_key"] {
            run(Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-C", "measured-test", "-f"])
                .arg(d.join(key)));
        }
        std::fs::copy(d.join("client_key.pub"), d.join("authorized_keys")).expect("copy key");
        let user = run(Command::new("id").arg("-un"));
        // sshd may lose the race for a port it was told was free: try another.
        let mut last = String::new();
        for _ in 0..3 {
            let port = free_port();
            match spawn(d, port, wrap) {
                Ok(child) => {
                    return Sshd {
                        child,
                        port,
                        dir,
                        user,
                    };
                }
                Err(e) => last = e,
            }
        }
        panic!("sshd did not start: {last}\n({SETUP})");
    }

    /// The key a client logs in with.
    pub fn identity(&self) -> PathBuf {
        self.dir.path().join("client_key")
    }

    /// A `[hosts.NAME]` table reaching this server, its folder there `remote_dir`.
    pub fn host_toml(&self, name: &str, remote_dir: &Path) -> String {
        format!(
            "[hosts.{name}]\nssh = \"{}@127.0.0.1\"\nport = {}\nidentity = {:?}\nssh_options = [\"StrictHostKeyChecking=no\", \"UserKnownHostsFile={}\"]\ndir = {:?}\n",
            self.user,
            self.port,
            self.identity().display().to_string(),
            self.dir.path().join("known_hosts").display(),
            remote_dir.display().to_string(),
        )
    }
}

/// Starts sshd on `port` with its files in `d`, and waits until it listens.
fn spawn(d: &Path, port: u16, wrap: &[&str]) -> Result<Child, String> {
    let config = d.join("sshd_config");
    std::fs::write(
        &config,
        format!(
            "ListenAddress 127.0.0.1\nPort {port}\nHostKey {}\nAuthorizedKeysFile {}\nPidFile {}\nStrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\nUseDNS no\n",
            d.join("host_key").display(),
            d.join("authorized_keys").display(),
            d.join("sshd.pid").display(),
        ),
    )
    .expect("write sshd_config");
    let mut cmd = match wrap.split_first() {
        Some((program, args)) => {
            let mut c = Command::new(program);
            c.args(args).arg(SSHD);
            c
        }
        None => Command::new(SSHD),
    };
    let mut child = cmd
        .args(["-D", "-e", "-f"])
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {SSHD}: {e}"))?;
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    // Reads sshd's log to its end, so that it never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut log = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("Server listening on") {
                let _ = tx.send(Ok(()));
            }
            log.push_str(&line);
            log.push('\n');
        }
        let _ = tx.send(Err(log));
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(Ok(())) => Ok(child),
        Ok(Err(log)) => {
            let _ = child.wait();
            Err(log)
        }
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            Err("it did not listen within 20 s".into())
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
