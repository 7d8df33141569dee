//! `[hosts.NAME]` of `site.toml`: the machines `measured run --on NAME` reaches with the system
//! `ssh` client, what it passes to ssh, and where on the host it keeps the copy of the
//! experiments and their build. Separate from the rest of the configuration: only `run --on`
//! reads it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// What a `[hosts.NAME]` table says.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHost {
    /// The destination, passed to ssh as it is: `user@192.0.2.7`, or a `Host` of ~/.ssh/config.
    ssh: String,
    port: Option<u16>,
    /// A private key file (`ssh -i`).
    identity: Option<PathBuf>,
    /// More `-o` options for ssh, `Key=Value` each.
    ssh_options: Option<Vec<String>>,
    /// The folder on the host that holds the copy and its build (default under ~/.cache).
    dir: Option<String>,
    /// The machine name the results are imported as (default: the host's name).
    machine: Option<String>,
    /// Folders put before the host's PATH, where its cargo and rustc are.
    path: Option<Vec<String>>,
}

/// A host `measured run --on NAME` measures on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostConfig {
    /// Its name in `site.toml` and on the command line.
    pub name: String,
    /// The destination ssh is given.
    pub ssh: String,
    pub port: Option<u16>,
    /// The key file, relative paths taken from the site root (`~` left to ssh).
    pub identity: Option<PathBuf>,
    /// `-o` options, in order, before measured's own (ssh keeps the first value of an option).
    pub ssh_options: Vec<String>,
    /// The folder on the host, as written: absolute, `~/…`, or relative to the home folder.
    pub dir: String,
    /// The machine id its results are kept under, `machines/<machine>/`.
    pub machine: String,
    /// Folders put before PATH on the host (after `~/.cargo/bin`, always tried).
    pub path: Vec<String>,
    /// Where `site.toml` declares it.
    pub place: Place,
}

/// Where a host's folder is when `site.toml` does not say: one folder per site, named after
/// its `base_url`, so two sites measured on one host keep their builds apart.
fn default_dir(base_url: &str) -> String {
    let site = base_url
        .split_once("://")
        .map_or(base_url, |(_, rest)| rest);
    let site = slug::slugify(site);
    format!(
        "~/.cache/measured-run/{}",
        if site.is_empty() { "site" } else { &site }
    )
}

/// The line (1-based) of `[hosts.NAME]`, or of its `key` when given and found in the table.
fn line_of(text: &str, name: &str, key: Option<&str>) -> Option<usize> {
    let headers = [format!("[hosts.{name}]"), format!("[hosts.\"{name}\"]")];
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| {
        headers
            .iter()
            .any(|h| l.trim_start().starts_with(h.as_str()))
    })?;
    let found = key.and_then(|key| {
        lines[header + 1..]
            .iter()
            .take_while(|l| !l.trim_start().starts_with('['))
            .position(|l| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
            })
            .map(|i| header + 1 + i)
    });
    Some(found.unwrap_or(header) + 1)
}

/// What makes a string unfit for the host's command line or its shell, if anything.
fn text_problem(s: &str) -> Option<&'static str> {
    if s.trim().is_empty() {
        Some("is empty")
    } else if s.chars().any(char::is_control) {
        Some("holds a control character (a line break?)")
    } else {
        None
    }
}

/// Where the host table's text is, for errors.
pub(super) struct Source<'a> {
    pub root: &'a Path,
    pub path: &'a Path,
    pub text: &'a str,
    pub base_url: &'a str,
}

