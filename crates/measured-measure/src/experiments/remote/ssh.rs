//! The system `ssh` client as `run --on` drives it: the arguments for a host of `site.toml`
//! (never a prompt, bounded waits), POSIX shell quoting of what it sends, and one remote
//! command run with its input, its output and a time limit.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use measured_content::config::HostConfig;

/// Seconds ssh waits for a host to answer before it gives up.
pub const CONNECT_TIMEOUT_SECS: u32 = 10;

/// The most of a reply's stdout kept: more than any script prints (a run's is bounded by its
/// limits), so a longer one is not a reply of measured's scripts.
const MAX_STDOUT: u64 = 64 << 20;
/// The last lines of a reply's stderr kept (cargo's errors, an experiment's end of stderr).
const MAX_STDERR_LINES: usize = 2000;

/// `s` as one word of a POSIX shell command: in single quotes, each `'` written `'\''`.
pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `s` as a word a person can paste into a shell: as it is when it holds only characters no
/// shell reads specially, else [`quote`]d (an identity file named `k; touch x` runs nothing).
pub fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c));
    if plain { s.to_string() } else { quote(s) }
}

/// A folder of the host as a shell word: `~` and `~/…` from the home folder (`"$HOME"`, which
/// the host's shell expands), a relative path from the home folder too (where ssh starts), an
/// absolute one as it is.
pub fn quote_path(path: &str) -> String {
    if path == "~" {
        "\"$HOME\"".to_string()
    } else if let Some(rest) = path.strip_prefix("~/") {
        format!("\"$HOME\"/{}", quote(rest))
    } else if path.starts_with('/') {
        quote(path)
    } else {
        format!("\"$HOME\"/{}", quote(path))
    }
}

/// How to reach one host.
#[derive(Debug, Clone)]
pub struct Ssh {
    /// ssh's options and the destination, before the command.
    options: Vec<OsString>,
    /// The command that connects as measured does, for messages, each word quoted for a shell
    /// ([`shell_word`]): `ssh -o BatchMode=yes -p 2222 me@host`.
    pub shown: String,
}

impl Ssh {
    pub fn new(host: &HostConfig) -> Ssh {
        // ssh keeps the first value it reads of an option: BatchMode comes before the host's
        // options so that nothing can make ssh prompt; the bounds after them, as defaults.
        let mut options: Vec<String> = vec!["-T".into(), "-o".into(), "BatchMode=yes".into()];
        let mut shown = vec!["ssh".to_string(), "-o".into(), "BatchMode=yes".into()];
        for o in &host.ssh_options {
            options.extend(["-o".into(), o.clone()]);
            shown.extend(["-o".into(), o.clone()]);
        }
        for o in [
            format!("ConnectTimeout={CONNECT_TIMEOUT_SECS}"),
            "ServerAliveInterval=15".into(),
            "ServerAliveCountMax=4".into(),
            "ForwardAgent=no".into(),
            "ForwardX11=no".into(),
        ] {
            options.extend(["-o".into(), o]);
        }
        if let Some(port) = host.port {
            options.extend(["-p".into(), port.to_string()]);
            shown.extend(["-p".into(), port.to_string()]);
        }
        let mut options: Vec<OsString> = options.into_iter().map(OsString::from).collect();
        if let Some(identity) = &host.identity {
            options.extend(["-o".into(), "IdentitiesOnly=yes".into(), "-i".into()]);
            options.push(identity.clone().into_os_string());
            shown.extend(["-i".into(), identity.display().to_string()]);
        }
        options.extend(["--".into(), host.ssh.clone().into()]);
        shown.push(host.ssh.clone());
        let shown: Vec<String> = shown.iter().map(|w| shell_word(w)).collect();
        Ssh {
            options,
            shown: shown.join(" "),
        }
    }

