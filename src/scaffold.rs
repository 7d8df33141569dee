//! `measured new SLUG`: a new article folder with one file per language, front matter filled in.

use std::path::{Path, PathBuf};

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};

/// Creates `content/<slug>/index.<lang>.md` for every language; refuses to overwrite anything.
pub fn new_article(
    config: &SiteConfig,
    slug: &str,
    today: jiff::civil::Date,
) -> Result<Vec<PathBuf>, Diagnostics> {
    let valid = !slug.is_empty()
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-');
    if !valid {
        return Err(Diagnostic::new(
            Place::file(Path::new("content").join(slug)),
            format!("`{slug}` is not a slug"),
        )
        .with_hint("use lowercase ASCII letters, digits and `-`, e.g. tcp-handshake")
        .into());
    }
    let dir = config.root.join("content").join(slug);
    let files: Vec<PathBuf> = config
        .langs()
        .map(|l| dir.join(format!("index.{}.md", l.code())))
        .collect();
    if let Some(existing) = files.iter().find(|f| f.exists()) {
        return Err(
            Diagnostic::new(Place::file(existing), "the article already exists")
                .with_hint("choose another slug; measured never overwrites content")
                .into(),
        );
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| crate::diag::io_error(&dir, "create the article folder", &e))?;
    let title = slug.replace('-', " ");
    for (lang, file) in config.langs().zip(&files) {
        let text = format!(
            "{}\n<!-- {} -->\n",
            crate::frontmatter::scaffold(
                &title,
                &today.to_string(),
                &[("description", "\"\""), ("tags", "[]"), ("draft", "true")]
            ),
            if *lang == config.default_lang {
                "Viết bài ở đây."
            } else {
                "Write the article here."
            }
        );
        write_new(file, &text)?;
    }
    Ok(files)
}

/// Creates `experiments/<name>/`, a crate the workspace picks up (a `Cargo.toml` with the
/// harness, a `main.rs` with one timed section between `ANCHOR` markers, a declared output
/// table and its results written), and the article `slug` in every language, a draft
/// referencing it: a value, the output block, the timed code and a claim. `measured build
/// --only <slug> --drafts` builds it at once.
pub fn new_with_experiment(
    config: &SiteConfig,
    slug: &str,
    name: &str,
    today: jiff::civil::Date,
) -> Result<Vec<PathBuf>, Diagnostics> {
    let ws = &config.experiments.dir;
    let krate = ws.join(name);
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    let reserved = [crate::experiments::MACHINE, crate::experiments::CLAIM];
    if !valid || reserved.contains(&name) {
        return Err(Diagnostic::new(
            Place::file(&krate),
            format!("`{name}` cannot name an experiment"),
        )
        .with_hint("use lowercase ASCII letters, digits and `-`, starting with a letter (not `machine` or `claim`), e.g. vec-capacity")
        .into());
    }
    if krate.exists() {
        return Err(
            Diagnostic::new(Place::file(&krate), "the experiment already exists")
                .with_hint("choose another name; measured never overwrites an experiment")
                .into(),
        );
    }
    if !ws.join("Cargo.toml").is_file() || !ws.join("harness").is_dir() {
        return Err(Diagnostic::new(
            Place::file(ws.join("Cargo.toml")),
            "there is no experiments workspace with a harness to add the experiment to",
        )
        .with_hint("an experiment lives in experiments/<name>/ beside experiments/harness/ (docs/authoring.md, Experiments)")
        .into());
    }
    // The article first: it refuses an existing slug before anything is written.
    let mut files = article_with_experiment(config, slug, name, today)?;
    let manifest = format!(
        "[package]\nname = \"{name}\"\ndescription = \"{title}: what it measures\"\nedition.workspace = true\nversion.workspace = true\npublish.workspace = true\nrust-version.workspace = true\n\n[dependencies]\nharness = {{ path = \"../harness\" }}\n",
        title = slug.replace('-', " ")
    );
    let main = EXPERIMENT_MAIN.replace("{name}", name);
    for (rel, text) in [("Cargo.toml", manifest), ("src/main.rs", main)] {
        let path = krate.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| crate::diag::io_error(parent, "create the experiment folder", &e))?;
        }
        write_new(&path, &text)?;
        files.push(path);
    }
    Ok(files)
}

