//! `make bench`: builds the same generated corpus with `measured`, Zola and Hugo, side by side,
//! and prints median wall time, pages per second, peak RSS and files written of each, a warm
//! build, the targets (issue 40's, met or not), the floor (reading the files, pulldown-cmark
//! alone, syntect alone, on all cores) and the writing floor (the same, then writing the bytes
//! of our output to as many files), and the rebuild times through a `Session` (the code path
//! `measured serve` uses) after no change and after one edit. Each size is built in two
//! variants of the corpus: each translation with code of its own, and translations sharing
//! their code (which a generator highlighting each distinct block once does half the work for).
//!
//! Settings (environment): `BENCH_SIZES` (articles, default `2000,10000`), `BENCH_CODE`
//! (the variants, default `differing,shared`; search and rebuilds run on the first only),
//! `BENCH_RUNS` (cold builds per generator and rebuilds of each kind, default 3),
//! `BENCH_RUNS_LARGE` (the same above 2,000 articles, default 1: one cold build of the
//! 10,000-article corpus takes minutes on two cores), `BENCH_KEEP` (a folder to write the corpora into and keep, for profiling),
//! `BENCH_PARTS` (which parts to run, default `cold,floor,search,rebuilds`; the real blog runs
//! with `rebuilds`; `search` times our search index against Pagefind's on the same pages),
//! `BENCH_ZOLA` and `BENCH_HUGO` (the generators' binaries, else `zola` and `hugo` on `PATH`;
//! a missing one is skipped with a line saying how to provide it).

mod cold;
mod corpus;
mod floor;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use measured::BuildOptions;
use measured::experiments::{ExperimentOptions, Silent};
use measured::pipeline::{SearchWhen, Session};

const SEED: u64 = 0x6d65_6173_7572_6564;

/// The floor and the in-process indexers allocate as the generator does (`src/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const OURS: &str = env!("CARGO_BIN_EXE_measured");

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    // `cargo test --all-targets` runs bench targets too, without `--bench`: only `cargo bench`
    // (`make bench`) measures.
    if !std::env::args().any(|a| a == "--bench") {
        return Ok(());
    }
    let sizes: Vec<usize> = env_or("BENCH_SIZES", "2000,10000")
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse())
        .collect::<Result<_, _>>()?;
    let runs: usize = env_or("BENCH_RUNS", "3").parse()?;
    let runs_large: usize = env_or("BENCH_RUNS_LARGE", "1").parse()?;
    if !Path::new("/usr/bin/time").exists() {
        return Err("the benchmark reads peak RSS with /usr/bin/time: apt-get install time".into());
    }
    say(&machine());
    if env_or("BENCH_PARTS", "rebuilds").contains("rebuilds") {
        real_blog(runs)?;
    }
    let variants: Vec<corpus::CodeVariant> = env_or("BENCH_CODE", "differing,shared")
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            corpus::CodeVariant::parse(s.trim())
                .ok_or_else(|| format!("BENCH_CODE: `{s}` is neither `differing` nor `shared`"))
        })
        .collect::<Result<_, _>>()?;
    let mut summaries = Vec::new();
    for (k, &variant) in variants.iter().enumerate() {
        for &n in &sizes {
            let runs = if n > 2000 { runs_large } else { runs };
            // Search and rebuilds do not depend on the code: run on the first variant only.
            summaries.push(bench_size(n, variant, runs, k == 0)?);
        }
    }
    for &variant in &variants {
        let colds: Vec<(usize, &cold::Cold)> = summaries
            .iter()
            .filter(|s| s.variant == variant)
            .filter_map(|s| s.cold.as_ref().map(|c| (s.articles, c)))
            .collect();
        if colds.len() > 1 {
            say(&format!(
                "\n== scaling of cold builds, {} code ==",
                variant.name()
            ));
            for line in cold::scaling(&colds) {
                say(&line);
            }
        }
    }
    say(&growth(&summaries));
    say(&format!("\nload average at the end: {}", load_average()));
    Ok(())
}

