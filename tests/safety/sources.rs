//! Issue 35, writes and reads beyond the sources: `measure --out`, `--output` and the folders
//! `site.toml` moves, `run --on`'s ssh options, and symbolic links out of the site in `static/`.

use super::common::fixtures::frozen_site;
use super::common::{self, TestSite};
use super::{errors, failed};

#[test]
fn measure_out_never_writes_into_the_sources_or_over_a_file_it_did_not_write() {
    let site = frozen_site(serde_json::json!({ "x": 1 }));
    site.write("pages/about/index.vi.md", "---\ntitle: A\n---\nx\n");
    site.write(".measured/results/x.json", "{}");
    site.write("notes.txt", "mine");
    std::os::unix::fs::symlink(site.path("notes.txt"), site.path("link.json")).unwrap();
    let refused = [
        ("site.toml", "--out is the site's source site.toml"),
        (
            "pages/about/index.vi.md",
            "--out lies inside the site's sources (pages)",
        ),
        (
            ".measured/results/x.json",
            "--out lies inside the site's sources (.measured)",
        ),
        (
            "frozen/exp.json",
            "--out lies inside the site's sources (frozen)",
        ),
        (
            "notes.txt",
            "--out names a file that exists and is not a results file `measured measure` wrote",
        ),
        (
            "link.json",
            "--out names a file that exists and is not a results file `measured measure` wrote",
        ),
    ];
    let before = common::snapshot(site.root());
    for (out, message) in refused {
        let e = failed(site.cli(&["measure", "exp", "--out", out]));
        assert!(
            e.contains(&format!("{out}: error: {message}")),
            "{out}: {e}"
        );
        assert!(
            e.contains("pass a new path") || e.contains("write the results file elsewhere"),
            "{e}"
        );
    }
    assert_eq!(common::snapshot(site.root()), before);
}

#[test]
fn output_inside_pages_and_a_frozen_dir_over_content_are_refused() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "x\n");
    site.write(
        "pages/about/index.vi.md",
        "---\ntitle: Giới thiệu\n---\nx\n",
    );
    let e = failed(site.cli(&["build", "--output", "pages/out"]));
    assert!(
        e.contains("error: the output folder is inside the site's sources") && e.contains("pages"),
        "{e}"
    );
    assert!(!site.path("pages/out").exists());
    site.write(
        "site.toml",
        &format!(
            "{}[experiments]\nfrozen_dir = \"content\"\n",
            common::SITE_TOML
        ),
    );
    let e = failed(site.cli(&["build"]));
    assert!(
        e.contains("site.toml:8:1: error: [experiments] frozen_dir = \"content\" is the site's source content"),
        "{e}"
    );
    assert!(!site.path("public").exists());
}

#[test]
fn run_on_refuses_ssh_options_that_run_commands_here() {
    let site = TestSite::new();
    let pwned = site.path("pwned");
    let touch = format!("touch {}", pwned.display());
    for option in [
        format!("ProxyCommand={touch}"),
        format!("KnownHostsCommand={touch}"),
        format!("LocalCommand={touch}"),
        "PermitLocalCommand=yes".to_string(),
        format!("Match exec \"{touch}\""),
        "ProxyJump=me@127.0.0.1:1".to_string(),
    ] {
        let table = format!(
            "[hosts.box]\nssh = \"me@127.0.0.1\"\nport = 1\nssh_options = [{option:?}, \"PermitLocalCommand=yes\", \"LocalCommand={touch}\"]\n"
        );
        site.write("site.toml", &format!("{}{table}", common::SITE_TOML));
        let e = failed(site.cli(&["run", "--on", "box"]));
        let key = option.split(['=', ' ']).next().unwrap();
        assert!(
            e.contains("site.toml:10:1: error: [hosts.box] ssh_options entry")
                && e.contains(&format!("`{key}` ")),
            "{option}: {e}"
        );
        assert!(!pwned.exists(), "{option} ran a command");
    }
}

#[test]
fn a_link_in_static_leading_out_of_the_site_is_an_error_and_never_published() {
    let site = TestSite::new();
    site.article("a", "vi", "title: A\ndate: 2026-01-02", "x\n");
    let outside = tempfile::tempdir().unwrap();
    let key = outside.path().join("id_ed25519");
    std::fs::write(&key, "PRIVATE KEY").unwrap();
    site.write("static/img/inside.txt", "shared");
    std::os::unix::fs::symlink(&key, site.path("static/img/logo.png")).unwrap();
    std::os::unix::fs::symlink(outside.path(), site.path("static/vendor")).unwrap();
    std::os::unix::fs::symlink(site.path("content/a/index.vi.md"), site.path("static/a.md"))
        .unwrap();
    let mut got = errors(&site);
    got.sort();
    assert_eq!(
        got,
        [
            (
                "static/img/logo.png".to_string(),
                None,
                format!("a symbolic link to {}, outside the site", key.display())
            ),
            (
                "static/vendor".to_string(),
                None,
                format!(
                    "a symbolic link to {}, outside the site",
                    outside.path().display()
                )
            ),
        ]
    );
    // Removed, the site builds, and a link inside the site is followed.
    std::fs::remove_file(site.path("static/img/logo.png")).unwrap();
    std::fs::remove_file(site.path("static/vendor")).unwrap();
    let built = site.build().unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        built.output.text("img/inside.txt").as_deref(),
        Some("shared")
    );
    assert!(
        built
            .output
            .text("a.md")
            .is_some_and(|t| t.contains("title: A"))
    );
    assert!(built.output.text("img/logo.png").is_none());
}
