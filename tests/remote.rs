//! Integration tests of `measured run --on HOST` against a real OpenSSH server the test starts
//! on 127.0.0.1 (this machine is the host): the experiments copied, built and run there, their
//! results imported as the host's machine and shown on the page; and the failures (an unknown
//! host, a closed port, an experiment that fails there) reported clearly, writing nothing.

mod common;

use std::path::Path;

use common::fixtures::{add_experiment, experiment_source, site_with};
use common::sshd::{Sshd, free_port};
use common::{TestSite, html, sleeping, snapshot, texts};
use serde_json::Value;

const SPEED: &str =
    r#"{"ratio": {"type": "ratio", "value": 3.0, "low": 2.9, "high": 3.1}, "bytes": 40}"#;

/// A site whose article shows experiment `speed` in a machines block, and `site.toml`'s
/// host `loop` reaching `sshd`, its folder there `remote`.
fn site_on(sshd: &Sshd, remote: &Path) -> TestSite {
    let site = site_with(&[("speed", experiment_source("speed", SPEED))]);
    let block = "```machines speed\nvalue: bytes | B | bytes\n```\n";
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        &format!("Gọn {{{{ speed.bytes }}}}.\n\n{block}"),
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        &format!("Small {{{{ speed.bytes }}}}.\n\n{block}"),
    );
    let hosts = sshd.host_toml("loop", remote);
    site.write("site.toml", &format!("{}\n{hosts}", site.read("site.toml")));
    site
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn modified(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn run_on_measures_on_the_host_imports_its_machine_and_the_page_shows_it() {
    // The host's sessions may use one CPU: its description must say 1 core, whatever this
    // machine has, so it can only come from the host.
    let sshd = Sshd::start(&["taskset", "-c", "0"]);
    let remote = sshd.dir.path().join("remote host's dir");
    let site = site_on(&sshd, &remote);

    let out = site.cli(&["run", "--on", "loop"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("imported ./machines/loop/speed.json of machine `loop` (commit it)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ran 1 experiment(s) 3 times each on host `loop`")
            && stdout.contains("cores: 1,"),
        "{stdout}"
    );
    // It ran there, three times, and not here.
    let ran_there = std::fs::read_to_string(remote.join("runs.log")).unwrap_or_default();
    assert_eq!(ran_there.lines().collect::<Vec<_>>(), ["speed"; 3]);
    assert!(!site.path("runs.log").exists(), "nothing runs here");
    assert!(!site.path(".measured").exists(), "no cache or history here");

    let file: Value = serde_json::from_str(&site.read("machines/loop/speed.json")).unwrap();
    let crates = measured::experiments::workspace::discover(&site.path("experiments")).unwrap();
    assert_eq!(file["source_hash"], crates["speed"].source_hash[..16]);
    let runs = file["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 3);
    let here = measured::experiments::machine::Machine::read(&site.path("experiments"));
    for run in runs {
        assert_eq!(run["results"]["bytes"], 40);
        assert_eq!(run["output"], "speed 55\n");
        let p = &run["provenance"];
        assert_eq!(p["cores"], 1, "{p}");
        assert_eq!(p["quick"], false);
        // The host is this machine: the same CPU, kernel and toolchain, read there.
        assert_eq!(p["cpu"], here.cpu.as_str());
        assert_eq!(p["kernel"], here.kernel.as_str());
        assert_eq!(p["rustc"], here.rustc.as_str());
    }

    // A second run replaces the file and builds nothing again: the host kept its build.
    let binary = remote.join("target/release/speed");
    let built = modified(&binary);
    let out = site.cli(&["run", "--on", "loop", "speed"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("replaced ./machines/loop/speed.json")
    );
    assert_eq!(modified(&binary), built, "the host's build cache is kept");

    // The page shows the host beside the machine that builds it.
    let b = site.build().unwrap_or_else(|e| panic!("{e}"));
    let en = html(&b, "en/a/index.html");
    assert_eq!(
        texts(&en, "figure.machines thead th:not(:first-child)"),
        ["The machine that built this page", "loop"]
    );
    let loop_column = texts(&en, "figure.machines tbody tr > :nth-child(3)");
    assert_eq!(loop_column[..2], [here.cpu.clone(), "1".to_string()]);
    assert_eq!(loop_column.last().map(String::as_str), Some("40 B"));
}

#[test]
fn run_on_failures_name_the_host_and_the_step_and_write_nothing() {
    let sshd = Sshd::start(&[]);
    let remote = sshd.dir.path().join("remote");
    let site = site_on(&sshd, &remote);
    add_experiment(
        &site,
        "broken",
        "fn main() {\n    eprintln!(\"about to break\");\n    panic!(\"broken on purpose\");\n}\n",
    );
    let closed = free_port();
    let hosts = format!(
        "[hosts.closed]\nssh = \"{}@127.0.0.1\"\nport = {closed}\nidentity = {:?}\nssh_options = [\"StrictHostKeyChecking=no\", \"UserKnownHostsFile=/dev/null\"]\n",
        sshd.user,
        sshd.identity().display().to_string()
    );
    site.write("site.toml", &format!("{}\n{hosts}", site.read("site.toml")));
    let before = snapshot(site.root());
    let fails = |args: &[&str]| {
        let out = site.cli(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let e = stderr(&out).replace(&format!("{}/", site.root().display()), "");
        assert!(e.ends_with("; nothing was written\n"), "{e}");
        assert_eq!(
            snapshot(site.root()),
            before,
            "{args:?} wrote into the site"
        );
        e
    };

    let e = fails(&["run", "--on", "lop"]);
    assert!(
        e.starts_with("./site.toml: error: --on lop: site.toml names no host `lop` ([hosts.lop])\n  = help: did you mean `loop`? site.toml's hosts are: closed, loop\n"),
        "{e}"
    );

    let e = fails(&["run", "--on", "closed", "speed"]);
    let line = 1 + site
        .read("site.toml")
        .lines()
        .position(|l| l == "[hosts.closed]")
        .expect("the table");
    assert!(
        e.contains(&format!("./site.toml:{line}:1: error: host `closed` ({}@127.0.0.1, port {closed}): connect: ssh could not connect, or lost the connection (exit status 255)", sshd.user)),
        "{e}"
    );
    assert!(e.contains("Connection refused"), "{e}");
    assert!(
        e.contains("ssh runs in batch mode, so it needs a key"),
        "{e}"
    );

    let e = fails(&["run", "--on", "loop", "speed", "broken"]);
    assert!(
        e.contains("./experiments/broken: error: experiment `broken` failed on host `loop`: panicked (exit status 101)\n--- stderr (last lines) ---\nabout to break\n"),
        "{e}"
    );
    assert!(e.contains("broken on purpose"), "{e}");
    assert!(
        e.contains("nothing was imported: the results are imported only when every experiment ran"),
        "{e}"
    );
    // `speed` ran there, and is not imported either.
    assert_eq!(
        std::fs::read_to_string(remote.join("runs.log"))
            .unwrap_or_default()
            .lines()
            .count(),
        3
    );
    assert!(!site.path("machines").exists());

    let e = fails(&["run", "--on", "loop", "sped"]);
    assert!(
        e.contains("`sped` is not an experiment of this site\n  = help: did you mean `speed`?"),
        "{e}"
    );
}

#[test]
fn run_on_leaves_alone_a_folder_of_the_host_that_measured_did_not_make() {
    let sshd = Sshd::start(&[]);
    let theirs = sshd.dir.path().join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("notes.txt"), "mine").unwrap();
    let site = site_on(&sshd, &theirs);
    let before = snapshot(site.root());
    let out = site.cli(&["run", "--on", "loop", "speed"]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "copy: the folder {} on the host holds files measured did not put there, and measured writes only into a folder of its own",
            theirs.display()
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "help: choose a folder that is new or empty with dir = \"…\" in [hosts.loop], or empty {} on the host yourself",
            theirs.display()
        )),
        "{e}"
    );
    assert!(!e.contains("Some(96)"), "{e}");
    assert_eq!(snapshot(site.root()), before);
    let left: Vec<_> = std::fs::read_dir(&theirs)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["notes.txt"]);
}

#[test]
fn run_on_kills_an_experiment_at_its_timeout_with_what_it_started() {
    let sshd = Sshd::start(&[]);
    let site = site_on(&sshd, &sshd.dir.path().join("remote"));
    // A child no other test starts: `sleep` for a number of seconds made of this server's port.
    let marker = format!("7{}", sshd.port);
    add_experiment(
        &site,
        "hang",
        &format!(
            "fn main() {{\n    std::process::Command::new(\"sleep\").arg(\"{marker}\").spawn().unwrap();\n    eprintln!(\"hanging\");\n    loop {{ std::thread::sleep(std::time::Duration::from_secs(1)); }}\n}}\n"
        ),
    );
    site.write(
        "site.toml",
        &site
            .read("site.toml")
            .replace("timeout_secs = 20", "timeout_secs = 2"),
    );
    let out = site.cli(&["run", "--on", "loop", "hang"]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains("experiment `hang` failed on host `loop`: timed out after 2 s and was killed with every process it started"),
        "{e}"
    );
    assert!(
        e.contains("--- stderr (last lines) ---\nhanging\n  = help"),
        "{e}"
    );
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|p| std::fs::read(p.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.trim() == format!("sleep {marker}"))
        .collect();
    assert!(left.is_empty(), "left running on the host: {left:?}");
    assert!(!site.path("machines").exists());
}

#[test]
fn run_on_neither_waits_for_nor_leaves_a_daemon_holding_the_experiments_output() {
    let sshd = Sshd::start(&[]);
    let site = site_on(&sshd, &sshd.dir.path().join("remote"));
    // `setsid` leaves the session the run script kills; the daemon holds stdout and stderr.
    let marker = format!("6{}", sshd.port);
    add_experiment(
        &site,
        "daemon",
        &format!(
            "fn main() {{\n    std::process::Command::new(\"setsid\").args([\"sleep\", \"{marker}\"]).spawn().unwrap();\n    eprintln!(\"started\");\n    std::fs::write(std::env::var(\"MEASURED_RESULTS\").unwrap(), \"{{\\\"n\\\": 1}}\").unwrap();\n}}\n"
        ),
    );
    let started = std::time::Instant::now();
    let out = site.cli(&["run", "--on", "loop", "daemon"]);
    let took = started.elapsed();
    assert!(out.status.success(), "{}", stderr(&out));
    // Copying and building take seconds; three runs held by the daemon would take minutes.
    assert!(took < std::time::Duration::from_secs(60), "{took:?}");
    assert_eq!(sleeping(&marker), Vec::<String>::new());

    // A host whose `unshare` makes no namespace: the daemon is found by the run's tag.
    let bin = sshd.dir.path().join("no-unshare");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("unshare"), "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::set_permissions(
        bin.join("unshare"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    site.write(
        "site.toml",
        &format!(
            "{}path = [{:?}]\n",
            site.read("site.toml"),
            bin.display().to_string()
        ),
    );
    let out = site.cli(&["run", "--on", "loop", "daemon"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(sleeping(&marker), Vec::<String>::new());
}

#[test]
fn run_on_bounds_what_it_brings_back_of_an_experiments_output() {
    let sshd = Sshd::start(&[]);
    let site = site_on(&sshd, &sshd.dir.path().join("remote"));
    add_experiment(
        &site,
        "loud",
        "fn main() {\n    use std::io::Write;\n    let chunk = vec![b'x'; 1 << 20];\n    let mut out = std::io::stdout().lock();\n    for _ in 0..300 { out.write_all(&chunk).unwrap(); }\n    std::fs::write(std::env::var(\"MEASURED_RESULTS\").unwrap(), \"{\\\"n\\\": 1}\").unwrap();\n}\n",
    );
    let out = site.cli(&["run", "--on", "loop", "loud"]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains("experiment `loud` failed on host `loop`: printed 300.0 MB on stdout, and an experiment's output, shown on its page and kept with its results, may have at most 256 KB"),
        "{e}"
    );
    assert!(!site.path("machines").exists());
}
