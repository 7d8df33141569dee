//! Finding the posts of a Hugo, Zola or Jekyll site: which files are articles, their
//! language, their page bundle, their section, and the notes on what is skipped.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

pub use super::post::{Found, Origin, Post, split_lang};
use super::{Generator, Note};
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::lang::Lang;

/// The posts of the `generator` site at `src`, or an error if `src` is not such a site.
pub fn find(generator: Generator, src: &Path) -> Result<Found, Diagnostics> {
    let posts_dir = match generator {
        Generator::Jekyll => src.join("_posts"),
        _ => src.join("content"),
    };
    if !is_site(generator, src) || !posts_dir.is_dir() {
        let wants = match generator {
            Generator::Hugo => "a content/ folder and hugo.toml, hugo.yaml or config.toml",
            Generator::Zola => "a content/ folder and a config.toml with `base_url`",
            Generator::Jekyll => "a _posts/ folder",
        };
        return Err(Diagnostic::new(
            Place::file(src),
            format!("this is not a {} site: it has no {wants}", generator.name()),
        )
        .with_hint("give the folder that holds the site's configuration, or choose the generator that made it")
        .into());
    }
    let mut found = Found {
        posts: Vec::new(),
        sections: Vec::new(),
        section_files: Vec::new(),
        lang: None,
        notes: Vec::new(),
    };
    let mut diags = Diagnostics::default();
    for entry in WalkDir::new(&posts_dir).sort_by_file_name() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().unwrap_or(&posts_dir).to_path_buf();
                diags.push(Diagnostic::new(
                    Place::file(path),
                    format!("cannot read: {e}"),
                ));
                continue;
            }
        };
        let path = entry.path();
        let rel = path.strip_prefix(src).unwrap_or(path).to_path_buf();
        let is_md = path
            .extension()
            .is_some_and(|e| e == "md" || e == "markdown");
        if entry.path_is_symlink() {
            found.notes.push(Note::file(
                path,
                "a symbolic link: skipped, copy what it points to by hand",
            ));
            continue;
        }
        if !entry.file_type().is_file() {
            continue;
        }
        if !is_md {
            let inner = path.strip_prefix(&posts_dir).unwrap_or(path);
            match not_markdown(generator, &posts_dir, inner) {
                Loose::Bundled => {}
                Loose::Section => found.section_files.push(inner.to_path_buf()),
                Loose::Note(why) => found.notes.push(Note::file(path, why)),
            }
            continue;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                diags.push(crate::diag::io_error(path, "read the post", &e));
                continue;
            }
        };
        let inner = path.strip_prefix(&posts_dir).unwrap_or(path);
        if let Some(bundle) = resource_of(generator, &posts_dir, inner) {
            found.notes.push(Note::file(
                path,
                format!(
                    "a Markdown resource of the bundle {}, which its templates render, not a page: \
                     skipped, copy what you need into the article",
                    bundle.display()
                ),
            ));
            continue;
        }
        if is_headless(&text) {
            found.notes.push(Note::file(
                path,
                "a headless bundle (`headless: true`): Hugo publishes no page for it, skipped",
            ));
            continue;
        }
        match post(generator, inner, rel.clone(), text) {
            Ok(p) if p.origin == Origin::Section => found.sections.push(p),
            Ok(p) => found.posts.push(p),
            Err(note) => found.notes.push(Note::file(src.join(&rel), note)),
        }
    }
    if generator == Generator::Jekyll {
        super::jekyll::drafts_and_pages(src, &mut found, &mut diags);
    }
    diags.into_result(found)
}

/// What becomes of a file of the posts folder that is not Markdown.
enum Loose {
    /// A leaf bundle's file, copied with its article.
    Bundled,
    /// A file of a section (a folder with an `_index.md`, the home's included), which Hugo and
    /// Zola publish at its path: copied to `static/` there.
    Section,
    /// Not imported, and why.
    Note(String),
}

