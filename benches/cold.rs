//! Cold and warm builds of the corpus by `measured`, Zola and Hugo, side by side, each into a
//! folder of its own, and the lines of issue 23's targets: the figure, the target, met or not.
//!
//! Zola and Hugo are programs found on this machine (`BENCH_ZOLA`, `BENCH_HUGO`, else `zola`
//! and `hugo` on `PATH`); one that is missing is skipped with a line saying how to provide it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::{OURS, Res, corpus, median, say};

/// Another generator, found on this machine.
pub struct Tool {
    pub program: PathBuf,
    pub version: String,
}

/// `BENCH_<NAME>` (a binary), else `name` in `target/bench-tools/` (what `scripts/setup-zola.sh`
/// builds), else on `PATH`; the error says how to provide it.
pub fn find_tool(name: &str, version_args: &[&str], how: &str) -> Result<Tool, String> {
    let var = format!("BENCH_{}", name.to_uppercase());
    let program = match std::env::var_os(&var) {
        Some(path) => PathBuf::from(path),
        None => std::iter::once(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-tools"),
        )
        .chain(
            std::env::var_os("PATH")
                .iter()
                .flat_map(std::env::split_paths),
        )
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "{name}: skipped (not in target/bench-tools/ nor on PATH, and {var} unset; {how})"
            )
        })?,
    };
    let out = Command::new(&program)
        .args(version_args)
        .output()
        .map_err(|e| {
            format!(
                "{name}: skipped ({} does not run: {e}; {how})",
                program.display()
            )
        })?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Ok(Tool { program, version })
}

/// How to get each generator, printed when it is missing.
pub const HOW_HUGO: &str = "`apt-get install hugo`, or BENCH_HUGO=/path/to/hugo";
pub const HOW_ZOLA: &str = "Zola is neither a Debian package nor a crate: `make bench` builds it from source with scripts/setup-zola.sh (ZOLA_SRC=a Zola git repository, else GitHub), or name a `zola` binary in BENCH_ZOLA; docs/performance.md, The benchmark";

/// A child's wall time, peak RSS and CPU time.
struct Run {
    wall: Duration,
    rss_kb: u64,
    user: Duration,
    sys: Duration,
}

/// Medians of runs.
#[derive(Clone, Copy)]
pub struct Stats {
    pub wall: Duration,
    pub rss_kb: u64,
    pub user: Duration,
    pub sys: Duration,
}

impl Stats {
    fn of(runs: &[Run]) -> Stats {
        Stats {
            wall: median(runs.iter().map(|r| r.wall).collect()),
            rss_kb: median(runs.iter().map(|r| r.rss_kb).collect()),
            user: median(runs.iter().map(|r| r.user).collect()),
            sys: median(runs.iter().map(|r| r.sys).collect()),
        }
    }
}

/// What the cold builds of one corpus measured.
pub struct Cold {
    pub pages: usize,
    /// `measured` with its search index, without it, and warm (every cache kept).
    pub ours: Stats,
    pub plain: Stats,
    pub warm: Stats,
    pub zola: Option<Stats>,
    pub hugo: Option<Stats>,
    /// Where the outputs of the first cold run are kept for the writing floor (`0/measured`,
    /// `0/measured-no-search`); the caller removes the folder.
    pub out: PathBuf,
}

/// The generators' commands on one corpus.
struct Commands<'a> {
    corpus: &'a corpus::Corpus,
    plain: PathBuf,
    zola: Option<Tool>,
    hugo: Option<Tool>,
}

impl Commands<'_> {
    fn ours(&self, root: &Path, dest: &Path) -> Vec<String> {
        let (root, dest) = (root.display().to_string(), dest.display().to_string());
        [
            OURS, "build", "--frozen", "--root", &root, "--output", &dest,
        ]
        .map(String::from)
        .to_vec()
    }

    fn zola(&self, zola: &Tool, dest: &Path) -> Vec<String> {
        let src = self.corpus.zola.display().to_string();
        let dest = dest.display().to_string();
        let program = zola.program.display().to_string();
        [&program, "--root", &src, "build", "--output-dir", &dest]
            .map(String::from)
            .to_vec()
    }

    fn hugo(&self, hugo: &Tool, dest: &Path) -> Vec<String> {
        let src = self.corpus.hugo.display().to_string();
        let dest = dest.display().to_string();
        let program = hugo.program.display().to_string();
        [
            &program,
            "--quiet",
            "--ignoreCache",
            "--source",
            &src,
            "--destination",
            &dest,
        ]
        .map(String::from)
        .to_vec()
    }
}

/// The same `measured` site without a search index (Hugo makes none), beside the corpus.
fn plain_site(corpus: &corpus::Corpus, base: &Path) -> Res<PathBuf> {
    let plain = base.join("measured-no-search");
    std::fs::create_dir_all(&plain)?;
    let toml = std::fs::read_to_string(corpus.measured.join("site.toml"))?;
    std::fs::write(
        plain.join("site.toml"),
        format!("{toml}\n[search]\nenabled = false\n"),
    )?;
    for part in ["content", "experiments", "frozen"] {
        let link = plain.join(part);
        if !link.exists() {
            std::os::unix::fs::symlink(corpus.measured.join(part), link)?;
        }
    }
    Ok(plain)
}

