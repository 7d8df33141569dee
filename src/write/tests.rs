//! Tests of the output's safety: what may be replaced, the swap, and the sweep of leftovers.

use super::*;

fn site(files: &[(&str, &str)]) -> Output {
    let mut o = Output::default();
    for (path, text) in files {
        o.insert((*path).into(), text.as_bytes().to_vec());
    }
    o
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A site root with a content folder, and its default output folder.
fn root() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("content/a")).unwrap();
    let out = dir.path().join("public");
    (dir, out)
}

fn write(out: &Path, root: &Path, o: &Output) -> Result<(), Diagnostics> {
    Target::check(out, root)?.write(o).map(Retired::remove)
}

#[test]
fn replaces_the_previous_output_whole_and_marks_it() {
    let (dir, out) = root();
    write(&out, dir.path(), &site(&[("stale.html", "old")])).unwrap();
    write(&out, dir.path(), &site(&[("a/index.html", "new")])).unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("a/index.html")).unwrap(),
        "new"
    );
    assert!(!out.join("stale.html").exists());
    assert!(
        std::fs::read_to_string(out.join(MARKER))
            .unwrap()
            .contains("built by measured")
    );
    assert_eq!(names(dir.path()), ["content", "public"]);
}

#[test]
fn the_previous_output_waits_in_the_retired_folder_until_removed() {
    let (dir, out) = root();
    write(&out, dir.path(), &site(&[("index.html", "old")])).unwrap();
    let retired = Target::check(&out, dir.path())
        .unwrap()
        .write(&site(&[("index.html", "new")]))
        .unwrap();
    let aside = retired.path().unwrap().to_path_buf();
    assert_eq!(
        std::fs::read_to_string(aside.join("index.html")).unwrap(),
        "old"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        "new"
    );
    remove_retired(&aside).unwrap();
    assert!(!aside.exists());
}

#[test]
fn an_empty_folder_is_replaced() {
    let (dir, out) = root();
    std::fs::create_dir_all(&out).unwrap();
    write(&out, dir.path(), &site(&[("index.html", "x")])).unwrap();
    assert!(out.join("index.html").is_file());
}

#[test]
fn a_folder_of_other_files_is_refused_and_kept() {
    let (dir, _) = root();
    let out = dir.path().join("notes");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("todo.txt"), "mine").unwrap();
    let e = write(&out, dir.path(), &site(&[("index.html", "x")])).unwrap_err();
    assert_eq!(
        e.0[0].message,
        "the output folder holds files that measured did not build (it has no \
         .measured-output file); refusing to replace it"
    );
    assert_eq!(e.0[0].place.path, out.canonicalize().unwrap());
    assert_eq!(
        std::fs::read_to_string(out.join("todo.txt")).unwrap(),
        "mine"
    );
    assert_eq!(names(dir.path()), ["content", "notes"]);
}

#[test]
fn a_regular_file_is_refused_and_kept() {
    let (dir, _) = root();
    let out = dir.path().join("file");
    std::fs::write(&out, "mine").unwrap();
    let e = write(&out, dir.path(), &site(&[("index.html", "x")])).unwrap_err();
    assert_eq!(e.0[0].message, "the output is a file, not a folder");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
}

#[test]
fn the_sources_and_the_folders_holding_them_are_refused() {
    let (dir, _) = root();
    let root = dir.path();
    std::fs::write(root.join("site.toml"), "").unwrap();
    let refused = [
        (root.to_path_buf(), "holds the site's sources"),
        (root.join(".."), "holds the site's sources"),
        (root.join("content"), "is the site's source"),
        (root.join("content/a/out"), "is inside the site's sources"),
        (root.join("static/new"), "is inside the site's sources"),
        (root.join("pages/out"), "is inside the site's sources"),
        (root.join("pages"), "is the site's source"),
        (root.join(".measured"), "is the site's source"),
        (root.join("site.toml"), "is the site's source"),
        (
            root.join("public/../experiments/x"),
            "is inside the site's sources",
        ),
    ];
    for (out, expected) in refused {
        let e = Target::check(&out, root).unwrap_err();
        assert!(e.0[0].message.contains(expected), "{}: {e}", out.display());
    }
    assert_eq!(names(root), ["content", "site.toml"]);
}