    /// ssh's arguments to run `script` on the host: by `sh`, whatever the login shell, which
    /// `exec` makes the session's process group leader (so the run script can end what an
    /// experiment left behind).
    pub fn args(&self, script: &str) -> Vec<OsString> {
        let mut args = self.options.clone();
        args.push(format!("exec sh -c {}", quote(script)).into());
        args
    }

    /// Runs `call` on the host and waits for it, at most its timeout.
    pub fn run(&self, call: &Call<'_>) -> Result<Reply, Failure> {
        let mut child = Command::new("ssh")
            .args(self.args(call.script))
            .stdin(if call.input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(Failure::Spawn)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        std::thread::scope(|scope| {
            if let (Some(mut pipe), Some(input)) = (stdin, call.input) {
                // A host that stops reading fails the write when ssh ends: nothing is lost.
                scope.spawn(move || {
                    let _ = pipe.write_all(input);
                });
            }
            // Both read to their end (ssh must not block on a full pipe), within bounds: a
            // reply longer than any script's is not read whole.
            let out = scope.spawn(move || {
                let mut buf = Vec::new();
                if let Some(p) = stdout {
                    let mut p = p.take(MAX_STDOUT);
                    let _ = p.read_to_end(&mut buf);
                    let _ = std::io::copy(&mut p.into_inner(), &mut std::io::sink());
                }
                buf
            });
            let err = scope.spawn(move || {
                let mut lines = std::collections::VecDeque::new();
                if let Some(p) = stderr {
                    for line in BufReader::new(p).lines().map_while(Result::ok) {
                        if let Some(on_line) = call.on_line {
                            on_line(&line);
                        }
                        if lines.len() == MAX_STDERR_LINES {
                            lines.pop_front();
                        }
                        lines.push_back(line);
                    }
                }
                Vec::from(lines).join("\n")
            });
            let status = wait(&mut child, call.timeout);
            let stdout = out.join().unwrap_or_default();
            let stderr = err.join().unwrap_or_default();
            match status {
                Some(status) => Ok(Reply {
                    status: status.code(),
                    stdout,
                    stderr,
                }),
                None => Err(Failure::TimedOut(call.timeout.unwrap_or_default(), stderr)),
            }
        })
    }
}

/// Waits for `child`; past `timeout`, kills it and returns `None`.
fn wait(
    child: &mut std::process::Child,
    timeout: Option<Duration>,
) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if timeout.is_some_and(|t| started.elapsed() >= t) => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => {
                let _ = child.kill();
                return child.wait().ok();
            }
        }
    }
}

/// One command for the host.
pub struct Call<'a> {
    /// A POSIX `sh` script.
    pub script: &'a str,
    /// What the script reads on its standard input (none: `/dev/null`).
    pub input: Option<&'a [u8]>,
    /// Past this, ssh is killed (`None`: no limit but ssh's keep-alives, which end a session
    /// whose host stops answering).
    pub timeout: Option<Duration>,
    /// Called with each line the host writes to stderr, as it comes.
    pub on_line: Option<&'a (dyn Fn(&str) + Sync)>,
}

/// What the host answered.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The script's exit status; 255 is ssh's own failure (it could not connect, or lost the
    /// connection); `None` if a signal ended ssh.
    pub status: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Why a command could not be run to its end.
