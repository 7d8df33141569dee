//! Loading: walk `content/`, split and validate each article's front matter, and list the assets
//! of each article folder. The output is a list of source documents, still unrelated to each other.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use rayon::prelude::*;
use walkdir::WalkDir;

use crate::config::SiteConfig;
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::frontmatter::{self, RawFrontMatter, Split};
use crate::lang::Lang;

/// Validated front matter.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontMatter {
    pub title: String,
    pub date: Date,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub series: Option<String>,
    pub part: Option<u32>,
    pub draft: bool,
    pub updated: Option<Date>,
    pub slug: Option<String>,
    /// The claims this file declares for its article, with where each is written.
    pub claims: Option<crate::claims::Written>,
    pub translated_from: Option<String>,
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
    pub body: String,
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
    let content_dir = config.root.join("content");
    if !content_dir.is_dir() {
        return Err(
            Diagnostic::new(Place::file(&content_dir), "there is no content folder")
                .with_hint("create content/<slug>/index.<lang>.md, or run `measured new SLUG`")
                .into(),
        );
    }
    let mut diags = Diagnostics::default();
    let mut md_files = Vec::new();
    let mut assets: std::collections::BTreeMap<String, Vec<PathBuf>> = Default::default();
    for entry in WalkDir::new(&content_dir).sort_by_file_name() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| content_dir.clone());
                diags.push(Diagnostic::new(
                    Place::file(path),
                    format!("cannot read: {e}"),
                ));
                continue;
            }
        };
        if !entry.file_type().is_file() || is_hidden(entry.path(), &content_dir) {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(&content_dir)
            .unwrap_or(entry.path())
            .to_path_buf();
        let mut parts = rel.iter();
        let (Some(dir), Some(_)) = (parts.next(), parts.next()) else {
            diags.push(
                Diagnostic::new(
                    Place::file(entry.path()),
                    "a file directly in content/ belongs to no article",
                )
                .with_hint("put each article in its own folder: content/<slug>/index.<lang>.md"),
            );
            continue;
        };
        let dir = dir.to_string_lossy().to_string();
        match md_language(&rel, config) {
            MdKind::Article(lang) => md_files.push((entry.path().to_path_buf(), dir, lang)),
            MdKind::BadLanguage(code) => diags.push(
                Diagnostic::new(
                    Place::file(entry.path()),
                    format!("language `{code}` is not in site.toml"),
                )
                .with_hint(format!(
                    "name the file index.<lang>.md with one of: {}",
                    config
                        .langs()
                        .map(Lang::code)
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            ),
            MdKind::StrayMarkdown => diags.push(
                Diagnostic::new(
                    Place::file(entry.path()),
                    "a Markdown file that is not an article",
                )
                .with_hint("an article is content/<slug>/index.<lang>.md; rename the file"),
            ),
            MdKind::Asset => {
                let in_dir = rel.strip_prefix(&dir).unwrap_or(&rel).to_path_buf();
                assets.entry(dir).or_default().push(in_dir);
            }
        }
    }
    let parsed: Vec<Result<(Option<Stamp>, SourceDoc), Diagnostic>> = md_files
        .into_par_iter()
        .map(|(path, dir, lang)| {
            let stamp = Stamp::of(&path);
            match memo.get(&path) {
                Some((old, doc)) if Some(*old) == stamp && doc.dir == dir && doc.lang == lang => {
                    Ok((stamp, doc.clone()))
                }
                _ => load_doc(&path, dir, lang).map(|d| (stamp, d)),
            }
        })
        .collect();
    let mut docs = Vec::new();
    let mut next = DocMemo::new();
    for p in parsed {
        match p {
            Ok((stamp, d)) => {
                if let Some(stamp) = stamp {
                    next.insert(d.path.clone(), (stamp, d.clone()));
                }
                docs.push(d);
            }
            Err(d) => diags.push(d),
        }
    }
    let next_memo = next;
    diags
        .into_result(Content {
            docs,
            assets: assets.into_iter().collect(),
        })
        .map(|c| (c, next_memo))
}

enum MdKind {
    Article(Lang),
    BadLanguage(String),
    StrayMarkdown,
    Asset,
}

fn md_language(rel: &Path, config: &SiteConfig) -> MdKind {
    let name = rel
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if !name.ends_with(".md") {
        return MdKind::Asset;
    }
    let depth = rel.iter().count();
    match name
        .strip_prefix("index.")
        .and_then(|n| n.strip_suffix(".md"))
    {
        Some(code) if depth == 2 => match config.lang(code) {
            Some(lang) => MdKind::Article(lang.clone()),
            None => MdKind::BadLanguage(code.to_string()),
        },
        _ => MdKind::StrayMarkdown,
    }
}

fn is_hidden(path: &Path, base: &Path) -> bool {
    path.strip_prefix(base)
        .unwrap_or(path)
        .iter()
        .any(|c| c.to_string_lossy().starts_with('.') || c.to_string_lossy().ends_with('~'))
}

/// Reads and validates one article file.
pub fn load_doc(path: &Path, dir: String, lang: Lang) -> Result<SourceDoc, Diagnostic> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| crate::diag::io_error(path, "read the article", &e))?;
    parse_doc(path, dir, lang, &text)
}