/// What becomes of `inner`, a file of the posts folder that is not Markdown: a page in a format
/// the import does not read (HTML, Org, AsciiDoc…) is noted, a bundle's file goes with its
/// article, a section's to `static/`, and one outside any bundle is noted.
fn not_markdown(generator: Generator, posts_dir: &Path, inner: &Path) -> Loose {
    let ext = inner
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_lowercase();
    if [
        "html", "htm", "org", "adoc", "asciidoc", "rst", "pandoc", "pdc", "textile",
    ]
    .contains(&ext.as_str())
    {
        return Loose::Note(format!(
            "a page written in `.{ext}`, which the import does not read: not imported; convert it to Markdown (pages/ or content/) by hand"
        ));
    }
    if generator == Generator::Jekyll {
        return Loose::Note("not a post (`_posts/` holds Markdown posts): not imported".into());
    }
    let holds = |dir: &Path, index: &str| {
        std::fs::read_dir(posts_dir.join(dir)).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                split_lang(&name).0 == index
                    && (name.ends_with(".md") || name.ends_with(".markdown"))
            })
        })
    };
    let dirs: Vec<&Path> = inner.ancestors().skip(1).collect();
    if dirs.iter().any(|d| holds(d, "index")) {
        Loose::Bundled
    } else if dirs.iter().any(|d| holds(d, "_index")) {
        Loose::Section
    } else {
        Loose::Note(
            "a file outside any page bundle, which the generator does not publish: not copied; if a page shows it, put it in static/"
                .into(),
        )
    }
}

/// The leaf bundle (a folder with an `index.md`, `index.<lang>.md`) that `inner`, a Markdown
/// file under the posts folder other than the bundle's index, belongs to: Hugo and Zola treat
/// it as a resource of the bundle, not as a page.
fn resource_of(generator: Generator, posts_dir: &Path, inner: &Path) -> Option<PathBuf> {
    if generator == Generator::Jekyll {
        return None;
    }
    let name = inner.file_name()?.to_str()?;
    let is_index = |n: &str| split_lang(n).0 == "index";
    let mut dir = inner.parent();
    let mut own = true;
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
        let has_index = std::fs::read_dir(posts_dir.join(d))
            .ok()?
            .flatten()
            .any(|e| {
                e.file_name().to_str().is_some_and(|n| {
                    is_index(n) && (n.ends_with(".md") || n.ends_with(".markdown"))
                })
            });
        // The index itself is the bundle's page; so is a file beside it only if it is one.
        if has_index && !(own && is_index(name)) {
            return Some(d.to_path_buf());
        }
        own = false;
        dir = d.parent();
    }
    None
}

/// Whether a page's front matter says `headless: true` (Hugo: a bundle with no page).
fn is_headless(text: &str) -> bool {
    let mut lines = text.lines();
    let Some(fence) = lines.next().map(str::trim) else {
        return false;
    };
    if fence != "---" && fence != "+++" {
        return false;
    }
    lines
        .take_while(|l| l.trim() != fence)
        .map(|l| l.replace(' ', ""))
        .any(|l| l == "headless:true" || l == "headless=true")
}

fn is_site(generator: Generator, src: &Path) -> bool {
    let has = |name: &str| src.join(name).is_file();
    match generator {
        Generator::Hugo => [
            "hugo.toml",
            "hugo.yaml",
            "hugo.json",
            "config.toml",
            "config.yaml",
        ]
        .iter()
        .any(|n| has(n)),
        Generator::Zola => std::fs::read_to_string(src.join("config.toml"))
            .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("base_url"))),
        Generator::Jekyll => true,
    }
}