#[derive(Debug)]
pub enum Failure {
    /// `ssh` could not be started here.
    Spawn(std::io::Error),
    /// It ran past its timeout, and was killed; what it wrote on stderr.
    TimedOut(Duration, String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn host() -> HostConfig {
        HostConfig {
            name: "box".into(),
            ssh: "me@192.0.2.7".into(),
            port: Some(2222),
            identity: Some(PathBuf::from("/keys/id it's")),
            ssh_options: vec!["StrictHostKeyChecking=no".into(), "ConnectTimeout=3".into()],
            dir: "~/m".into(),
            machine: "box".into(),
            path: Vec::new(),
            place: measured_core::diag::Place::file("site.toml"),
        }
    }

    #[test]
    fn quoting_survives_quotes_spaces_and_the_home_folder() {
        assert_eq!(quote("plain"), "'plain'");
        assert_eq!(quote("it's a $HOME `x`"), r"'it'\''s a $HOME `x`'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote_path("~"), "\"$HOME\"");
        assert_eq!(quote_path("~/a b/it's"), r#""$HOME"/'a b/it'\''s'"#);
        assert_eq!(quote_path("rel/dir"), "\"$HOME\"/'rel/dir'");
        assert_eq!(quote_path("/tmp/x y"), "'/tmp/x y'");
        assert_eq!(quote_path("~user/x"), "\"$HOME\"/'~user/x'");
    }

    /// What a POSIX shell makes of a quoted word: the word back, whatever it holds.
    #[test]
    fn a_shell_reads_a_quoted_word_back_as_it_was() {
        for word in [
            "it's",
            "a b",
            "$(echo no)",
            "`no`",
            "\\'\"",
            "~/x",
            "-n",
            "\n",
            "",
        ] {
            let out = Command::new("sh")
                .args(["-c", &format!("printf %s {}", quote(word))])
                .output()
                .expect("sh");
            assert_eq!(String::from_utf8_lossy(&out.stdout), word);
        }
        let out = Command::new("sh")
            .args(["-c", &format!("printf %s {}", quote_path("~/a b"))])
            .env("HOME", "/home/me")
            .output()
            .expect("sh");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "/home/me/a b");
    }

    #[test]
    fn ssh_never_prompts_and_the_hosts_options_come_before_the_defaults() {
        let ssh = Ssh::new(&host());
        let args: Vec<String> = ssh
            .args("echo 'hi'")
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let pos = |a: &str| {
            args.iter()
                .position(|x| x == a)
                .unwrap_or_else(|| panic!("{a}: {args:?}"))
        };
        assert_eq!(&args[..3], ["-T", "-o", "BatchMode=yes"]);
        // ssh keeps the first ConnectTimeout: the host's 3 s wins over measured's 10 s.
        assert!(pos("ConnectTimeout=3") < pos("ConnectTimeout=10"));
        assert!(pos("StrictHostKeyChecking=no") > pos("BatchMode=yes"));
        assert_eq!(args[pos("-p") + 1], "2222");
        assert_eq!(args[pos("-i") + 1], "/keys/id it's");
        assert_eq!(args[pos("--") + 1], "me@192.0.2.7");
        assert_eq!(
            args.last().map(String::as_str),
            Some(r"exec sh -c 'echo '\''hi'\'''")
        );
        assert_eq!(pos("--") + 3, args.len());
        assert_eq!(
            ssh.shown,
            r"ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o ConnectTimeout=3 -p 2222 -i '/keys/id it'\''s' me@192.0.2.7"
        );
    }

    /// The command a hint shows, pasted into a shell, runs nothing but ssh with these words.
    #[test]
    fn the_command_shown_pastes_as_the_same_words() {
        let mut h = host();
        h.identity = Some(PathBuf::from("/keys/k; touch /tmp/pwned-$(id) `x` it's"));
        h.ssh_options = vec!["User=me".into(), "HostKeyAlias=a b;c".into()];
        let ssh = Ssh::new(&h);
        let echoed = ssh.shown.replacen("ssh ", "printf '%s\\n' ", 1);
        let out = Command::new("sh")
            .args(["-c", &echoed])
            .output()
            .expect("sh");
        let words: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(
            words,
            [
                "-o",
                "BatchMode=yes",
                "-o",
                "User=me",
                "-o",
                "HostKeyAlias=a b;c",
                "-p",
                "2222",
                "-i",
                "/keys/k; touch /tmp/pwned-$(id) `x` it's",
                "me@192.0.2.7"
            ]
        );
        assert_eq!(shell_word("me@192.0.2.7"), "me@192.0.2.7");
        assert_eq!(shell_word(""), "''");
    }
}
