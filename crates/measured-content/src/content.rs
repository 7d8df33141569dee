//! Loading: walk `content/`, split and validate each article's front matter, and list the assets
//! of each article folder. The output is a list of source documents, still unrelated to each other.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::SiteConfig;
use crate::frontmatter::{self, DATE_HINT, RawFrontMatter, Split};
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::lang::Lang;

mod walk;

pub use crate::frontmatter::Moment;

/// Validated front matter.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontMatter {
    pub title: String,
    pub date: Moment,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub series: Option<String>,
    pub part: Option<u32>,
    pub draft: bool,
    pub updated: Option<Moment>,
    pub slug: Option<String>,
    /// The 1-based line of `slug:` in the file, when it is there.
    pub slug_line: Option<usize>,
    /// The 1-based line of `tags:` in the file, when it is there.
    pub tags_line: Option<usize>,
    /// Old URLs that redirect to the article: site paths, `/` first and last.
    pub aliases: Vec<Alias>,
    /// The 1-based line of `aliases:` in the file, when it is there.
    pub aliases_line: Option<usize>,
    /// The claims this file declares for its article, with where each is written.
    pub claims: Option<crate::frontmatter::claims::Written>,
    pub translated_from: Option<String>,
    /// The social card's headline value (`card:`), with the 1-based line it is written on.
    pub card: Option<(String, usize)>,
    /// What the card says the value is (`card_label:`).
    pub card_label: Option<String>,
}

/// An old URL of the article (`aliases:`), decoded and composed ([`measured_core::urls::alias_path`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    /// The site path it names: `/café/` or `/2016/x.html`.
    pub path: String,
    /// As the front matter writes it (`/caf%C3%A9/`).
    pub written: String,
    /// The 1-based line of the file it is written on.
    pub line: usize,
}

/// One Markdown file of `content/`.
#[derive(Debug, Clone)]
pub struct SourceDoc {
    /// The file, as a path under the site root (for messages) joined to the root.
    pub path: PathBuf,
    /// The article folder's name: `content/<dir>/`.
    pub dir: String,
    pub lang: Lang,
    pub front: FrontMatter,
    pub body: std::sync::Arc<str>,
    /// 1-based line of the file where `body` starts.
    pub body_line: usize,
    /// A short hash of the body, which translations record as `translated_from`.
    pub content_hash: String,
    /// The full hash of the body, the key of what later stages derive from it.
    pub body_hash: blake3::Hash,
    /// Whether the body refers to experiments' results (values, blocks, excerpts): such a
    /// body renders anew when a result changes.
    pub uses_results: bool,
}

/// Everything under `content/`.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub docs: Vec<SourceDoc>,
    /// Asset files per article folder, as paths relative to that folder.
    pub assets: Vec<(String, Vec<PathBuf>)>,
    /// What looks like a mistake but builds (a file named almost like an article).
    pub warnings: Vec<Diagnostic>,
}

/// Parsed articles of an earlier build, by path, with the stamp (length, modification time)
/// of the file they were parsed from.
pub type DocMemo = std::collections::HashMap<PathBuf, (Stamp, SourceDoc)>;

