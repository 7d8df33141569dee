//! Which `ssh -o` options `[hosts.NAME] ssh_options` may pass: an allow-list of options that
//! only tune the connection to the one host named. A `site.toml` travels with the blog's
//! repository, so a clone of someone else's blog must not make `measured run --on` run a
//! command here (`ProxyCommand`, `KnownHostsCommand`, `LocalCommand`, `Match exec`), load a
//! library (`PKCS11Provider`), write where it likes, forward the agent or the environment, or
//! reach other hosts (`ProxyJump`, which ssh turns into a second `ssh` started through the
//! shell). What a connection of yours needs beyond the list belongs in your own
//! `~/.ssh/config`, under a `Host` that `ssh = "…"` names.

/// Options that only tune the connection (lowercase, as ssh compares them).
const ALLOWED: &[&str] = &[
    "addressfamily",
    "batchmode",
    "bindaddress",
    "bindinterface",
    "canonicaldomains",
    "canonicalizehostname",
    "certificatefile",
    "checkhostip",
    "ciphers",
    "compression",
    "connectionattempts",
    "connecttimeout",
    "fingerprinthash",
    "globalknownhostsfile",
    "hashknownhosts",
    "hostbasedacceptedalgorithms",
    "hostkeyalgorithms",
    "hostkeyalias",
    "hostname",
    "identitiesonly",
    "identityfile",
    "ipqos",
    "kbdinteractiveauthentication",
    "kexalgorithms",
    "loglevel",
    "macs",
    "numberofpasswordprompts",
    "passwordauthentication",
    "port",
    "preferredauthentications",
    "pubkeyacceptedalgorithms",
    "pubkeyacceptedkeytypes",
    "pubkeyauthentication",
    "rekeylimit",
    "serveralivecountmax",
    "serveraliveinterval",
    "stricthostkeychecking",
    "tcpkeepalive",
    "user",
    "userknownhostsfile",
];

/// Options refused for what they do, with why (the rest of those not allowed are refused as
/// unknown to measured).
const REFUSED: &[(&str, &str)] = &[
    ("proxycommand", "runs a command on this machine"),
    ("knownhostscommand", "runs a command on this machine"),
    ("localcommand", "runs a command on this machine"),
    (
        "permitlocalcommand",
        "lets LocalCommand run a command on this machine",
    ),
    ("match", "can run a command on this machine (`Match exec`)"),
    (
        "proxyjump",
        "makes ssh start a second ssh on this machine, through the shell, and reach another host than the one named",
    ),
    ("proxyusefdpass", "hands the connection to a ProxyCommand"),
    (
        "pkcs11provider",
        "loads a library into ssh on this machine, which runs its code",
    ),
    (
        "securitykeyprovider",
        "loads a library into ssh on this machine, which runs its code",
    ),
    (
        "include",
        "reads another configuration, which may run commands",
    ),
    (
        "remotecommand",
        "replaces the command measured runs on the host",
    ),
    (
        "controlpath",
        "shares the connection through a socket file on this machine",
    ),
    (
        "controlmaster",
        "shares the connection through a socket file on this machine",
    ),
    (
        "controlpersist",
        "keeps a connection running here after measured ends",
    ),
    (
        "forwardagent",
        "lends the host your SSH agent, so it can use your keys",
    ),
    ("forwardx11", "lends the host your display"),
    (
        "sendenv",
        "sends this machine's environment variables to the host",
    ),
    ("setenv", "sets environment variables on the host"),
    ("localforward", "opens ports on this machine"),
];

/// The options whose value is a known_hosts file, which `StrictHostKeyChecking=accept-new`
/// appends to: a file named like one, or none.
const KNOWN_HOSTS: &[&str] = &["userknownhostsfile", "globalknownhostsfile"];

/// The options whose value ssh uses as a host or user name.
const NAMES: &[&str] = &["hostname", "hostkeyalias", "user"];

