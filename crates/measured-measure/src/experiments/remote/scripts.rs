//! The POSIX `sh` scripts `run --on` sends to a host, one per step, and the readers of what
//! they print back. Every value put in a script is quoted ([`quote`], [`quote_path`]); the
//! scripts use only what a POSIX system has (sh, tar, mkdir, rm, cat, wc, sleep, kill), and
//! the host's own cargo and rustc.

use std::collections::BTreeMap;
use std::time::Duration;

use super::ssh::{quote, quote_path};
use crate::experiments::machine::Facts;
use crate::experiments::{results_file, runner};
use measured_content::config::HostConfig;

/// What every script starts with: the host's folders before its PATH (rustup's
/// `~/.cargo/bin`, which a non-interactive session often lacks, then the host's `path`), and
/// `d`, the host's folder.
fn prelude(host: &HostConfig) -> String {
    let mut path = String::from("PATH=");
    for p in &host.path {
        path.push_str(&quote_path(p));
        path.push(':');
    }
    path.push_str("\"$HOME/.cargo/bin:$PATH\"");
    format!("{path}; export PATH\nd={}\n", quote_path(&host.dir))
}

/// Checks that the host answers and has what the other steps need.
pub fn probe(host: &HostConfig) -> String {
    format!(
        "{}for t in tar cargo rustc; do command -v \"$t\" >/dev/null 2>&1 || echo \"missing $t\"; done\necho \"path $PATH\"\necho measured-probe-ok\n",
        prelude(host)
    )
}

/// What [`probe`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The programs the host lacks, of tar, cargo and rustc.
    pub missing: Vec<String>,
    /// The host's PATH, as the session has it.
    pub path: String,
}

/// Reads [`probe`]'s output; `None` if the script did not run to its end.
pub fn read_probe(stdout: &str) -> Option<Probe> {
    if !stdout.lines().any(|l| l == "measured-probe-ok") {
        return None;
    }
    Some(Probe {
        missing: stdout
            .lines()
            .filter_map(|l| l.strip_prefix("missing "))
            .map(str::to_string)
            .collect(),
        path: stdout
            .lines()
            .find_map(|l| l.strip_prefix("path "))
            .unwrap_or_default()
            .to_string(),
    })
}

/// [`copy`]'s exit status when the host's folder holds files measured did not put there.
pub const NOT_OURS: i32 = 96;
/// [`copy`]'s exit status when tar could not unpack the archive.
pub const UNPACK_FAILED: i32 = 94;

/// Replaces the host's copy of the workspace, `$d/src`, with the tar archive on stdin,
/// keeping `$d/target` (the build cache). A folder measured did not make is left alone.
pub fn copy(host: &HostConfig) -> String {
    format!(
        r#"{}if [ -d "$d" ] && [ ! -e "$d/.measured-run" ] && [ -n "$(ls -A "$d")" ]; then
  echo "measured: $d holds files measured did not put there; it writes only into a folder of its own" >&2; exit {NOT_OURS}
fi
mkdir -p "$d" && : >"$d/.measured-run" || exit 95
rm -rf "$d/src.new" && mkdir "$d/src.new" || exit 95
tar -x -f - -C "$d/src.new" || exit {UNPACK_FAILED}
rm -rf "$d/src" && mv "$d/src.new" "$d/src" || exit 95
echo measured-copy-ok
"#,
        prelude(host)
    )
}