/// Cold builds of the corpus by each generator, alternated, `runs` times, then warm builds of
/// `measured`; prints the table, the targets and the commands, and returns the figures.
pub fn cold_builds(corpus: &corpus::Corpus, base: &Path, runs: usize) -> Res<Cold> {
    let found = |r: Result<Tool, String>| r.map_err(|why| say(&why)).ok();
    let cmds = Commands {
        corpus,
        plain: plain_site(corpus, base)?,
        zola: found(find_tool("zola", &["--version"], HOW_ZOLA)),
        hugo: found(find_tool("hugo", &["version"], HOW_HUGO)),
    };
    let out = base.join("out");
    // Each run writes into folders of its own, all removed at the end: ext4 skips the inodes
    // of files deleted in the last minutes when it creates files, so deleting one build's
    // output just before the next made the next one pay for it (up to 20 s of system time at
    // 10,000 × 2, differing from run to run).
    let _ = std::fs::remove_dir_all(&out);
    let (mut ours, mut plain, mut zola, mut hugo, mut warm) = Default::default();
    for run in 0..runs {
        let out = out.join(run.to_string());
        // Cold: no output, no highlight cache, no Hugo resources from an earlier build.
        let _ = std::fs::remove_dir_all(corpus.measured.join(".measured"));
        push(
            &mut ours,
            &cmds.ours(&corpus.measured, &out.join("measured")),
        )?;
        let _ = std::fs::remove_dir_all(cmds.plain.join(".measured"));
        push(
            &mut plain,
            &cmds.ours(&cmds.plain, &out.join("measured-no-search")),
        )?;
        if let Some(z) = &cmds.zola {
            push(&mut zola, &cmds.zola(z, &out.join("zola")))?;
        }
        if let Some(h) = &cmds.hugo {
            let _ = std::fs::remove_dir_all(corpus.hugo.join("resources"));
            push(&mut hugo, &cmds.hugo(h, &out.join("hugo")))?;
        }
    }
    // Warm: the caches of the last cold build kept, each run into a new output folder.
    for run in 0..runs {
        let dest = out.join(format!("warm-{run}"));
        push(&mut warm, &cmds.ours(&corpus.measured, &dest))?;
    }
    let stats = |v: &Vec<Run>| (!v.is_empty()).then(|| Stats::of(v));
    let cold = Cold {
        pages: corpus.pages,
        ours: Stats::of(&ours),
        plain: Stats::of(&plain),
        warm: Stats::of(&warm),
        zola: stats(&zola),
        hugo: stats(&hugo),
        out: out.clone(),
    };
    print_table(&cold, &out, runs);
    for line in targets(&cold) {
        say(&line);
    }
    say(&reproduce(corpus, &cmds));
    Ok(cold)
}

fn push(runs: &mut Vec<Run>, cmd: &[String]) -> Res<()> {
    runs.push(timed(cmd)?);
    Ok(())
}

/// Files and HTML files under `dir`.
fn count(dir: &Path) -> (usize, usize) {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    let html = files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .count();
    (files.len(), html)
}

fn print_table(cold: &Cold, out: &Path, runs: usize) {
    say(&format!(
        "cold builds, median of {runs} (alternated, outputs written to disk); warm: caches of the last cold build kept, a new output:\n  {:<20} {:>8} {:>9} {:>9} {:>8} {:>7} {:>7} {:>7} {:>9}",
        "", "wall", "pages/s", "peak RSS", "user", "sys", "files", "HTML", "per page"
    ));
    let rows = [
        ("measured", Some(cold.ours), "0/measured"),
        (
            "  no search index",
            Some(cold.plain),
            "0/measured-no-search",
        ),
        ("  warm", Some(cold.warm), "warm-0"),
        ("zola (search: Fuse)", cold.zola, "0/zola"),
        ("hugo (no search)", cold.hugo, "0/hugo"),
    ];
    for (name, stats, dir) in rows {
        let Some(s) = stats else {
            say(&format!("  {name:<20} skipped"));
            continue;
        };
        let (files, html) = count(&out.join(dir));
        say(&format!(
            "  {name:<20} {:>6.2} s {:>9.0} {:>6.0} MB {:>6.2} s {:>5.2} s {files:>7} {html:>7} {:>9.2}",
            s.wall.as_secs_f64(),
            cold.pages as f64 / s.wall.as_secs_f64(),
            s.rss_kb as f64 / 1024.0,
            s.user.as_secs_f64(),
            s.sys.as_secs_f64(),
            files as f64 / cold.pages as f64,
        ));
    }
}

