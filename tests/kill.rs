//! The output survives `kill -9` at any moment: a generated site is built by the real binary,
//! which is killed with SIGKILL after seeded random delays spread over a whole build (loading,
//! rendering, writing the staging folder, the swap, handing the old output to its remover).
//! After each kill, `public/` must be exactly the old site or exactly the new one, and the next
//! build that runs to its end must leave no staging or retired folder behind.

mod common;

#[allow(
    dead_code,
    reason = "the test writes a corpus and uses nothing else of the benchmark"
)]
#[path = "../benches/corpus/mod.rs"]
mod corpus;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::snapshot;

/// Articles in the generated site (each in two languages): enough that a debug build takes
/// most of a second, so that delays spread over it land in each of its stages.
const ARTICLES: usize = 60;
const KILLS: usize = 40;
/// After this many kills, a build runs to its end and is checked for leftovers (so is every
/// build that ended before its kill).
const KILLS_PER_FULL_BUILD: usize = 10;

type Snapshot = Vec<(PathBuf, Vec<u8>)>;

fn start_build(root: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_measured"))
        .args(["build", "--frozen", "--root"])
        .arg(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start measured build")
}

/// Runs a build to its end; returns how long it took.
fn full_build(root: &Path) -> Duration {
    let started = Instant::now();
    let status = start_build(root).wait().expect("wait for the build");
    assert!(status.success(), "a build that was not killed failed");
    started.elapsed()
}

/// The staging and retired folders beside `public/`.
fn leftovers(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .expect("read the site root")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".public."))
        .collect();
    names.sort();
    names
}

/// Waits for the detached remover of the last build to finish; fails if leftovers remain.
fn assert_no_leftovers(root: &Path) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !leftovers(root).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        leftovers(root),
        Vec::<String>::new(),
        "a build left folders behind"
    );
}

/// What differs between two snapshots, briefly (the files' bytes would be unreadable).
fn difference(got: &Snapshot, want: &Snapshot) -> String {
    let names = |s: &Snapshot| -> Vec<PathBuf> { s.iter().map(|(p, _)| p.clone()).collect() };
    let (got_names, want_names) = (names(got), names(want));
    let missing: Vec<_> = want_names
        .iter()
        .filter(|p| !got_names.contains(p))
        .take(5)
        .collect();
    let extra: Vec<_> = got_names
        .iter()
        .filter(|p| !want_names.contains(p))
        .take(5)
        .collect();
    let changed: Vec<_> = got
        .iter()
        .filter(|(p, b)| want.iter().any(|(q, c)| p == q && b != c))
        .map(|(p, _)| p)
        .take(5)
        .collect();
    format!(
        "{} files (want {}); missing {missing:?}, extra {extra:?}, changed {changed:?}",
        got.len(),
        want.len()
    )
}

#[test]
fn the_output_is_the_old_site_or_the_new_one_after_kill_9_at_any_moment() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = corpus::write(tmp.path(), ARTICLES, 7, corpus::CodeVariant::Shared)
        .expect("write the corpus")
        .measured;
    let public = root.join("public");
    // The two versions differ by one paragraph of one article.
    let article = root
        .join("content")
        .join(corpus_slug(&root))
        .join("index.vi.md");
    let text_a = std::fs::read_to_string(&article).expect("read the article");
    let texts = [
        text_a.clone(),
        format!("{text_a}\nMột đoạn chỉ có ở phiên bản thứ hai.\n"),
    ];
    let mut sites: Vec<Snapshot> = Vec::new();
    let mut took = Duration::ZERO;
    for text in &texts {
        std::fs::write(&article, text).expect("write the article");
        took = full_build(&root);
        sites.push(snapshot(&public));
    }
    assert_ne!(
        sites[0], sites[1],
        "the two versions must build different sites"
    );
    assert_no_leftovers(&root);
    // Half the delays anywhere in a build (and past its end), half from its last third on,
    // where the staging folder is written and swapped in, to twice its length: a build slowed
    // by a busy machine still ends before some of them (under load, with the window ending at
    // 1.1× the calibration build, all the kills once landed before the swap).
    let whole = took.as_millis() as usize;
    let mut rng = corpus::Rng::new(22);
    let mut current = 1;
    let mut outcomes = [0, 0];
    for kill in 0..KILLS {
        let next = 1 - current;
        std::fs::write(&article, &texts[next]).expect("write the article");
        let delay = if kill % 2 == 0 {
            rng.range(0, whole * 6 / 5)
        } else {
            rng.range(whole * 2 / 3, whole * 2)
        };
        let mut build = start_build(&root);
        std::thread::sleep(Duration::from_millis(delay as u64));
        let ended = build.try_wait().expect("poll the build");
        let _ = build.kill();
        build.wait().expect("reap the build");
        let now = snapshot(&public);
        if now == sites[next] {
            outcomes[1] += 1;
            current = next;
        } else if now == sites[current] {
            outcomes[0] += 1;
        } else {
            panic!(
                "after a kill {delay} ms into a build, public/ is neither the old site nor the \
                 new one: {}",
                difference(&now, &sites[next])
            );
        }
        if let Some(status) = ended {
            assert!(status.success(), "a build that was not killed failed");
            assert_eq!(current, next, "a build that ended left the old site");
            assert_no_leftovers(&root);
        }
        if kill % KILLS_PER_FULL_BUILD == KILLS_PER_FULL_BUILD - 1 {
            full_build(&root);
            current = next;
            assert!(
                snapshot(&public) == sites[current],
                "the full build made another site"
            );
            assert_no_leftovers(&root);
        }
    }
    assert!(
        outcomes[0] > 0 && outcomes[1] > 0,
        "kills should land both before and after the swap: {outcomes:?} (old, new)"
    );
}

/// The folder of one article of the corpus that has a Vietnamese file (some have English only).
fn corpus_slug(root: &Path) -> String {
    let mut dirs: Vec<String> = std::fs::read_dir(root.join("content"))
        .expect("read content")
        .map(|e| e.expect("entry"))
        .filter(|e| e.path().join("index.vi.md").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    dirs.into_iter().next().expect("an article")
}