/// Parses the text of one article file.
pub fn parse_doc(
    path: &Path,
    dir: String,
    lang: Lang,
    text: &str,
) -> Result<SourceDoc, Diagnostic> {
    let split = frontmatter::split(path, text)?;
    let raw = frontmatter::parse(path, &split)?;
    let front = validate(path, &split, raw)?;
    Ok(SourceDoc {
        path: path.to_path_buf(),
        dir,
        lang,
        front,
        body: split.body.to_string(),
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
) -> Result<FrontMatter, Diagnostic> {
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
        claims,
        translated_from,
    } = raw;
    let bad = |key: &str, msg: String, hint: &str| {
        let line = frontmatter::key_line(split, key).unwrap_or(split.yaml_line);
        Diagnostic::new(Place::at(path, line, 1), msg)
            .with_line_of(split.yaml, line + 1 - split.yaml_line)
            .with_hint(hint.to_string())
    };
    if title.trim().is_empty() {
        return Err(bad(
            "title",
            "front matter: `title` is empty".into(),
            "give the article a title",
        ));
    }
    let date = parse_date(&date).map_err(|m| {
        bad(
            "date",
            format!("front matter: `date`: {m}"),
            "write the date as YYYY-MM-DD, e.g. 2026-11-29",
        )
    })?;
    let updated = match updated {
        Some(u) => Some(parse_date(&u).map_err(|m| {
            bad(
                "updated",
                format!("front matter: `updated`: {m}"),
                "write the date as YYYY-MM-DD",
            )
        })?),
        None => None,
    };
    if let Some(s) = &slug {
        if s.is_empty()
            || s.contains('/')
            || s.starts_with('.')
            || s.chars().any(char::is_whitespace)
        {
            return Err(bad(
                "slug",
                format!("front matter: `slug` `{s}` is not a URL segment"),
                "use lowercase words joined by `-`",
            ));
        }
    }
    if part.is_some() && series.is_none() {
        return Err(bad(
            "part",
            "front matter: `part` without `series`".into(),
            "name the series the part belongs to",
        ));
    }
    let claims = claims.map(|raw| {
        let key_line = frontmatter::key_line(split, "claims").unwrap_or(split.yaml_line);
        crate::claims::locate(split.yaml, split.yaml_line, key_line, raw)
    });
    Ok(FrontMatter {
        title,
        date,
        description,
        tags,
        series,
        part,
        draft,
        updated,
        slug,
        claims,
        translated_from,
    })
}

fn parse_date(s: &str) -> Result<Date, String> {
    let ok_shape = s.len() == 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-';
    if !ok_shape {
        return Err(format!("`{s}` is not a date of the form YYYY-MM-DD"));
    }
    s.parse::<Date>()
        .map_err(|e| format!("`{s}` is not a valid date ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Result<SourceDoc, Diagnostic> {
        parse_doc(
            Path::new("content/a/index.vi.md"),
            "a".into(),
            Lang::parse("vi").unwrap(),
            text,
        )
    }

    #[test]
    fn parses_a_full_front_matter() {
        let d = doc("---\ntitle: Kết nối\ndate: 2026-11-29\ntags: [mạng, tcp]\nseries: Mạng\npart: 2\nclaims:\n  more: a.b > 1\n---\n# Hi\n").unwrap();
        assert_eq!(d.front.title, "Kết nối");
        assert_eq!(d.front.date, jiff::civil::date(2026, 11, 29));
        assert_eq!(d.front.tags, ["mạng", "tcp"]);
        let claims = d.front.claims.unwrap().entries;
        assert_eq!((claims[0].text.as_str(), claims[0].line), ("a.b > 1", 8));
        assert_eq!(d.body_line, 10);
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