/// The real blog, as `measured serve` sees it (issue 4's targets): a no-change rebuild through
/// `Session`, and from saving an article to the server publishing the new page to the browser
/// (the browser's own reload comes on top). Needs the results of `make site` in `.measured/`.
fn real_blog(runs: usize) -> Res<()> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !repo.join(".measured/results").is_dir() {
        say(
            "real blog: skipped, run `make site` first (its experiments' results are reused, never rerun here)",
        );
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    for part in [
        "site.toml",
        "content",
        "templates",
        "static",
        "experiments",
        ".measured/results",
    ] {
        copy_tree(&repo.join(part), &dir.path().join(part))?;
    }
    // The experiments' build output is shared, not copied: nothing is compiled when results are fresh.
    std::os::unix::fs::symlink(
        repo.join("experiments/target"),
        dir.path().join("experiments/target"),
    )?;
    let mut session = Session::new(BuildOptions {
        root: dir.path().to_path_buf(),
        ..Default::default()
    });
    let first = Instant::now();
    session.build(&Silent).map_err(|d| d.to_string())?;
    let first = first.elapsed();
    let same = median_of(runs.max(5), || {
        let _ = session.build(&Silent);
    });
    drop(session);
    let server = measured::serve::start(measured::serve::ServeOptions {
        root: dir.path().to_path_buf(),
        port: 0,
        bind: std::net::IpAddr::from([127, 0, 0, 1]),
        open: false,
        drafts: false,
        only: None,
    })
    .map_err(|d| d.to_string())?;
    let article = dir.path().join("content/tcp-handshake/index.en.md");
    let mut latencies = Vec::new();
    let mut indexed = Vec::new();
    let mut published = false;
    for k in 0..runs.max(5) {
        // The index of the first build (or of the previous edit) is made before the next save.
        while !std::mem::take(&mut published) {
            match server.events().recv_timeout(Duration::from_secs(60))? {
                measured::serve::Event::Indexed { .. } => published = true,
                measured::serve::Event::IndexFailed(d) => return Err(d.to_string().into()),
                _ => {}
            }
        }
        let text = std::fs::read_to_string(&article)?;
        let saved = Instant::now();
        std::fs::write(&article, format!("{text}\nBenchmark edit {k}.\n"))?;
        loop {
            match server.events().recv_timeout(Duration::from_secs(30))? {
                measured::serve::Event::Built(r) if r.effect.is_some() => break,
                measured::serve::Event::Failed { diagnostics, .. } => {
                    return Err(diagnostics.to_string().into());
                }
                _ => {}
            }
        }
        latencies.push(saved.elapsed());
        loop {
            match server.events().recv_timeout(Duration::from_secs(60))? {
                measured::serve::Event::Indexed { .. } => break,
                measured::serve::Event::IndexFailed(d) => return Err(d.to_string().into()),
                _ => {}
            }
        }
        indexed.push(saved.elapsed());
        published = true;
    }
    server.stop();
    say(&format!(
        "real blog (serve): first build {:.0} ms; no-change rebuild {:.1} ms (median of {}, target < 20 ms); save to new page published {:.0} ms (median of {}, target < 100 ms to the browser); search index caught up {:.0} ms after the save (on its own thread, pages do not wait for it)",
        ms(first),
        ms(same),
        runs.max(5),
        ms(median(latencies)),
        runs.max(5),
        ms(median(indexed)),
    ));
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Res<()> {
    if from.is_file() {
        std::fs::create_dir_all(to.parent().ok_or("no parent")?)?;
        std::fs::copy(from, to)?;
        return Ok(());
    }
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target")
    {
        let entry = entry?;
        let dest = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest)?;
        } else {
            std::fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

/// Everything printed for one corpus size, kept for the growth lines at the end.
struct Summary {
    articles: usize,
    variant: corpus::CodeVariant,
    /// The cold and warm builds, when they ran.
    cold: Option<cold::Cold>,
    /// The no-change and one-edit rebuilds, when they ran.
    rebuilds: Option<(Duration, Duration)>,
}

fn bench_size(
    n: usize,
    variant: corpus::CodeVariant,
    runs: usize,
    first_variant: bool,
) -> Res<Summary> {
    let tmp = tempfile::tempdir()?;
    let base = match std::env::var_os("BENCH_KEEP") {
        Some(dir) => PathBuf::from(dir).join(format!("{n}-{}", variant.name())),
        None => tmp.path().to_path_buf(),
    };
    let _ = std::fs::remove_dir_all(&base);
    let started = Instant::now();
    let corpus = corpus::write(&base, n, SEED, variant)?;
    say(&format!(
        "\n== N = {n} articles, {} code ({}) (runs: {runs}): {} article pages ({} vi, {} en; {} articles in both languages, the rest in one; drafts left out), {:.1} MB of Markdown in {} files (smallest {:.1} KB, median {:.1} KB, largest {:.1} KB), {} code blocks, {} pages without code (generated in {:.1} s) ==",
        variant.name(),
        variant.describe(),
        corpus.pages,
        corpus.vi,
        corpus.en,
        corpus.translated,
        corpus.markdown_bytes as f64 / 1e6,
        corpus.files,
        corpus.sizes[0] as f64 / 1e3,
        corpus.sizes[1] as f64 / 1e3,
        corpus.sizes[2] as f64 / 1e3,
        corpus.code_blocks,
        corpus.prose_only,
        started.elapsed().as_secs_f64()
    ));
    let parts = env_or("BENCH_PARTS", "cold,floor,search,rebuilds");
    let wants = |part: &str| parts.split(',').any(|p| p.trim() == part);
    let cold = if wants("cold") {
        Some(cold::cold_builds(&corpus, &base, runs)?)
    } else {
        None
    };
    if wants("floor") {
        floors(&corpus, cold.as_ref(), &base, runs)?;
    }
    if let Some(c) = &cold {
        let _ = std::fs::remove_dir_all(&c.out);
    }
    if wants("search") && first_variant {
        search_indexers(&corpus, runs)?;
    }
    let rebuilds = if wants("rebuilds") && first_variant {
        Some(rebuilds(&corpus, runs)?)
    } else {
        None
    };
    Ok(Summary {
        articles: n,
        variant,
        cold,
        rebuilds,
    })
}

/// The floor (read, pulldown-cmark, syntect over every block) and the writing floor (the same,
/// then writing the bytes of the cold build's output to as many files), and each cold build's
/// ratio to both with issue 40's target (≤ 1.4× the writing floor).
fn floors(corpus: &corpus::Corpus, cold: Option<&cold::Cold>, base: &Path, runs: usize) -> Res<()> {
    let floor = floor::floor(corpus, runs)?;
    say(&format!(
        "floor on {} cores, median of {runs}: read {:.3} s + pulldown-cmark {:.3} s + syntect {:.3} s ({} blocks, onig, bat's syntaxes as ours, a fresh set) = {:.3} s\n  (syntect with regexes already compiled: {:.3} s; loading bat's syntax set alone: {:.3} s)\n  highlighting each of the {} distinct blocks once instead: syntect {:.3} s, floor {:.3} s",
        rayon::current_num_threads(),
        floor.read.as_secs_f64(),
        floor.cmark.as_secs_f64(),
        floor.syntect.as_secs_f64(),
        floor.blocks,
        floor.total().as_secs_f64(),
        floor.warm.as_secs_f64(),
        floor.load.as_secs_f64(),
        floor.distinct_blocks,
        floor.distinct.as_secs_f64(),
        floor.total_distinct().as_secs_f64(),
    ));
    let Some(cold) = cold else {
        say(
            "  writing floor: skipped (it writes what the cold builds wrote: add `cold` to BENCH_PARTS)",
        );
        return Ok(());
    };
    let builds = [
        ("measured", &cold.ours, "0/measured"),
        (
            "measured without search index",
            &cold.plain,
            "0/measured-no-search",
        ),
    ];
    for (name, stats, dir) in builds {
        let written = floor::Written::read(&cold.out.join(dir))?;
        let write = written.time(&base.join("floor-write"), runs)?;
        let writing = floor.total() + write;
        let wall = stats.wall.as_secs_f64();
        say(&format!(
            "  {name}: {:.2} s; writing its {} files ({:.1} MB) {:.3} s, writing floor {:.3} s\n    {:.2}× the floor, {:.2}× the floor of distinct blocks, {:.2}× the writing floor",
            wall,
            written.files(),
            written.bytes() as f64 / 1e6,
            write.as_secs_f64(),
            writing.as_secs_f64(),
            wall / floor.total().as_secs_f64(),
            wall / floor.total_distinct().as_secs_f64(),
            wall / writing.as_secs_f64(),
        ));
        let x = wall / writing.as_secs_f64();
        say(&cold::verdict(
            &format!("cold, {name}/writing floor"),
            format!("{x:.2}×"),
            "≤ 1.4×",
            x <= 1.4,
        ));
    }
    Ok(())
}

/// A session on the corpus as `serve` holds one: frozen results, the search index left to a
/// job.
fn corpus_session(corpus: &corpus::Corpus) -> Session {
    Session::new(BuildOptions {
        root: corpus.measured.clone(),
        drafts: false,
        experiments: ExperimentOptions {
            frozen: true,
            ..Default::default()
        },
        search: SearchWhen::Later,
        only: None,
    })
}

/// Our search index against Pagefind's (which the site used before) on the same built
/// articles, in-process, both languages at once on their own threads as the site did: wall
/// time, files and bytes of each. Ours reads the text the Markdown stage gathered (its cost is
/// in the build's rendering), Pagefind the pages' HTML.
fn search_indexers(corpus: &corpus::Corpus, runs: usize) -> Res<()> {
    let mut session = corpus_session(corpus);
    let built = session.build(&Silent).map_err(|d| d.to_string())?;
    let job = built
        .search
        .ok_or("the first build of a session leaves an index to make")?;
    let by_lang = article_pages(&built.output);
    let pages: usize = by_lang.values().map(Vec::len).sum();
    let mut ours = (Vec::new(), 0, 0);
    let mut theirs = (Vec::new(), 0, 0);
    for _ in 0..runs {
        let started = Instant::now();
        let index = job.run().map_err(|d| d.to_string())?;
        ours.0.push(started.elapsed());
        let files = index.files();
        ours.1 = files.len();
        ours.2 = files.iter().map(|(_, b)| b.len()).sum();
        let started = Instant::now();
        let files: Vec<Vec<(String, usize)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = by_lang
                .values()
                .map(|pages| scope.spawn(move || pagefind_index(pages)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("Pagefind's thread"))
                .collect::<Result<_, String>>()
        })?;
        theirs.0.push(started.elapsed());
        let files: Vec<&(String, usize)> = files.iter().flatten().collect();
        theirs.1 = files.len();
        theirs.2 = files.iter().map(|(_, n)| n).sum();
    }
    let (ours_t, theirs_t) = (median(ours.0), median(theirs.0));
    say(&format!(
        "search index of the {pages} article pages, in-process, median of {runs}:\n  measured {:>8.2} s ({:.3} ms a page) {:>6} files {:>7.1} MB (JSON, uncompressed: hosts compress)\n  Pagefind {:>8.2} s ({:.3} ms a page) {:>6} files {:>7.1} MB (its own gzip at the best level)\n  measured/Pagefind: time {:.3}×",
        ours_t.as_secs_f64(),
        ms(ours_t) / pages as f64,
        ours.1,
        ours.2 as f64 / 1e6,
        theirs_t.as_secs_f64(),
        ms(theirs_t) / pages as f64,
        theirs.1,
        theirs.2 as f64 / 1e6,
        ours_t.as_secs_f64() / theirs_t.as_secs_f64(),
    ));
    Ok(())
}

/// The article pages of `output` by the language of their `<html lang>`: (path, HTML).
fn article_pages(
    output: &measured::output::Output,
) -> std::collections::BTreeMap<String, Vec<(&str, &str)>> {
    let mut by_lang: std::collections::BTreeMap<String, Vec<(&str, &str)>> = Default::default();
    for (path, bytes) in &output.files {
        let Ok(html) = std::str::from_utf8(bytes) else {
            continue;
        };
        if !path.ends_with(".html")
            || !html.contains("<meta property=\"og:type\" content=\"article\">")
        {
            continue;
        }
        let lang = html
            .split_once("<html lang=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or("", |(lang, _)| lang);
        by_lang
            .entry(lang.to_string())
            .or_default()
            .push((path, html));
    }
    by_lang
}

/// Pagefind's index of one language's pages, as the site made it before: (file, bytes).
fn pagefind_index(pages: &[(&str, &str)]) -> Result<Vec<(String, usize)>, String> {
    use pagefind::api::PagefindIndex;
    use pagefind::options::PagefindServiceConfig;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let options = PagefindServiceConfig::builder().build();
        let mut index = PagefindIndex::new(Some(options)).map_err(|e| e.to_string())?;
        for (path, html) in pages {
            // Pagefind's own markers for what our index reads: the article but for its
            // date line, table of contents, Reproduce section, series and related articles.
            let mut html = html.replace(
                "<article class=\"article\">",
                "<article class=\"article\" data-pagefind-body>",
            );
            for class in ["article-meta", "toc", "reproduce", "series", "related"] {
                html = html.replace(
                    &format!("class=\"{class}\""),
                    &format!("class=\"{class}\" data-pagefind-ignore"),
                );
            }
            let url = format!("/{}", path.strip_suffix("index.html").unwrap_or(path));
            index
                .add_html_file(None, Some(url), html)
                .await
                .map_err(|e| e.to_string())?;
        }
        let files = index.get_files().await.map_err(|e| e.to_string())?;
        Ok(files
            .into_iter()
            .map(|f| (f.filename.display().to_string(), f.contents.len()))
            .collect())
    })
}