/// The article of a new experiment, in every language.
fn article_with_experiment(
    config: &SiteConfig,
    slug: &str,
    name: &str,
    today: jiff::civil::Date,
) -> Result<Vec<PathBuf>, Diagnostics> {
    let files = new_article(config, slug, today)?;
    for (lang, file) in config.langs().zip(&files) {
        let vi = *lang == config.default_lang;
        let claims = [(
            "claims",
            format!("\n  sum-is-fast: {name}.sum.time < 1000000"),
        )];
        let claims: Vec<(&str, &str)> = if vi {
            claims.iter().map(|(k, v)| (*k, v.as_str())).collect()
        } else {
            Vec::new()
        };
        let mut front = vec![("description", "\"\""), ("tags", "[]"), ("draft", "true")];
        front.extend(claims);
        let body = if vi {
            format!(
                "Cộng {{{{ {name}.sum.n }}}} số mất {{{{ {name}.sum.time }}}}. {{{{ claim.sum-is-fast }}}}\n\n```experiment {name}\n```\n\nĐoạn mã được đo:\n\n```source {name} sum\n```\n"
            )
        } else {
            format!(
                "Summing {{{{ {name}.sum.n }}}} numbers takes {{{{ {name}.sum.time }}}}. {{{{ claim.sum-is-fast }}}}\n\n```experiment {name}\n```\n\nThe code that is measured:\n\n```source {name} sum\n```\n"
            )
        };
        let text = format!(
            "{}\n{body}",
            crate::frontmatter::scaffold(&slug.replace('-', " "), &today.to_string(), &front)
        );
        crate::atomic::file(file, text.as_bytes())
            .map_err(|e| crate::diag::io_error(file, "write the article", &e))?;
    }
    Ok(files)
}

/// The `main.rs` of a new experiment (`{name}` replaced).
const EXPERIMENT_MAIN: &str = r#"//! {name}: what this experiment measures, in one sentence.
//!
//! Run it alone: `cd experiments && cargo build --release -p {name} && cd {name} &&
//! MEASURED_RESULTS=results.json ../target/release/{name}`; `measured build` runs it for the
//! articles that use it. The harness's README says what it offers.

use harness::declare::{Label, Table, same, value};

fn main() {
    let mut results = harness::Results::new();
    // Inputs: what the experiment chooses, not what it measures (claims cannot rest on them).
    let n: u64 = 1_000;
    results.input("sum.n", n);
    let numbers: Vec<u64> = (0..n).collect();
    // ANCHOR: sum
    let time = harness::bench(|| numbers.iter().sum::<u64>());
    // ANCHOR_END: sum
    results.set("sum.time", &time);
    // The output the article's ```experiment {name}``` block shows, in both languages.
    let mut table = Table::new([Label::new("phép đo", "measurement"), Label::new("thời gian", "time")]);
    table.row([same("sum"), value("sum.time")]);
    results.table(table);
    results.write();
}
"#;

/// Starts the `lang` translation of an article from its original (the default language's
/// file): same front matter, the original's body to translate, and `translated_from` set.
pub fn new_translation(
    config: &SiteConfig,
    slug: &str,
    lang: &str,
) -> Result<PathBuf, Diagnostics> {
    let (original_path, target) = translation_paths(config, slug, lang)?;
    if target.exists() {
        return Err(Diagnostic::new(Place::file(&target), "the translation already exists")
            .with_hint(format!("after updating it, record the original it follows with `measured translated {slug} {lang}`"))
            .into());
    }
    let text = std::fs::read_to_string(&original_path)
        .map_err(|e| crate::diag::io_error(&original_path, "read the original", &e))?;
    let split = crate::frontmatter::split(&original_path, &text)?;
    let hash = crate::content::short_hash(split.body);
    let kept: Vec<&str> = split
        .text
        .lines()
        .filter(|l| !is_key_line(l, "translated_from") && !is_key_line(l, "draft"))
        .collect();
    let added = [
        split.format.line("draft", "true"),
        split.format.line("translated_from", &format!("\"{hash}\"")),
    ];
    write_new(&target, &with_keys(&split, &kept, &added))?;
    Ok(target)
}