/// Describes the host's machine, from the copy's folder (a toolchain file there counts).
pub fn describe(host: &HostConfig) -> String {
    format!(
        r#"{}cd "$d/src" || exit 93
echo '== cores'; (unset OMP_NUM_THREADS OMP_THREAD_LIMIT; nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
echo '== cpuinfo'; grep '^model name' /proc/cpuinfo 2>/dev/null | head -n 1
echo '== meminfo'; grep '^MemTotal:' /proc/meminfo 2>/dev/null
echo '== osrelease'; cat /proc/sys/kernel/osrelease 2>/dev/null || uname -r
echo '== arch'; uname -m
echo '== online'; getconf _NPROCESSORS_ONLN 2>/dev/null
echo '== affinity'; sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null
echo '== rustc'; rustc -vV
echo '== end'
"#,
        prelude(host)
    )
}

/// The sections of a reply made of `== name` lines, each with the text up to the next one.
fn sections(stdout: &str) -> BTreeMap<&str, String> {
    let mut out: BTreeMap<&str, String> = BTreeMap::new();
    let mut current = None;
    for line in stdout.lines() {
        if let Some(name) = line.strip_prefix("== ") {
            current = Some(name.trim());
            out.entry(name.trim()).or_default();
        } else if let Some(name) = current {
            let text = out.entry(name).or_default();
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

/// Reads [`describe`]'s output into the facts [`Facts`] holds; `None` if the script did not
/// run to its end or rustc said nothing.
pub fn read_facts(stdout: &str) -> Option<Facts> {
    let s = sections(stdout);
    s.get("end")?;
    let rustc_verbose = s.get("rustc").filter(|r| r.starts_with("rustc "))?.clone();
    Some(Facts {
        cpuinfo: s.get("cpuinfo").cloned().unwrap_or_default(),
        meminfo: s.get("meminfo").cloned().unwrap_or_default(),
        osrelease: s.get("osrelease").cloned().unwrap_or_default(),
        cores: s
            .get("cores")
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or(1),
        rustc_verbose,
        arch: s.get("arch").cloned().unwrap_or_default(),
        online: s
            .get("online")
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or(0),
        affinity: s.get("affinity").cloned().unwrap_or_default(),
    })
}

/// Builds `names` in release with the host's cargo, into `$d/target`; then prints the
/// lockfile as built (cargo may have written it).
pub fn build(host: &HostConfig, names: &[String]) -> String {
    let packages: Vec<String> = names.iter().map(|n| format!("-p {}", quote(n))).collect();
    format!(
        r#"{}cd "$d/src" || exit 93
CARGO_TARGET_DIR="$d/target" CARGO_TERM_PROGRESS_WHEN=never cargo build --release --keep-going --color never {} >&2 || exit $?
echo '== lock'; cat Cargo.lock 2>/dev/null
"#,
        prelude(host),
        packages.join(" ")
    )
}

/// The lockfile [`build`] printed (empty when there is none).
pub fn read_lock(stdout: &[u8]) -> Vec<u8> {
    let marker = b"== lock\n";
    stdout
        .windows(marker.len())
        .position(|w| w == marker)
        .map_or_else(Vec::new, |i| stdout[i + marker.len()..].to_vec())
}

/// How one run of an experiment is made on the host.
pub struct RunScript<'a> {
    pub name: &'a str,
    pub timeout: Duration,
}

/// Runs experiment `name` once, as the local runner does: from its folder, stdin from
/// `/dev/null`, `MEASURED_RESULTS` an absolute path, never in quick mode (its results are for
/// publishing); in a PID namespace of its own when the host's `unshare` makes one (whatever
/// it started dies with it), killed at the timeout; and whatever it left in the session or
/// that carries the run's tag in its environment killed after it (`exec sh` makes the script
/// the session's leader; `ps -g` lists the session's processes). Its stdout and stderr go to
/// files, so that nothing it leaves holds the connection open. Prints a header (its status,
/// the load averages around it, how much of its stdout and results file follow and their
/// sizes), then the start of its stdout and its results file, byte for byte; then the end of
/// its stderr on stderr.
pub fn run(host: &HostConfig, r: &RunScript<'_>) -> String {
    let ns = "--pid --fork --kill-child";
    format!(
        r#"{}n={}; t={}; oc={}; rc={}
cd "$d/src/$n" || exit 93
mkdir -p "$d/scratch" || exit 95
r="$d/scratch/$n.results.json"; o="$d/scratch/$n.stdout"; e="$d/scratch/$n.stderr"; m="$d/scratch/$n.timed-out"
rm -f "$r" "$o" "$e" "$m"
unset MEASURED_QUICK
MEASURED_RESULTS="$r"; export MEASURED_RESULTS
tag="run-$$-$(date +%s)"; b="$d/target/release/$n"; u=
if unshare {ns} true 2>/dev/null; then u="unshare {ns} --"
elif unshare --user --map-current-user {ns} true 2>/dev/null; then u="unshare --user --map-current-user {ns} --"
fi
l0=$(cat /proc/loadavg 2>/dev/null)
if [ -n "$u" ]; then
  MEASURED_RUN="$tag" $u sh -c '"$0"; exit $?' "$b" </dev/null >"$o" 2>"$e" &
else
  MEASURED_RUN="$tag" "$b" </dev/null >"$o" 2>"$e" &
fi
p=$!
(trap 'kill "$z" 2>/dev/null; exit 0' TERM; sleep "$t" & z=$!; wait "$z"; : >"$m"; kill -KILL "$p" 2>/dev/null) </dev/null >/dev/null 2>&1 &
w=$!
wait "$p" 2>/dev/null; s=$?
kill "$w" 2>/dev/null; wait "$w" 2>/dev/null
g=$(ps -o pgid= -p $$ 2>/dev/null | tr -d ' ')
if [ "$g" = "$$" ]; then
  for q in $(ps -o pid= -g $$ 2>/dev/null); do
    if [ "$q" != "$$" ]; then kill -KILL "$q" 2>/dev/null; fi
  done
fi
if [ -z "$u" ]; then
  for round in 1 2 3; do
    for f in /proc/[0-9]*/environ; do
      q=${{f#/proc/}}; q=${{q%/environ}}
      if [ "$q" != "$$" ] && tr '\000' '\n' <"$f" 2>/dev/null | grep -qxF "MEASURED_RUN=$tag"; then kill -KILL "$q" 2>/dev/null; fi
    done
  done
fi
l1=$(cat /proc/loadavg 2>/dev/null)
if [ -e "$m" ]; then s=timeout; fi
ob=$(wc -c <"$o" | tr -d ' '); ok=$ob; if [ "$ob" -gt "$oc" ]; then ok=$oc; fi
if [ -f "$r" ]; then rb=$(wc -c <"$r" | tr -d ' '); rk=$rb; if [ "$rb" -gt "$rc" ]; then rk=0; fi; res="$rk $rb"; else res=none; fi
printf 'measured-run 2\nstatus %s\nload_before %s\nload_after %s\nstdout %s %s\nresults %s\n' "$s" "$l0" "$l1" "$ok" "$ob" "$res"
dd if="$o" bs=1024 count=$((oc / 1024)) 2>/dev/null
if [ -f "$r" ] && [ "$rk" -gt 0 ]; then cat "$r"; fi
tail -c {} "$e" >&2
rm -f "$r" "$o" "$e" "$m"
"#,
        prelude(host),
        quote(r.name),
        r.timeout.as_secs().max(1),
        runner::LIMITS.stdout,
        results_file::MAX_BYTES,
        runner::LIMITS.stderr,
    )
}

/// What [`run`] printed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReply {
    /// The experiment's exit status; `None`: it ran past the timeout.
    pub status: Option<i32>,
    pub load_before: [f64; 3],
    pub load_after: [f64; 3],
    /// The start of its stdout.
    pub stdout: Vec<u8>,
    /// The size of its stdout.
    pub stdout_total: u64,
    /// Its results file, if it wrote one.
    pub results: Option<runner::Results>,
}

/// Reads [`run`]'s output; `None` if it is not what the script prints (it did not run to its
/// end).
pub fn read_run(bytes: &[u8]) -> Option<RunReply> {
    let mut rest = bytes;
    let mut header = BTreeMap::new();
    for i in 0..6 {
        let end = rest.iter().position(|&b| b == b'\n')?;
        let line = std::str::from_utf8(&rest[..end]).ok()?;
        rest = &rest[end + 1..];
        if i == 0 {
            (line == "measured-run 2").then_some(())?;
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        header.insert(key, value.trim());
    }
    let status = match *header.get("status")? {
        "timeout" => None,
        s => Some(s.parse().ok()?),
    };
    let sizes = |key: &str| -> Option<(usize, u64)> {
        let (kept, total) = header.get(key)?.split_once(' ')?;
        Some((kept.parse().ok()?, total.parse().ok()?))
    };
    let (out_kept, stdout_total) = sizes("stdout")?;
    let results = match *header.get("results")? {
        "none" => None,
        _ => Some(sizes("results")?),
    };
    let results_kept = results.map_or(0, |(kept, _)| kept);
    if rest.len() != out_kept + results_kept {
        return None;
    }
    let (stdout, results_bytes) = rest.split_at(out_kept);
    Some(RunReply {
        status,
        load_before: crate::experiments::machine::loads(header.get("load_before")?),
        load_after: crate::experiments::machine::loads(header.get("load_after")?),
        stdout: stdout.to_vec(),
        stdout_total,
        results: results.map(|(kept, total)| {
            if kept as u64 == total {
                runner::Results::Read(results_bytes.to_vec())
            } else {
                runner::Results::TooLarge(total)
            }
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_reply_is_read_byte_for_byte_and_a_cut_one_is_refused() {
        let reply = b"measured-run 2\nstatus 0\nload_before 0.50 0.25 0.10 1/200 42\nload_after \nstdout 7 7\nresults 8 8\nhi\n\n==\n{\"x\":1}\n";
        let r = read_run(reply).unwrap();
        assert_eq!(r.status, Some(0));
        assert_eq!(r.load_before, [0.5, 0.25, 0.1]);
        assert_eq!(r.load_after, [0.0; 3]);
        assert_eq!(
            (r.stdout.as_slice(), r.stdout_total),
            (&b"hi\n\n==\n"[..], 7)
        );
        assert_eq!(
            r.results,
            Some(runner::Results::Read(b"{\"x\":1}\n".to_vec()))
        );
        assert_eq!(read_run(&reply[..reply.len() - 1]), None);
        let none =
            b"measured-run 2\nstatus timeout\nload_before\nload_after\nstdout 0 0\nresults none\n";
        let r = read_run(none).unwrap();
        assert_eq!((r.status, r.results), (None, None));
        let big = b"measured-run 2\nstatus 0\nload_before\nload_after\nstdout 2 900000000\nresults 0 5000000\nab";
        let r = read_run(big).unwrap();
        assert_eq!(
            (r.stdout.as_slice(), r.stdout_total),
            (&b"ab"[..], 900_000_000)
        );
        assert_eq!(r.results, Some(runner::Results::TooLarge(5_000_000)));
        assert_eq!(read_run(b"bash: sh: not found\n"), None);
    }

    #[test]
    fn the_hosts_facts_are_read_from_its_sections() {
        let out = "== cores\n1\n== cpuinfo\nmodel name\t: Some CPU @ 2.0GHz\n== meminfo\nMemTotal:  1000 kB\n== osrelease\n6.1.0\n== arch\nx86_64\n== rustc\nrustc 1.95.0 (59807616e 2026-04-14)\nhost: x86_64-unknown-linux-gnu\n== end\n";
        let f = read_facts(out).unwrap();
        let m = crate::experiments::machine::Machine::of_facts(&f);
        assert_eq!(m.cpu, "Some CPU @ 2.0GHz");
        assert_eq!(
            (m.cores, m.kernel.as_str(), m.memory),
            (1, "6.1.0", Some(1_024_000))
        );
        assert_eq!(m.rustc, "rustc 1.95.0 (59807616e 2026-04-14)");
        assert!(m.rustc_verbose.contains("host: x86_64"));
        assert_eq!(read_facts(&out.replace("== end\n", "")), None);
        let no_rustc = out.replace(
            "rustc 1.95.0 (59807616e 2026-04-14)\nhost: x86_64-unknown-linux-gnu\n",
            "",
        );
        assert_eq!(read_facts(&no_rustc), None);
    }

    #[test]
    fn the_probe_names_what_the_host_lacks() {
        let p = read_probe("missing cargo\nmissing rustc\npath /usr/bin:/bin\nmeasured-probe-ok\n")
            .unwrap();
        assert_eq!(p.missing, ["cargo", "rustc"]);
        assert_eq!(p.path, "/usr/bin:/bin");
        assert_eq!(read_probe("missing cargo\n"), None);
        assert_eq!(read_lock(b"== lock\nversion = 4\n"), b"version = 4\n");
        assert_eq!(read_lock(b""), b"");
    }
}