/// Rebuilds through one `Session`, as `measured serve` does: the first build, builds after no
/// change, and builds after editing one article, each until its pages are ready to publish;
/// the search index that `serve` makes afterwards, on its own thread, is timed apart.
/// Returns the medians (no change, one edit).
fn rebuilds(corpus: &corpus::Corpus, runs: usize) -> Res<(Duration, Duration)> {
    let mut session = corpus_session(corpus);
    let mut indexing = Vec::new();
    // `None`: a build that stamps every input; else the files saved, as `serve` passes them.
    let mut build =
        |s: &mut Session, saved: Option<&[PathBuf]>| -> Res<(Duration, measured::pipeline::Work)> {
            let started = Instant::now();
            let built = match saved {
                None => s.build(&Silent),
                Some(paths) => s.build_after(paths, &Silent),
            }
            .map_err(|d| d.to_string())?;
            let took = started.elapsed();
            if let Some(job) = &built.search {
                let started = Instant::now();
                let index = job.run().map_err(|d| d.to_string())?;
                s.search_done(index);
                indexing.push(started.elapsed());
            }
            Ok((took, built.work))
        };
    let (first, _) = build(&mut session, None)?;
    let mut same = Vec::new();
    let mut same_work = Default::default();
    for _ in 0..runs {
        let (t, w) = build(&mut session, None)?;
        same.push(t);
        same_work = w;
    }
    let mut edits = Vec::new();
    let mut edit_work = Default::default();
    for k in 0..runs {
        let i = corpus.published_vi(corpus.articles / 2);
        corpus::edit_article(corpus, i, k)?;
        let saved = corpus.article_path(i);
        let saved = saved.strip_prefix(&corpus.measured)?.to_path_buf();
        let (t, w) = build(&mut session, Some(&[saved]))?;
        edits.push(t);
        edit_work = w;
    }
    let (same, edit) = (median(same), median(edits));
    let index = indexing.split_off(1);
    say(&format!(
        "rebuilds through Session (in memory, as `serve`): first {:.2} s (+ {:.2} s search index); no change {:.0} ms (median of {runs}, target < 300 ms; rendered {} bodies, {} pages); one-article edit {:.0} ms to publish (median of {runs}, target < 50 ms; rendered {} bodies, {} pages{}), then the search index {:.0} ms on its own thread (median of {})",
        first.as_secs_f64(),
        indexing.first().map_or(0.0, Duration::as_secs_f64),
        ms(same),
        same_work.bodies_rendered,
        same_work.pages_rendered,
        ms(edit),
        edit_work.bodies_rendered,
        edit_work.pages_rendered,
        if edit_work.whole {
            ", every stage"
        } else {
            ", no other stage"
        },
        if index.is_empty() {
            0.0
        } else {
            ms(median(index.clone()))
        },
        index.len()
    ));
    Ok((same, edit))
}