/// One target: what, the figure, the target, met or not.
pub fn verdict(what: &str, figure: String, target: &str, met: bool) -> String {
    let word = if met { "met" } else { "NOT MET" };
    format!("  target: {what}: {figure} (target {target}): {word}")
}

/// The targets that one corpus decides (issue 40, after issue 23's): throughput against Zola
/// and Hugo, peak RSS against Zola, the warm build against the cold one. The floors' come with
/// the floor.
pub fn targets(c: &Cold) -> Vec<String> {
    let secs = |s: &Stats| s.wall.as_secs_f64();
    let mut lines = Vec::new();
    match &c.zola {
        Some(z) => {
            let x = secs(z) / secs(&c.ours);
            lines.push(verdict(
                "cold throughput, measured/Zola (both with a full-text search index)",
                format!("{x:.2}×"),
                "≥ 3×",
                x >= 3.0,
            ));
            let r = c.ours.rss_kb as f64 / z.rss_kb as f64;
            lines.push(verdict(
                "peak RSS of a one-off build, measured/Zola",
                format!("{r:.2}×"),
                "≤ 0.5×",
                r <= 0.5,
            ));
        }
        None => lines.push("  target: measured/Zola: not measured (zola skipped)".into()),
    }
    match &c.hugo {
        Some(h) => {
            let x = secs(h) / secs(&c.plain);
            lines.push(verdict(
                "cold throughput, measured without search index/Hugo (neither makes one)",
                format!("{x:.2}×"),
                "≥ 4×",
                x >= 4.0,
            ));
        }
        None => lines.push("  target: measured/Hugo: not measured (hugo skipped)".into()),
    }
    let w = secs(&c.warm) / secs(&c.ours);
    lines.push(verdict(
        "warm build (every cache kept, a new output)/cold",
        format!("{w:.2}×"),
        "≤ 0.25×",
        w <= 0.25,
    ));
    lines
}

/// Time per article page at each size against the first, the linear-scaling target.
pub fn scaling(sizes: &[(usize, &Cold)]) -> Vec<String> {
    let Some((n0, c0)) = sizes.first() else {
        return Vec::new();
    };
    let per = |c: &Cold| c.ours.wall.as_secs_f64() * 1000.0 / c.pages as f64;
    sizes[1..]
        .iter()
        .map(|(n, c)| {
            let change = per(c) / per(c0) - 1.0;
            verdict(
                &format!("time per page, cold, {n} articles against {n0}"),
                format!(
                    "{:.3} → {:.3} ms ({:+.1} %)",
                    per(c0),
                    per(c),
                    change * 100.0
                ),
                "within 10 %",
                change.abs() <= 0.10,
            )
        })
        .collect()
}

fn reproduce(corpus: &corpus::Corpus, cmds: &Commands) -> String {
    let line = |v: Vec<String>| v.join(" ");
    let dest = Path::new("OUT");
    let mut s = format!(
        "  to reproduce: BENCH_KEEP=DIR BENCH_SIZES={} BENCH_CODE={} BENCH_PARTS=cold cargo bench --bench site (the corpus is seeded; DIR/{0}-{1}/ keeps it), then, each into a new OUT:\n    rm -rf {}/.measured && {}",
        corpus.articles,
        corpus.variant.name(),
        corpus.measured.display(),
        line(cmds.ours(&corpus.measured, dest)),
    );
    if let Some(z) = &cmds.zola {
        s.push_str(&format!("\n    {}", line(cmds.zola(z, dest))));
    }
    if let Some(h) = &cmds.hugo {
        s.push_str(&format!(
            "\n    rm -rf {}/resources && {}",
            corpus.hugo.display(),
            line(cmds.hugo(h, dest))
        ));
    }
    s
}

/// Runs `cmd` under `/usr/bin/time`, which reports the child's peak RSS in KB and CPU times.
fn timed(cmd: &[String]) -> Res<Run> {
    let report = tempfile::NamedTempFile::new()?;
    // What the previous build wrote goes to disk first: the kernel's writeback would
    // otherwise take the cores and the file system's locks during this one.
    Command::new("sync").status()?;
    let started = Instant::now();
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M %U %S")
        .arg("-o")
        .arg(report.path())
        .args(cmd)
        .output()?;
    let wall = started.elapsed();
    if !status.status.success() {
        return Err(format!(
            "`{}` failed: {}\n{}{}",
            cmd.join(" "),
            status.status,
            String::from_utf8_lossy(&status.stdout),
            String::from_utf8_lossy(&status.stderr)
        )
        .into());
    }
    let text = std::fs::read_to_string(report.path())?;
    let last = text.lines().last().unwrap_or_default();
    let mut fields = last.split_whitespace();
    let mut next = || fields.next().ok_or("/usr/bin/time wrote no figures");
    let rss_kb = next()?.parse()?;
    let user = Duration::from_secs_f64(next()?.parse()?);
    let sys = Duration::from_secs_f64(next()?.parse()?);
    Ok(Run {
        wall,
        rss_kb,
        user,
        sys,
    })
}
