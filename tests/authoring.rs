//! The author's loop at blog scale (issue 37): one experiment's change measures that
//! experiment only, frozen results that cannot lie, `freeze` that measures nothing and says
//! what it skipped, quick results kept apart from full ones, and summaries whose counts are
//! true.

mod common;

use common::TestSite;
use common::fixtures::{add_experiment, experiment_source, runs, site_with};

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A site whose article `a` shows experiments `one` and `two`.
fn two_experiments() -> TestSite {
    let site = site_with(&[
        ("one", experiment_source("one", r#"{"v": 1}"#)),
        ("two", experiment_source("two", r#"{"v": 2}"#)),
    ]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "{{ one.v }} {{ two.v }}\n",
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01",
        "{{ one.v }} {{ two.v }}\n",
    );
    site
}

#[test]
fn adding_an_experiment_measures_that_experiment_only_and_the_summary_says_so() {
    let site = two_experiments();
    let out = site.cli(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("(2 experiments used, 2 run (one, two, 6 process runs))"),
        "{}",
        stderr(&out)
    );
    assert_eq!(runs(&site).len(), 6);
    // A new experiment joins the workspace (and Cargo.lock) with a new article that uses it.
    add_experiment(&site, "three", &experiment_source("three", r#"{"v": 3}"#));
    site.article("b", "vi", "title: B\ndate: 2026-01-02", "{{ three.v }}\n");
    site.article("b", "en", "title: B\ndate: 2026-01-02", "{{ three.v }}\n");
    let out = site.cli(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = runs(&site);
    assert_eq!(&log[6..], ["three", "three", "three"], "{log:?}");
    assert!(
        stderr(&out).contains("(3 experiments used, 1 run (three, 3 process runs))"),
        "{}",
        stderr(&out)
    );
    // Nothing changed: nothing runs, and the summary says so.
    let out = site.cli(&["build"]);
    assert!(
        stderr(&out).contains("(3 experiments used, 0 run)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(runs(&site).len(), 9);
}

#[test]
fn freeze_copies_results_without_measuring_and_a_stale_frozen_result_is_refused() {
    let site = two_experiments();
    // Nothing measured yet: freeze measures nothing and says what to run, experiment by
    // experiment.
    let out = site.cli(&["freeze"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("`one` has no full results on this machine to freeze"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains(
            "`measured build --rerun one` (without --quick), then run `measured freeze one`"
        ),
        "{}",
        stderr(&out)
    );
    assert!(runs(&site).is_empty(), "freeze ran an experiment");
    assert!(site.cli(&["build"]).status.success());
    let out = site.cli(&["freeze"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(site.path("frozen/one.json").is_file() && site.path("frozen/two.json").is_file());
    assert_eq!(runs(&site).len(), 6, "freeze ran an experiment");
    assert!(site.cli(&["build", "--frozen"]).status.success());
    // The measured code changes: the frozen numbers would sit beside new code.
    add_experiment(
        &site,
        "one",
        &experiment_source("one changed", r#"{"v": 1}"#),
    );
    let out = site.cli(&["build", "--frozen"]);
    assert!(!out.status.success(), "a stale frozen result was published");
    let e = stderr(&out);
    assert!(
        e.contains("--frozen: the frozen results of `one` (used by ")
            && e.contains("content/a/index.vi.md"),
        "{e}"
    );
    assert!(
        e.contains(
            "are stale: its source (or the harness it uses) changed since they were measured"
        ),
        "{e}"
    );
    assert!(
        e.contains("`measured build --rerun one`), then freeze it (`measured freeze one`)"),
        "{e}"
    );
    assert!(!e.contains("`two`"), "{e}");
    // Once measured again, freezing that one experiment fixes it.
    assert!(site.cli(&["build", "--rerun", "one"]).status.success());
    let out = site.cli(&["freeze", "one"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(site.cli(&["build", "--frozen"]).status.success());
}

#[test]
fn freeze_says_what_it_skipped_for_drafts() {
    let site = site_with(&[("one", experiment_source("one", r#"{"v": 1}"#))]);
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01\ndraft: true",
        "{{ one.v }}\n",
    );
    site.article(
        "a",
        "en",
        "title: A\ndate: 2026-01-01\ndraft: true",
        "{{ one.v }}\n",
    );
    let out = site.cli(&["freeze"]);
    let e = stderr(&out);
    assert!(
        e.contains("skipped `one`: only draft articles use it (")
            && e.contains("freeze it by name: `measured freeze one`"),
        "{e}"
    );
    assert!(
        e.contains("nothing to freeze: no published article uses an experiment"),
        "{e}"
    );
    // And a build that publishes nothing because of drafts says so.
    let out = site.cli(&["build"]);
    let e = stderr(&out);
    assert!(
        e.contains("built 0 pages (2 drafts left out: --drafts includes them)"),
        "{e}"
    );
}

#[test]
fn quick_results_never_replace_full_ones() {
    let site = two_experiments();
    assert!(site.cli(&["build"]).status.success());
    let full = site.read(".measured/results/one.json");
    assert!(site.cli(&["build", "--quick"]).status.success());
    assert_eq!(runs(&site).len(), 12, "quick mode measures on its own");
    assert!(site.path(".measured/results-quick/one.json").is_file());
    assert_eq!(site.read(".measured/results/one.json"), full);
    // The full build reuses the full results; freeze finds them.
    let out = site.cli(&["build"]);
    assert!(stderr(&out).contains("0 run)"), "{}", stderr(&out));
    assert!(site.cli(&["freeze"]).status.success());
}

/// A site with this repository's experiments workspace manifest, lockfile and harness, and
/// an article `broken` whose experiment does not compile.
fn site_with_harness() -> TestSite {
    let site = TestSite::new();
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    for file in ["Cargo.toml", "Cargo.lock"] {
        site.write(
            &format!("experiments/{file}"),
            &std::fs::read_to_string(repo.join(file)).unwrap(),
        );
    }
    common::copy_dir(&repo.join("harness"), &site.path("experiments/harness"));
    // Left out of the copy: its build output.
    let _ = std::fs::remove_dir_all(site.path("experiments/harness/target"));
    add_experiment(&site, "broken", "fn main() { this does not compile }\n");
    site.write(
        "experiments/broken/Cargo.toml",
        "[package]\nname = \"broken\"\nedition.workspace = true\nversion.workspace = true\npublish.workspace = true\nrust-version.workspace = true\n",
    );
    site.article(
        "broken",
        "vi",
        "title: B\ndate: 2026-01-01",
        "{{ broken.v }}\n",
    );
    site.article(
        "broken",
        "en",
        "title: B\ndate: 2026-01-01",
        "{{ broken.v }}\n",
    );
    site
}

#[test]
fn a_new_experiment_scaffold_builds_alone_and_its_article_renders() {
    let site = site_with_harness();
    let out = site.cli(&["new", "vec-capacity", "--experiment", "vec-cap"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    for f in [
        "content/vec-capacity/index.vi.md",
        "content/vec-capacity/index.en.md",
        "experiments/vec-cap/Cargo.toml",
        "experiments/vec-cap/src/main.rs",
    ] {
        assert!(site.path(f).is_file(), "{f} missing; printed:\n{printed}");
    }
    assert!(
        printed.contains("measured build --only vec-capacity --drafts"),
        "{printed}"
    );
    // The article is a draft: --only names it, and says --drafts is needed.
    let out = site.cli(&["build", "--only", "vec-capacity"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--only: the article `vec-capacity` is a draft"),
        "{}",
        stderr(&out)
    );
    // Built alone, the other article's broken experiment is neither compiled nor run.
    let out = site.cli(&["build", "--only", "vec-capacity", "--drafts"]);
    let e = stderr(&out);
    assert!(out.status.success(), "{e}");
    assert!(e.contains("1 run (vec-cap, 3 process runs)"), "{e}");
    assert!(
        e.contains("holds only the article `vec-capacity` (--only)"),
        "{e}"
    );
    let page = site.read("public/vec-capacity/index.html");
    let doc = scraper::Html::parse_document(&page);
    assert_eq!(
        common::texts(&doc, "figure.experiment th"),
        ["phép đo", "thời gian"]
    );
    assert_eq!(common::attrs(&doc, "span.claim", "data-verdict"), ["holds"]);
    // The source block shows the timed code.
    assert!(
        page.contains("harness::bench"),
        "no excerpt of the timed section"
    );
    let en = site.read("public/en/vec-capacity/index.html");
    assert!(en.contains("measurement"), "{en}");
    // --only a name that is no article: the closest one.
    let out = site.cli(&["build", "--only", "vec-capacty", "--drafts"]);
    assert!(
        stderr(&out).contains("did you mean `vec-capacity`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn one_article_built_alone_links_to_the_others_without_errors() {
    let site = common::TestSite::new();
    for (slug, other) in [("a", "b"), ("b", "a")] {
        site.article(
            slug,
            "vi",
            "title: A\ndate: 2026-01-01",
            &format!("## Phần {{#phan}}\n\nXem [bài kia](/{other}/) và [mục](/{other}/#phan).\n"),
        );
        site.article(
            slug,
            "en",
            "title: A\ndate: 2026-01-01",
            &format!("## Part {{#part}}\n\nSee [the other](/en/{other}/#part).\n"),
        );
    }
    site.article(
        "c",
        "vi",
        "title: C\ndate: 2026-01-01\ndraft: true",
        "Nháp.\n",
    );
    site.article(
        "c",
        "en",
        "title: C\ndate: 2026-01-01\ndraft: true",
        "Draft.\n",
    );
    let out = site.cli(&["build", "--only", "a"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(site.path("public/index.html").is_file());
    assert!(!site.path("public/b/index.html").exists(), "b was built");
    // A link that is broken in the whole site is broken in the one article too.
    site.article(
        "a",
        "vi",
        "title: A\ndate: 2026-01-01",
        "Xem [nháp](/c/) và [không có](/nowhere/).\n",
    );
    let out = site.cli(&["build", "--only", "a"]);
    let e = stderr(&out);
    assert!(!out.status.success());
    assert!(e.contains("broken link `/c/`: /c/ is a draft"), "{e}");
    assert!(
        e.contains("broken link `/nowhere/`: nothing is published"),
        "{e}"
    );
}