/// What identifies a version of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let m = std::fs::metadata(path).ok()?;
        Some(Stamp {
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
}

/// Walks `content/` and parses every article file, reporting all errors together.
pub fn load(config: &SiteConfig) -> Result<Content, Diagnostics> {
    load_with(config, &DocMemo::new()).map(|(c, _)| c)
}

/// [`load`], reusing the documents of `memo` whose files did not change; returns the new memo.
pub fn load_with(config: &SiteConfig, memo: &DocMemo) -> Result<(Content, DocMemo), Diagnostics> {
    let loaded = load_deferring(config, memo)?;
    loaded.errors.into_result((loaded.content, loaded.memo))
}

/// What [`load_deferring`] read: the articles that parsed, and the errors of the others, which
/// a build reports with those of its later stages.
pub struct Loaded {
    pub content: Content,
    pub memo: DocMemo,
    pub errors: Diagnostics,
    /// The files whose front matter failed: (folder, language, file).
    pub failed: Vec<(String, Lang, PathBuf)>,
}

/// [`load_with`], the articles that fail left out and their errors kept aside; only a site
/// without a content folder fails here.
pub fn load_deferring(config: &SiteConfig, memo: &DocMemo) -> Result<Loaded, Diagnostics> {
    let content_dir = config.root.join("content");
    if !content_dir.is_dir() {
        return Err(
            Diagnostic::new(Place::file(&content_dir), "there is no content folder")
                .with_hint("create content/<slug>/index.<lang>.md, or run `measured new SLUG`")
                .into(),
        );
    }
    let walk::Walk {
        md_files,
        assets,
        mut diags,
        warnings,
    } = walk::walk(config, &content_dir);
    type Parsed = Result<(Option<Stamp>, SourceDoc), (Diagnostics, String, Lang, PathBuf)>;
    let parsed: Vec<Parsed> = md_files
        .into_par_iter()
        .map(|(path, dir, lang)| {
            let stamp = Stamp::of(&path);
            match memo.get(&path) {
                Some((old, doc)) if Some(*old) == stamp && doc.dir == dir && doc.lang == lang => {
                    Ok((stamp, doc.clone()))
                }
                _ => match load_doc(&path, dir.clone(), lang.clone()) {
                    Ok(d) => Ok((stamp, d)),
                    Err(d) => Err((d, dir, lang, path)),
                },
            }
        })
        .collect();
    let mut docs = Vec::new();
    let mut next = DocMemo::new();
    let mut failed = Vec::new();
    for p in parsed {
        match p {
            Ok((stamp, d)) => {
                if let Some(stamp) = stamp {
                    next.insert(d.path.clone(), (stamp, d.clone()));
                }
                docs.push(d);
            }
            Err((d, dir, lang, path)) => {
                diags.extend(d);
                failed.push((dir, lang, path));
            }
        }
    }
    Ok(Loaded {
        content: Content {
            docs,
            assets: assets.into_iter().collect(),
            warnings,
        },
        memo: next,
        errors: diags,
        failed,
    })
}

/// Reads and validates one article file.
pub fn load_doc(path: &Path, dir: String, lang: Lang) -> Result<SourceDoc, Diagnostics> {
    let text = measured_core::diag::read_text(path, "the article")?;
    parse_doc(path, dir, lang, &text)
}

/// Parses the text of one article file, reporting every error of its front matter.
pub fn parse_doc(
    path: &Path,
    dir: String,
    lang: Lang,
    text: &str,
) -> Result<SourceDoc, Diagnostics> {
    let split = frontmatter::split(path, text)?;
    let raw = frontmatter::parse(path, &split)?;
    let front = validate(path, &split, raw)?;
    Ok(SourceDoc {
        path: path.to_path_buf(),
        dir,
        lang,
        front,
        body: std::sync::Arc::from(split.body),
        body_line: split.body_line,
        content_hash: short_hash(split.body),
        body_hash: blake3::hash(split.body.as_bytes()),
        uses_results: ["{{", "```experiment", "```source"]
            .iter()
            .any(|m| split.body.contains(m)),
    })
}

/// The short content hash a translation records in `translated_from`.
pub fn short_hash(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex()[..12].to_string()
}

fn validate(
    path: &Path,
    split: &Split<'_>,
    raw: RawFrontMatter,
) -> Result<FrontMatter, Diagnostics> {
    let RawFrontMatter {
        title,
        date,
        description,
        tags,
        series,
        part,
        draft,
        updated,
        slug,
        aliases,
        claims,
        translated_from,
        card,
        card_label,
    } = raw;
    let mut diags = Diagnostics::default();
    let texts = [
        ("title", Some(&title)),
        ("description", description.as_ref()),
        ("series", series.as_ref()),
        ("card_label", card_label.as_ref()),
    ];
    let texts: Vec<(&str, &str)> = texts
        .iter()
        .filter_map(|(k, v)| v.map(|v| (*k, v.as_str())))
        .chain(tags.iter().map(|t| ("tags", t.as_str())))
        .collect();
    diags.extend(frontmatter::check_text(path, split, &texts));
    let mut bad = |key: &str, msg: String, hint: String| {
        diags.push(frontmatter::at_key(path, split, key, msg, hint));
    };
    if title.trim().is_empty() {
        bad(
            "title",
            "front matter: `title` is empty".into(),
            "give the article a title".into(),
        );
    }
    // Read and checked with the other keys (`frontmatter::keys`), so that these never fail.
    let mut moment = |key: &str, text: &str| {
        Moment::parse(text)
            .map_err(|m| bad(key, format!("front matter: `{key}`: {m}"), DATE_HINT.into()))
            .ok()
    };
    let date = moment("date", &date);
    let updated = updated.and_then(|u| moment("updated", &u));
    if let Some((msg, hint)) = slug.as_deref().and_then(slug_problem) {
        bad("slug", msg, hint);
    }
    if part.is_some() && series.is_none() {
        bad(
            "part",
            "front matter: `part` without `series`".into(),
            "name the series the part belongs to".into(),
        );
    }
    let aliases = alias_paths(split, &aliases, &mut bad);
    let claims = claims.map(|raw| {
        let key_line = frontmatter::key_line(split, "claims").unwrap_or(split.text_line);
        crate::frontmatter::claims::locate(split.text, split.text_line, key_line, raw)
    });
    let Some(date) = date else {
        return Err(diags);
    };
    diags.into_result(FrontMatter {
        title,
        date,
        description,
        tags,
        series,
        part,
        draft,
        updated,
        slug_line: slug
            .as_ref()
            .and_then(|_| frontmatter::key_line(split, "slug")),
        slug,
        aliases_line: frontmatter::key_line(split, "aliases"),
        tags_line: frontmatter::key_line(split, "tags"),
        aliases,
        claims,
        translated_from,
        card: card.map(|c| {
            let line = frontmatter::key_line(split, "card").unwrap_or(split.text_line);
            (c, line)
        }),
        card_label,
    })
}

/// What is wrong with a `slug:` (it cannot be a URL segment), as a message and a hint.
fn slug_problem(slug: &str) -> Option<(String, String)> {
    let problem = measured_core::urls::segment_problem(slug)?;
    Some((
        format!("front matter: `slug: {slug}` cannot be a URL segment: {problem}"),
        format!(
            "a URL segment holds {}, e.g. `slug: {}`",
            measured_core::urls::ALLOWED,
            measured_core::urls::suggestion(slug)
        ),
    ))
}

/// The site paths of `aliases:`, each with its line; each that is not one is reported through
/// `bad` and left out.
fn alias_paths(
    split: &Split<'_>,
    aliases: &[String],
    bad: &mut dyn FnMut(&str, String, String),
) -> Vec<Alias> {
    let key_line = frontmatter::key_line(split, "aliases").unwrap_or(split.text_line);
    let lines: Vec<&str> = split.text.lines().collect();
    // The line of each entry: the first at or after the key (and the previous entry) holding it.
    let mut from = key_line - split.text_line;
    aliases
        .iter()
        .filter_map(|a| {
            let at = (from..lines.len()).find(|&i| lines[i].contains(a.as_str()));
            if let Some(i) = at {
                from = i;
            }
            let line = at.map_or(key_line, |i| split.text_line + i);
            measured_core::urls::alias_path(a)
                .map(|path| Alias {
                    path,
                    written: a.clone(),
                    line,
                })
                .map_err(|m| {
                    bad(
                        "aliases",
                        format!("front matter: alias `{a}`: {m}"),
                        measured_core::urls::ALIAS_HINT.into(),
                    )
                })
                .ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document of `text`, or its first error.
    fn doc(text: &str) -> Result<SourceDoc, Diagnostic> {
        parse_doc(
            Path::new("content/a/index.vi.md"),
            "a".into(),
            Lang::parse("vi").unwrap(),
            text,
        )
        .map_err(|d| d.0[0].clone())
    }

    #[test]
    fn parses_a_full_front_matter() {
        let d = doc("---\ntitle: Kết nối\ndate: 2026-11-29\ntags: [mạng, tcp]\nseries: Mạng\npart: 2\nclaims:\n  more: a.b > 1\n---\n# Hi\n").unwrap();
        assert_eq!(d.front.title, "Kết nối");
        assert_eq!(d.front.date.date(), jiff::civil::date(2026, 11, 29));
        assert_eq!(d.front.tags, ["mạng", "tcp"]);
        let claims = d.front.claims.unwrap().entries;
        assert_eq!((claims[0].text.as_str(), claims[0].line), ("a.b > 1", 8));
        assert_eq!(d.body_line, 10);
    }

    #[test]
    fn toml_claims_are_placed_at_their_lines() {
        let d =
            doc("+++\ntitle = \"A\"\ndate = 2026-11-29\n[claims]\nmore = \"a.b > 1\"\n+++\nx\n")
                .unwrap();
        let claims = d.front.claims.unwrap();
        assert_eq!(claims.line, 4);
        let e = &claims.entries[0];
        assert_eq!(
            (e.id.as_str(), e.text.as_str(), e.line, e.col),
            ("more", "a.b > 1", 5, 9)
        );
    }

    #[test]
    fn bad_date_names_the_line() {
        let e = doc("---\ntitle: A\ndate: 2026-13-01\n---\n").unwrap_err();
        assert_eq!(e.place.line, Some(3));
        assert!(
            e.message.contains("`2026-13-01` is not a valid date"),
            "{}",
            e.message
        );
        assert_eq!(e.snippet.as_deref(), Some("date: 2026-13-01"));
    }

    #[test]
    fn date_must_have_the_iso_shape() {
        let e = doc("---\ntitle: A\ndate: 29/11/2026\n---\n").unwrap_err();
        assert!(e.message.contains("YYYY-MM-DD"), "{}", e.message);
    }

    #[test]
    fn missing_date_is_reported() {
        let e = doc("---\ntitle: A\n---\n").unwrap_err();
        assert!(e.message.contains("missing field `date`"), "{}", e.message);
    }
}