fn growth(s: &[Summary]) -> String {
    let mut out = String::from("\n== growth of rebuilds ==");
    for w in s.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let (Some((a_same, a_edit)), Some((b_same, b_edit))) = (a.rebuilds, b.rebuilds) else {
            continue;
        };
        out.push_str(&format!(
            "\n{} → {} articles ({:.0}×): no change {:.0} → {:.0} ms ({:.1}×), one edit {:.0} → {:.0} ms ({:.1}×)",
            a.articles,
            b.articles,
            b.articles as f64 / a.articles as f64,
            ms(a_same),
            ms(b_same),
            b_same.as_secs_f64() / a_same.as_secs_f64(),
            ms(a_edit),
            ms(b_edit),
            b_edit.as_secs_f64() / a_edit.as_secs_f64()
        ));
    }
    out
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let output = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|_| format!("{cmd}: not found"))
    };
    let mem = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .nth(1)
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or("?".into(), |kb| format!("{:.0} GB", kb / 1024.0 / 1024.0));
    let tool = |found: Result<cold::Tool, String>| match found {
        Ok(t) => format!("{} ({})", t.version, t.program.display()),
        Err(why) => why
            .split_once(": ")
            .map_or(why.clone(), |(_, rest)| rest.to_string()),
    };
    format!(
        "machine: {cpu}, {} cores, {mem} RAM, Linux {}; load average {}\nmeasured: {OURS}\nzola: {}\nhugo: {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        output("uname", &["-r"]),
        load_average(),
        tool(cold::find_tool("zola", &["--version"], cold::HOW_ZOLA)),
        tool(cold::find_tool("hugo", &["version"], cold::HOW_HUGO)),
    )
}

/// `/proc/loadavg`'s three averages: other work on the machine shows in every figure.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn median_of(runs: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..runs.max(1))
            .map(|_| {
                let started = Instant::now();
                f();
                started.elapsed()
            })
            .collect(),
    )
}

fn median<T: Ord + Copy>(mut v: Vec<T>) -> T {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

#[allow(clippy::print_stdout, reason = "a benchmark's report is its output")]
fn say(line: &str) {
    println!("{line}");
}