/// The `[hosts]` tables, validated; every problem goes to `diags`, at its line.
pub(super) fn validate(
    raw: BTreeMap<String, RawHost>,
    src: &Source<'_>,
    diags: &mut Diagnostics,
) -> BTreeMap<String, HostConfig> {
    let mut hosts = BTreeMap::new();
    for (name, host) in raw {
        let place = |key: Option<&str>| match line_of(src.text, &name, key) {
            Some(line) => Place::at(src.path, line, 1),
            None => Place::file(src.path),
        };
        let RawHost {
            ssh,
            port,
            identity,
            ssh_options,
            dir,
            machine,
            path,
        } = host;
        let host = HostConfig {
            name: name.clone(),
            ssh,
            port,
            identity: identity.map(|i| {
                if i.is_absolute() || i.starts_with("~") {
                    i
                } else {
                    src.root.join(i)
                }
            }),
            ssh_options: ssh_options.unwrap_or_default(),
            dir: dir.unwrap_or_else(|| default_dir(src.base_url)),
            machine: machine.unwrap_or_else(|| name.clone()),
            path: path.unwrap_or_default(),
            place: place(None),
        };
        let found = problems(&host);
        if found.is_empty() {
            hosts.insert(name.clone(), host);
        }
        for (key, message, hint) in found {
            let place = place(Some(key));
            let line = place.line;
            let d = Diagnostic::new(place, format!("[hosts.{name}] {message}")).with_hint(hint);
            diags.push(match line {
                Some(l) => d.with_line_of(src.text, l),
                None => d,
            });
        }
    }
    hosts
}

/// A problem of a host table: its key, what is wrong, what to do.
type Problem = (&'static str, String, &'static str);