#[test]
fn a_failed_write_leaves_the_old_output_and_no_staging_folder() {
    let (dir, out) = root();
    write(&out, dir.path(), &site(&[("index.html", "old")])).unwrap();
    // A file and a folder of the same name: the second cannot be written.
    let e = write(
        &out,
        dir.path(),
        &site(&[("a", "file"), ("a/index.html", "x")]),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains(&out.canonicalize().unwrap().display().to_string()),
        "{e}"
    );
    assert!(!e.to_string().contains(".public.new-"), "{e}");
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        "old"
    );
    assert_eq!(names(dir.path()), ["content", "public"]);
}

#[test]
fn leftovers_of_killed_builds_are_swept_but_not_those_a_live_build_holds() {
    let (dir, out) = root();
    for leftover in [".public.new-abc", ".public.old-def"] {
        std::fs::create_dir_all(dir.path().join(leftover).join("a")).unwrap();
        std::fs::write(dir.path().join(leftover).join("a/index.html"), "x").unwrap();
        std::fs::write(dir.path().join(leftover).join(MARKER), MARKER_TEXT).unwrap();
    }
    let held = dir.path().join(".public.new-live");
    std::fs::create_dir_all(&held).unwrap();
    let _lock = swap::lock(&held).unwrap();
    write(&out, dir.path(), &site(&[("index.html", "x")])).unwrap();
    assert_eq!(names(dir.path()), [".public.new-live", "content", "public"]);
}

#[test]
fn remove_retired_removes_only_retired_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("a.txt"), "x").unwrap();
    assert!(remove_retired(&mine).is_err());
    let unmarked = dir.path().join(".public.old-x");
    std::fs::create_dir_all(&unmarked).unwrap();
    std::fs::write(unmarked.join("a.txt"), "x").unwrap();
    assert!(remove_retired(&unmarked).is_err());
    assert!(mine.join("a.txt").exists() && unmarked.join("a.txt").exists());
}

#[test]
fn the_experiments_folders_site_toml_names_are_sources_too() {
    let (dir, _) = root();
    let toml = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[experiments]\nfrozen_dir = \"results\"\n";
    std::fs::write(dir.path().join("site.toml"), toml).unwrap();
    let e = Target::check(&dir.path().join("results/out"), dir.path()).unwrap_err();
    assert!(
        e.0[0].message.contains("is inside the site's sources"),
        "{e}"
    );
}

#[test]
fn a_marker_that_is_a_symlink_is_no_marker() {
    let (dir, _) = root();
    let out = dir.path().join("f");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("b.txt"), "precious").unwrap();
    let elsewhere = dir.path().join("hostname");
    std::fs::write(&elsewhere, "box\n").unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join(MARKER)).unwrap();
    let e = write(&out, dir.path(), &site(&[("index.html", "x")])).unwrap_err();
    assert!(
        e.0[0]
            .message
            .starts_with("the output folder holds files that measured did not build"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("b.txt")).unwrap(),
        "precious"
    );
    // The detached remover refuses it too.
    let retired = dir.path().join(".public.old-link");
    std::fs::create_dir_all(&retired).unwrap();
    std::fs::write(retired.join("b.txt"), "precious").unwrap();
    std::os::unix::fs::symlink(&elsewhere, retired.join(MARKER)).unwrap();
    assert!(remove_retired(&retired).is_err());
    assert!(retired.join("b.txt").exists());
}

#[test]
fn the_sweep_leaves_a_users_folder_named_like_a_leftover() {
    let (dir, out) = root();
    for (name, file) in [
        (".public.old-mybackup", "notes.txt"),
        (".public.new-mine", "draft.txt"),
    ] {
        std::fs::create_dir_all(dir.path().join(name)).unwrap();
        std::fs::write(dir.path().join(name).join(file), "mine").unwrap();
    }
    // One with a marker that is a link is the user's too.
    let linked = dir.path().join(".public.old-linked");
    std::fs::create_dir_all(&linked).unwrap();
    std::fs::write(linked.join("a.txt"), "mine").unwrap();
    std::os::unix::fs::symlink("/etc/hostname", linked.join(MARKER)).unwrap();
    // A killed build's empty staging folder is swept.
    std::fs::create_dir_all(dir.path().join(".public.new-empty")).unwrap();
    write(&out, dir.path(), &site(&[("index.html", "x")])).unwrap();
    assert_eq!(
        names(dir.path()),
        [
            ".public.new-mine",
            ".public.old-linked",
            ".public.old-mybackup",
            "content",
            "public"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".public.old-mybackup/notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_staging_folder_is_marked_from_the_start() {
    let (dir, _) = root();
    let staging = swap::Staging::new(dir.path(), "public").unwrap();
    assert!(guard::has_marker(staging.path()));
    assert!(swap::is_ours(staging.path()));
}