/// What is wrong with one entry of `ssh_options` (`Key=Value` or `Key Value`), if anything:
/// the message and the hint.
pub(super) fn problem(entry: &str) -> Option<(String, &'static str)> {
    let (key, value) = split(entry);
    let lower = key.to_ascii_lowercase();
    if let Some((_, why)) = REFUSED.iter().find(|(k, _)| *k == lower) {
        return Some((
            format!("`{key}` {why}, and a site.toml must not"),
            "a site.toml travels with the blog's repository: measured passes ssh only options that tune the connection to the host named. Put what your own connection needs in your ~/.ssh/config under a Host, and write ssh = \"that-host\"",
        ));
    }
    if !ALLOWED.contains(&lower.as_str()) {
        return Some((
            format!("`{key}` is not among the ssh options measured passes on"),
            "ssh_options takes options that tune the connection (StrictHostKeyChecking, UserKnownHostsFile, ConnectTimeout, Port, User, IdentityFile, HostKeyAlias, Ciphers, …); anything else belongs in your ~/.ssh/config under a Host, with ssh = \"that-host\"",
        ));
    }
    if KNOWN_HOSTS.contains(&lower.as_str()) {
        let bad = value.split_whitespace().find(|f| {
            let name = f.rsplit('/').next().unwrap_or_default();
            !(*f == "/dev/null" || f.eq_ignore_ascii_case("none") || name.contains("known_hosts"))
        });
        if let Some(file) = bad {
            return Some((
                format!("`{key}` names `{file}`, which is no known_hosts file"),
                "ssh may append host keys to it: name /dev/null, or a file whose name holds known_hosts (~/.ssh/known_hosts)",
            ));
        }
    }
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || "._-:@%[]".contains(c);
    if NAMES.contains(&lower.as_str()) && (value.is_empty() || !value.chars().all(is_name_char)) {
        return Some((
            format!("`{key}` = {value:?} is not a host or user name"),
            "a name holds letters, digits and `.`, `_`, `-`, `:`, `@`, `%`, `[`, `]`",
        ));
    }
    None
}

/// An option's key and value: `Key=Value`, `Key Value` or `Key = Value`.
fn split(entry: &str) -> (&str, &str) {
    let entry = entry.trim();
    let end = entry
        .find(|c: char| c == '=' || c.is_whitespace())
        .unwrap_or(entry.len());
    let (key, rest) = entry.split_at(end);
    let value = rest.trim_start();
    let value = value.strip_prefix('=').unwrap_or(value).trim();
    (key, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_that_run_commands_or_reach_further_are_refused_with_why() {
        for (entry, why) in [
            (
                "ProxyCommand=touch /tmp/pwned",
                "`ProxyCommand` runs a command on this machine",
            ),
            (
                "proxycommand touch /tmp/pwned",
                "`proxycommand` runs a command on this machine",
            ),
            (
                "KnownHostsCommand=/bin/sh -c 'touch x'",
                "`KnownHostsCommand` runs a command",
            ),
            ("LocalCommand=touch x", "`LocalCommand` runs a command"),
            (
                "PermitLocalCommand=yes",
                "`PermitLocalCommand` lets LocalCommand run a command",
            ),
            (
                "Match exec \"touch x\"",
                "`Match` can run a command on this machine",
            ),
            (
                "ProxyJump = me@bastion",
                "`ProxyJump` makes ssh start a second ssh",
            ),
            (
                "PKCS11Provider=/tmp/evil.so",
                "`PKCS11Provider` loads a library",
            ),
            (
                "ForwardAgent=yes",
                "`ForwardAgent` lends the host your SSH agent",
            ),
            (
                "SendEnv=AWS_*",
                "`SendEnv` sends this machine's environment",
            ),
            (
                "RemoteForward 8080 localhost:80",
                "`RemoteForward` is not among",
            ),
            (
                "Foo=bar",
                "`Foo` is not among the ssh options measured passes on",
            ),
        ] {
            let (message, hint) = problem(entry).unwrap_or_else(|| panic!("{entry} passed"));
            assert!(message.starts_with(why), "{entry}: {message}");
            assert!(hint.contains("~/.ssh/config"), "{hint}");
        }
    }

    #[test]
    fn connection_options_pass_and_their_values_are_checked() {
        for ok in [
            "StrictHostKeyChecking=accept-new",
            "UserKnownHostsFile=/dev/null",
            "UserKnownHostsFile ~/.ssh/known_hosts /etc/ssh/ssh_known_hosts2",
            "ConnectTimeout=3",
            "HostKeyAlias=box.example.org",
            "User=me",
            "Port=2222",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        let (m, _) = problem("UserKnownHostsFile=~/.bashrc").unwrap();
        assert_eq!(
            m,
            "`UserKnownHostsFile` names `~/.bashrc`, which is no known_hosts file"
        );
        let (m, _) = problem("HostKeyAlias=x;touch y").unwrap();
        assert!(m.contains("is not a host or user name"), "{m}");
    }
}