/// What is wrong with a host as its table gives it, key by key.
fn problems(h: &HostConfig) -> Vec<Problem> {
    let mut found: Vec<Problem> = Vec::new();
    // The name is typed after `run --on` and shown in hints as a command to paste: one plain word.
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if h.name.is_empty() || h.name.starts_with('-') || !h.name.chars().all(plain) {
        found.push((
            "[hosts.",
            format!(
                "the host's name {:?} is not one word of letters, digits, `-`, `_` and `.`",
                h.name
            ),
            "name the host like [hosts.big-box]: it is what you type after `measured run --on`",
        ));
    }
    if let Some(problem) = text_problem(&h.ssh) {
        found.push(("ssh", format!("ssh {problem}"), "write the destination as you would give it to ssh: `user@192.0.2.7`, or a Host of your ~/.ssh/config"));
    } else if h.ssh.starts_with('-') || h.ssh.contains(char::is_whitespace) {
        found.push((
            "ssh",
            format!("ssh = {:?} is not a destination (it starts with `-` or holds a space)", h.ssh),
            "put ssh's options in ssh_options = [\"Key=Value\"], port and identity; ssh is only `user@host`",
        ));
    }
    if h.port == Some(0) {
        found.push((
            "port",
            "port = 0 is no port".into(),
            "write the port sshd listens on (22 by default)",
        ));
    }
    for o in &h.ssh_options {
        let problem = text_problem(o).or_else(|| {
            (o.starts_with('-') || !o.contains(['=', ' '])).then_some("is not `Key=Value`")
        });
        if let Some(problem) = problem {
            found.push((
                "ssh_options",
                format!("ssh_options entry {o:?} {problem}"),
                "each entry is an option of ssh_config(5) as `-o` takes it: \"StrictHostKeyChecking=yes\"",
            ));
        } else if let Some((problem, hint)) = super::ssh_options::problem(o) {
            found.push((
                "ssh_options",
                format!("ssh_options entry {o:?}: {problem}"),
                hint,
            ));
        }
    }
    if let Some(problem) = text_problem(&h.dir) {
        found.push((
            "dir",
            format!("dir {problem}"),
            "name a folder on the host, such as \"~/.cache/measured-run/blog\"",
        ));
    }
    for p in &h.path {
        if let Some(problem) = text_problem(p).or_else(|| p.contains(':').then_some("holds `:`")) {
            found.push((
                "path",
                format!("path entry {p:?} {problem}"),
                "each entry is one folder of the host, such as \"/opt/rust/bin\"",
            ));
        }
    }
    if let Some(problem) = crate::config::machine_id_problem(&h.machine) {
        found.push((
            "machine",
            format!(
                "its results are kept as machine `{}`, and {problem}",
                h.machine
            ),
            "name the host like `big-box`, or give it machine = \"big-box\"",
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "base_url = \"https://blog.example.org/\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"Đo thật\"\n";

    fn parse(hosts: &str) -> Result<crate::config::SiteConfig, String> {
        let text = format!("{MINIMAL}{hosts}");
        crate::config::parse(Path::new("/site"), Path::new("/site/site.toml"), &text)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_host_gets_its_defaults_and_a_relative_identity_is_the_sites() {
        let c = parse("[hosts.big-box]\nssh = \"me@192.0.2.7\"\nidentity = \"keys/id\"\n").unwrap();
        let h = &c.hosts["big-box"];
        assert_eq!(h.ssh, "me@192.0.2.7");
        assert_eq!(h.machine, "big-box");
        assert_eq!(h.dir, "~/.cache/measured-run/blog-example-org");
        assert_eq!(h.identity.as_deref(), Some(Path::new("/site/keys/id")));
        assert_eq!(h.place.line, Some(5));
        assert!(h.ssh_options.is_empty() && h.path.is_empty() && h.port.is_none());
        assert!(parse("").unwrap().hosts.is_empty());
    }

    #[test]
    fn ssh_options_that_run_commands_here_are_errors_at_their_line() {
        for option in [
            "ProxyCommand=touch /tmp/pwned",
            "KnownHostsCommand=touch /tmp/pwned",
            "LocalCommand=touch /tmp/pwned",
            "PermitLocalCommand=yes",
            "Match exec \\\"touch /tmp/pwned\\\"",
            "ProxyJump=me@bastion",
        ] {
            let e = parse(&format!(
                "[hosts.box]\nssh = \"me@h\"\nssh_options = [\"StrictHostKeyChecking=yes\", \"{option}\"]\n"
            ))
            .unwrap_err();
            let key = option.split(['=', ' ']).next().unwrap();
            assert!(
                e.contains("site.toml:7:1: error: [hosts.box] ssh_options entry")
                    && e.contains(&format!("`{key}` ")),
                "{option}: {e}"
            );
            assert!(e.contains("~/.ssh/config"), "{e}");
        }
    }

    #[test]
    fn bad_host_tables_are_errors_at_their_lines() {
        let e = parse("[hosts.box]\nssh = \"-oProxyCommand=x\"\nport = 0\nssh_options = [\"-v\"]\ndir = \"a\\nb\"\n")
            .unwrap_err();
        for want in [
            "site.toml:6:1: error: [hosts.box] ssh = \"-oProxyCommand=x\" is not a destination",
            "site.toml:7:1: error: [hosts.box] port = 0 is no port",
            "site.toml:8:1: error: [hosts.box] ssh_options entry \"-v\" is not `Key=Value`",
            "site.toml:9:1: error: [hosts.box] dir holds a control character",
        ] {
            assert!(e.contains(want), "{want}\n{e}");
        }
        let e = parse("[hosts.Big_Box]\nssh = \"me@h\"\n").unwrap_err();
        assert!(
            e.contains("site.toml:5:1: error: [hosts.Big_Box] its results are kept as machine `Big_Box`, and machine id `Big_Box` is not lowercase"),
            "{e}"
        );
        assert!(parse("[hosts.Big_Box]\nssh = \"me@h\"\nmachine = \"big-box\"\n").is_ok());
        let e = parse("[hosts.\"a;touch b\"]\nssh = \"me@h\"\nmachine = \"box\"\n").unwrap_err();
        assert!(
            e.contains("site.toml:5:1: error: [hosts.a;touch b] the host's name \"a;touch b\" is not one word"),
            "{e}"
        );
        let e = parse("[hosts.box]\nssh = \"me@h\"\nuser = \"me\"\n").unwrap_err();
        assert!(e.contains("unknown field `user`"), "{e}");
    }
}
