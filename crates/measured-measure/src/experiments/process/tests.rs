//! Runs of small shell scripts under each containment this system has: a child left holding
//! stdout, a `setsid` daemon, a timeout, and output past the limits.

use super::*;

const LIMITS: Limits = Limits {
    stdout: 1000,
    stderr: 100,
};

/// The containments to test: tracking always, a PID namespace where `unshare` makes one.
fn containments() -> Vec<Containment> {
    let mut all = vec![Containment::Tracked];
    if *DETECTED != Containment::Tracked {
        all.push(DETECTED.clone());
    }
    all
}

fn sh(script: &str, timeout: Duration, containment: &Containment) -> (Ran, Duration) {
    let started = Instant::now();
    let ran = run(
        std::path::Path::new("/bin/sh"),
        |c| {
            c.args(["-c", script]);
        },
        timeout,
        LIMITS,
        containment,
    )
    .expect("sh runs");
    (ran, started.elapsed())
}

/// A `sleep` argument no other test uses, to find the process by its command line.
fn marker() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{}.{nanos:09}", 40_000 + std::process::id() % 10_000)
}

/// The processes whose command line is `sleep <marker>`.
fn sleeping(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|p| std::fs::read(p.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.trim() == format!("sleep {marker}"))
        .collect()
}

#[test]
fn a_daemon_holding_stdout_neither_holds_the_run_nor_outlives_it() {
    for containment in containments() {
        let m = marker();
        let script = format!("setsid sleep {m} & echo started");
        let (ran, took) = sh(&script, Duration::from_secs(20), &containment);
        assert!(took < Duration::from_secs(5), "{containment:?}: {took:?}");
        assert_eq!(
            ran.status.map(|s| s.code()),
            Some(Some(0)),
            "{containment:?}"
        );
        assert_eq!(ran.stdout, b"started\n", "{containment:?}");
        assert_eq!(sleeping(&m), Vec::<String>::new(), "{containment:?}");
    }
}

#[test]
fn at_the_timeout_the_run_and_what_it_started_are_killed() {
    for containment in containments() {
        let m = marker();
        let script = format!("echo started; (setsid sleep {m} &); sleep {m}");
        let (ran, took) = sh(&script, Duration::from_secs(1), &containment);
        assert!(took < Duration::from_secs(4), "{containment:?}: {took:?}");
        assert!(ran.status.is_none(), "{containment:?}");
        assert_eq!(ran.stdout, b"started\n", "{containment:?}");
        assert_eq!(sleeping(&m), Vec::<String>::new(), "{containment:?}");
    }
}

#[test]
fn output_past_the_limits_is_counted_not_kept() {
    for containment in containments() {
        let script = "head -c 3000000 /dev/zero; printf '%0300d' 0 >&2; echo end >&2";
        let (ran, _) = sh(script, Duration::from_secs(20), &containment);
        assert_eq!(ran.stdout.len(), LIMITS.stdout, "{containment:?}");
        assert_eq!(ran.stdout_total, 3_000_000, "{containment:?}");
        assert_eq!(ran.stderr.len(), LIMITS.stderr, "{containment:?}");
        assert!(ran.stderr.ends_with(b"000end\n"), "{containment:?}");
    }
}