/// Records that the `lang` translation of `slug` now follows the current original.
pub fn mark_translated(
    config: &SiteConfig,
    slug: &str,
    lang: &str,
) -> Result<PathBuf, Diagnostics> {
    let (original_path, target) = translation_paths(config, slug, lang)?;
    let original = std::fs::read_to_string(&original_path)
        .map_err(|e| crate::diag::io_error(&original_path, "read the original", &e))?;
    let hash =
        crate::content::short_hash(crate::frontmatter::split(&original_path, &original)?.body);
    let text = std::fs::read_to_string(&target).map_err(|e| {
        Diagnostic::new(
            Place::file(&target),
            format!("cannot read the translation: {e}"),
        )
        .with_hint(format!(
            "start one with `measured new {slug} --translate {lang}`"
        ))
    })?;
    let split = crate::frontmatter::split(&target, &text)?;
    inside_site(config, &target)?;
    let kept: Vec<&str> = split
        .text
        .lines()
        .filter(|l| !is_key_line(l, "translated_from"))
        .collect();
    let added = [split.format.line("translated_from", &format!("\"{hash}\""))];
    let out = with_keys(&split, &kept, &added);
    // Through a symlink (a translation shared with another article stays shared), mode kept.
    crate::atomic::rewrite(&target, out.as_bytes())
        .map_err(|e| crate::diag::io_error(&target, "write", &e))?;
    Ok(target)
}

/// A translation that is a link is rewritten through it, but only when it leads to a file of
/// the site: measured writes nowhere else.
fn inside_site(config: &SiteConfig, target: &Path) -> Result<(), Diagnostic> {
    let (Ok(real), Ok(root)) = (target.canonicalize(), config.root.canonicalize()) else {
        return Ok(());
    };
    if real.starts_with(&root) {
        return Ok(());
    }
    Err(Diagnostic::new(
        Place::file(target),
        format!(
            "the translation is a link to {}, outside the site; measured writes only inside the site",
            real.display()
        ),
    )
    .with_hint("add `translated_from` to that file yourself, or copy it into the article folder"))
}

/// The file of `split` with the front matter lines `kept` and the top-level `added`: at the
/// end in YAML, before the first `[table]` in TOML (after it, they would belong to the table).
fn with_keys(split: &crate::frontmatter::Split<'_>, kept: &[&str], added: &[String]) -> String {
    let at = match split.format {
        crate::frontmatter::Format::Toml => kept
            .iter()
            .position(|l| l.trim_start().starts_with('['))
            .unwrap_or(kept.len()),
        crate::frontmatter::Format::Yaml => kept.len(),
    };
    let mut lines: Vec<&str> = kept[..at].to_vec();
    lines.extend(added.iter().map(String::as_str));
    lines.extend(&kept[at..]);
    let fence = split.format.fence();
    format!("{fence}\n{}\n{fence}\n{}", lines.join("\n"), split.body)
}

/// Whether `line` sets `key` (`key:` in YAML, `key =` in TOML).
fn is_key_line(line: &str, key: &str) -> bool {
    line.strip_prefix(key)
        .is_some_and(|rest| rest.trim_start().starts_with([':', '=']))
}

fn translation_paths(
    config: &SiteConfig,
    slug: &str,
    lang: &str,
) -> Result<(PathBuf, PathBuf), Diagnostics> {
    let is_folder_name = matches!(
        Path::new(slug).components().collect::<Vec<_>>()[..],
        [std::path::Component::Normal(_)]
    ) && !slug.contains(['/', '\\']);
    if !is_folder_name {
        return Err(Diagnostic::new(
            Place::file(config.root.join("content")),
            format!("`{slug}` is not the name of an article folder in content/"),
        )
        .with_hint("give the folder's name alone, as in `measured translated tcp-handshake en`")
        .into());
    }
    let dir = config.root.join("content").join(slug);
    let Some(lang) = config.lang(lang) else {
        return Err(Diagnostic::new(
            Place::file(config.root.join("site.toml")),
            format!("language `{lang}` is not in site.toml"),
        )
        .into());
    };
    if *lang == config.default_lang {
        return Err(Diagnostic::new(
            Place::file(&dir),
            format!("`{lang}` is the original language"),
        )
        .with_hint("translations are made from the default language into the others")
        .into());
    }
    let original = dir.join(format!("index.{}.md", config.default_lang.code()));
    if !original.exists() {
        return Err(
            Diagnostic::new(Place::file(&original), "the original does not exist")
                .with_hint(format!(
                    "write content/{slug}/index.{}.md first",
                    config.default_lang.code()
                ))
                .into(),
        );
    }
    Ok((original, dir.join(format!("index.{}.md", lang.code()))))
}