/// The post at `inner` (relative to content/ or _posts/), or why it is not one.
fn post(generator: Generator, inner: &Path, rel: PathBuf, text: String) -> Result<Post, String> {
    let name = inner
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let (base, lang) = split_lang(name);
    let parent = inner.parent().unwrap_or(Path::new(""));
    let section_of = |p: &Path| p.to_string_lossy().replace('\\', "/");
    if generator == Generator::Jekyll {
        let (date, slug) = jekyll_name(base)
            .ok_or("not named YYYY-MM-DD-title.md, so Jekyll does not publish it: skipped")?;
        return Ok(Post {
            rel,
            text,
            lang,
            stem: slug.to_string(),
            section: String::new(),
            bundle: None,
            file_date: Some(date.to_string()),
            at_root: true,
            origin: Origin::Post,
        });
    }
    if base == "_index" {
        return Ok(Post {
            rel,
            text,
            lang,
            stem: String::new(),
            section: section_of(parent),
            bundle: None,
            file_date: None,
            at_root: true,
            origin: Origin::Section,
        });
    }
    let (stem, section, bundle) = if base == "index" {
        let dir = parent
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let section = parent.parent().map(section_of).unwrap_or_default();
        let abs = PathBuf::from(rel.parent().unwrap_or(Path::new("")));
        (dir.to_string(), section, Some(abs))
    } else {
        (base.to_string(), section_of(parent), None)
    };
    if stem.is_empty() {
        return Err("a page at the top of content/: skipped, it is no article".into());
    }
    // Zola takes a page's date from a name `2024-01-02-x` and publishes it as `x`.
    let (stem, file_date) = match super::old_urls::zola_stem(&stem) {
        rest if generator == Generator::Zola && rest.len() < stem.len() => {
            (rest.to_string(), Some(stem[..10].to_string()))
        }
        _ => (stem, None),
    };
    Ok(Post {
        rel,
        text,
        lang,
        stem,
        section,
        bundle,
        file_date,
        at_root: true,
        origin: Origin::Post,
    })
}

/// `2016-01-08-hello` → (`2016-01-08`, `hello`).
fn jekyll_name(base: &str) -> Option<(&str, &str)> {
    let date = base.get(..10)?;
    let slug = base.get(11..)?;
    let shape = date.bytes().enumerate().all(|(i, b)| match i {
        4 | 7 => b == b'-',
        _ => b.is_ascii_digit(),
    });
    (shape && base.as_bytes().get(10) == Some(&b'-') && !slug.is_empty()).then_some((date, slug))
}

/// The posts grouped by article, the default language's file first; a file without a
/// language in its name is in `unnamed` (the source's default), else in `default_lang`.
pub fn group(posts: Vec<Post>, unnamed: Option<&Lang>, default_lang: &Lang) -> Vec<Vec<Post>> {
    let mut groups: std::collections::BTreeMap<(u8, String, String), Vec<Post>> =
        Default::default();
    for mut p in posts {
        p.at_root = p.lang.is_none() || p.lang.as_ref() == unnamed;
        p.lang = p.lang.or_else(|| unnamed.cloned());
        if p.lang.as_ref() == Some(default_lang) {
            p.lang = None;
        }
        groups.entry(p.key()).or_default().push(p);
    }
    groups
        .into_values()
        .map(|mut g| {
            g.sort_by_key(|p| p.lang.clone());
            g
        })
        .collect()
}

/// The files of a page bundle other than its Markdown, relative to the bundle (SRC-relative
/// folder `bundle`, given here as joined to SRC by the caller).
pub fn bundle_files(bundle: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = WalkDir::new(bundle)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| e.path().extension().is_none_or(|x| x != "md"))
        .filter_map(|e| e.path().strip_prefix(bundle).ok().map(Path::to_path_buf))
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_language_and_jekyll_date() {
        assert_eq!(split_lang("x.en.md").1.unwrap().code(), "en");
        assert_eq!(split_lang("x.md"), ("x", None));
        assert_eq!(split_lang("v1.2.md").0, "v1.2");
        assert_eq!(
            jekyll_name("2016-01-08-hello-world"),
            Some(("2016-01-08", "hello-world"))
        );
        assert_eq!(jekyll_name("2016-1-08-x"), None);
    }
}