fn write_new(path: &Path, text: &str) -> Result<(), Diagnostics> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| crate::diag::io_error(path, "create the article", &e))?;
    f.write_all(text.as_bytes())
        .map_err(|e| crate::diag::io_error(path, "write the article", &e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaffolds_one_draft_per_language_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let text = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[languages.en]\ntitle = \"B\"\n";
        let config = crate::config::parse(dir.path(), &dir.path().join("site.toml"), text).unwrap();
        let files = new_article(&config, "tcp-handshake", jiff::civil::date(2026, 11, 29)).unwrap();
        assert_eq!(files.len(), 2);
        let vi = std::fs::read_to_string(&files[0]).unwrap();
        assert!(
            vi.starts_with("---\ntitle: tcp handshake\ndate: 2026-11-29\n"),
            "{vi}"
        );
        assert!(vi.contains("draft: true"));
        let doc = crate::content::parse_doc(
            &files[0],
            "tcp-handshake".into(),
            config.default_lang.clone(),
            &vi,
        )
        .unwrap();
        assert!(doc.front.draft);
        assert!(new_article(&config, "tcp-handshake", jiff::civil::date(2026, 11, 29)).is_err());
        assert!(new_article(&config, "Bad Slug", jiff::civil::date(2026, 11, 29)).is_err());
    }

    #[test]
    fn marking_a_translation_writes_through_its_link_and_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let text = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[languages.en]\ntitle = \"B\"\n";
        let config = crate::config::parse(root, &root.join("site.toml"), text).unwrap();
        std::fs::create_dir_all(root.join("content/a")).unwrap();
        std::fs::create_dir_all(root.join("shared")).unwrap();
        std::fs::write(
            root.join("content/a/index.vi.md"),
            "---\ntitle: A\ndate: 2026-01-02\n---\nx\n",
        )
        .unwrap();
        let shared = root.join("shared/en.md");
        std::fs::write(&shared, "---\ntitle: A\ndate: 2026-01-02\n---\ny\n").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = root.join("content/a/index.en.md");
        std::os::unix::fs::symlink("../../shared/en.md", &link).unwrap();
        mark_translated(&config, "a", "en").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let written = std::fs::read_to_string(&shared).unwrap();
        assert!(written.contains("translated_from: \""), "{written}");
        let mode = std::fs::metadata(&shared).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
        // A link out of the site is refused, and its file left as it was.
        let outside = tempfile::tempdir().unwrap();
        let theirs = outside.path().join("en.md");
        std::fs::write(&theirs, "---\ntitle: A\ndate: 2026-01-02\n---\ny\n").unwrap();
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&theirs, &link).unwrap();
        let e = mark_translated(&config, "a", "en").unwrap_err();
        assert!(e.0[0].message.contains("outside the site"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&theirs).unwrap(),
            "---\ntitle: A\ndate: 2026-01-02\n---\ny\n"
        );
    }

    #[test]
    fn translations_are_never_written_outside_content() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        let text = "base_url = \"https://e.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n[languages.en]\ntitle = \"B\"\n";
        let config = crate::config::parse(&root, &root.join("site.toml"), text).unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        let original = "---\ntitle: A\ndate: 2026-01-02\n---\nx\n";
        std::fs::write(outside.join("index.vi.md"), original).unwrap();
        std::fs::write(outside.join("index.en.md"), original).unwrap();
        for slug in [
            "../../outside",
            "../outside",
            "..",
            "a/../../outside",
            "/abs",
            "",
        ] {
            let e = mark_translated(&config, slug, "en").unwrap_err();
            assert_eq!(
                e.0[0].message,
                format!("`{slug}` is not the name of an article folder in content/")
            );
            assert!(new_translation(&config, slug, "en").is_err());
        }
        assert_eq!(
            std::fs::read_to_string(outside.join("index.en.md")).unwrap(),
            original
        );
    }
}
