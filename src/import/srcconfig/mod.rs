//! The source blog's configuration (Hugo's `hugo.toml`, Zola's `config.toml`, Jekyll's
//! `_config.yml`) read into what the import carries over: base URL, title, languages, menus,
//! pagination, permalinks, taxonomies and feeds. Every other key is noted as dropped, at its
//! line. One file per generator, since each names these differently.

mod hugo;
mod jekyll;
mod zola;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Generator, Note};
use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::frontmatter::foreign::{ConfigFormat, read_config};
use crate::lang::Lang;

/// What the import reads of the source's configuration.
#[derive(Debug, Default)]
pub struct SourceConfig {
    /// The file read, if the source has one.
    pub file: Option<PathBuf>,
    /// The base URL without its trailing slash (`https://u.github.io/blog`).
    pub base_url: Option<String>,
    /// The path of the base URL without its trailing slash (`/blog`), empty at a host's root.
    pub base_path: String,
    /// The language of the files without one in their name.
    pub default_lang: Option<Lang>,
    /// Hugo's `defaultContentLanguageInSubdir`: the default language's URLs under `/<lang>/`.
    pub default_in_subdir: bool,
    /// The site's languages, the default one first.
    pub languages: Vec<SourceLang>,
    /// Articles a page of a list shows (Hugo's `paginate`, Zola's home `paginate_by`,
    /// Jekyll's `paginate`).
    pub paginate: Option<usize>,
    /// Hugo's and Zola's `page` folder of a list's later pages; Jekyll's `paginate_path`.
    pub paginate_path: String,
    /// URL patterns by section (Hugo's `[permalinks]`); Jekyll's site-wide `permalink` is
    /// under the key `""`.
    pub permalinks: BTreeMap<String, String>,
    /// URL patterns of taxonomy terms by taxonomy (Hugo's `[permalinks.term]`).
    pub term_permalinks: BTreeMap<String, String>,
    pub taxonomies: Vec<Taxonomy>,
    /// Whether the generator lowercased paths (Hugo unless `disablePathToLower`).
    pub lowercase: bool,
    /// Hugo's `removePathAccents`: accents removed from URLs.
    pub remove_accents: bool,
    /// The home feed's file names (`index.xml`, `atom.xml`, `feed.xml`).
    pub feeds: Vec<String>,
    /// Where the configuration says drafts are built (Hugo's `buildDrafts = true`).
    pub build_drafts: Option<Note>,
    /// The sections the home page lists (Hugo's `mainSections`).
    pub main_sections: Vec<String>,
    /// Jekyll's `exclude:`.
    pub exclude: Vec<String>,
    /// Keys not carried over.
    pub dropped: Vec<Note>,
    /// What the author has to decide.
    pub to_fix: Vec<Note>,
}

/// One language of the source site.
#[derive(Debug, Clone)]
pub struct SourceLang {
    /// None when the source does not name its language.
    pub lang: Option<Lang>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The site's note at the foot of its pages (Hugo's `copyright`).
    pub footer: Option<String>,
    pub menu: Vec<MenuEntry>,
}

/// An entry of the source's main menu.
#[derive(Debug, Clone)]
pub struct MenuEntry {
    pub name: String,
    /// A URL, or (`page_ref`) the content path of a page (`/about`, Hugo's `pageRef`).
    pub url: String,
    pub page_ref: bool,
    pub weight: i64,
    /// Where it is written.
    pub place: Note,
}

/// A taxonomy the source publishes pages for (`tags`, `categories`).
#[derive(Debug, Clone)]
pub struct Taxonomy {
    /// Its URL folder (Hugo's plural, Zola's `name`).
    pub name: String,
    /// Whether each term has a feed.
    pub feed: bool,
    /// Terms' pages of this many articles (none: one page).
    pub paginate: Option<usize>,
}

/// The configuration text, and how to find a key's line in it.
pub(super) struct Text<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

impl Text<'_> {
    /// The 1-based line of the first `key = …`, `key: …` or `[key…` in the file (any case),
    /// else 1.
    pub fn line(&self, key: &str) -> usize {
        let key = key.to_lowercase();
        self.text
            .lines()
            .position(|l| {
                let l = l.trim_start().trim_start_matches('-').trim_start();
                let l = l.to_lowercase();
                let header = l.trim_start_matches('[');
                let plain = l
                    .trim_start_matches(['"', '\''])
                    .strip_prefix(&key)
                    .map(|r| r.trim_start_matches(['"', '\'']).trim_start())
                    .is_some_and(|r| r.starts_with('=') || r.starts_with(':'));
                plain
                    || (l.starts_with('[')
                        && header
                            .strip_prefix(&key)
                            .is_some_and(|r| r.starts_with(']') || r.starts_with('.')))
            })
            .map_or(1, |i| i + 1)
    }

    /// `key` as the file writes it (`ShowToc` for Hugo's `showtoc`), else as given.
    pub fn written(&self, key: &str) -> String {
        let line = self
            .text
            .lines()
            .nth(self.line(key) - 1)
            .unwrap_or_default();
        let start = line.to_lowercase().find(&key.to_lowercase());
        match start {
            Some(i) if line.is_char_boundary(i) && line.is_char_boundary(i + key.len()) => {
                line[i..i + key.len()].to_string()
            }
            _ => key.to_string(),
        }
    }

    pub fn note(&self, key: &str, text: impl Into<String>) -> Note {
        Note::at(self.path, self.line(key), text)
    }
}

/// The configuration of the `generator` site at `src` (defaults when it has none).
pub fn read(generator: Generator, src: &Path) -> Result<SourceConfig, Diagnostics> {
    let Some((path, format)) = find(generator, src) else {
        return Ok(defaults(generator));
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| crate::diag::io_error(&path, "read the configuration", &e))?;
    let map = read_config(&text, format).map_err(|m| {
        Diagnostic::new(Place::file(&path), format!("cannot read: {}", m.trim_end())).with_hint(
            format!(
                "fix the file so that {} reads it, then import again",
                generator.name()
            ),
        )
    })?;
    let text = Text {
        path: &path,
        text: &text,
    };
    let mut config = match generator {
        Generator::Hugo => hugo::read(lowercase_keys(map), &text),
        Generator::Zola => zola::read(map, &text),
        Generator::Jekyll => jekyll::read(map, &text),
    };
    config.file = Some(path);
    Ok(config)
}

fn defaults(generator: Generator) -> SourceConfig {
    let mut config = match generator {
        Generator::Hugo => hugo::read(
            Map::new(),
            &Text {
                path: Path::new(""),
                text: "",
            },
        ),
        Generator::Zola => zola::read(
            Map::new(),
            &Text {
                path: Path::new(""),
                text: "",
            },
        ),
        Generator::Jekyll => jekyll::read(
            Map::new(),
            &Text {
                path: Path::new(""),
                text: "",
            },
        ),
    };
    config.dropped.clear();
    config
}

/// The configuration file of the site at `src`, and its format.
fn find(generator: Generator, src: &Path) -> Option<(PathBuf, ConfigFormat)> {
    let names: &[(&str, ConfigFormat)] = match generator {
        Generator::Hugo => &[
            ("hugo.toml", ConfigFormat::Toml),
            ("hugo.yaml", ConfigFormat::Yaml),
            ("hugo.yml", ConfigFormat::Yaml),
            ("hugo.json", ConfigFormat::Json),
            ("config.toml", ConfigFormat::Toml),
            ("config.yaml", ConfigFormat::Yaml),
            ("config.yml", ConfigFormat::Yaml),
            ("config.json", ConfigFormat::Json),
        ],
        Generator::Zola => &[("config.toml", ConfigFormat::Toml)],
        Generator::Jekyll => &[
            ("_config.yml", ConfigFormat::Yaml),
            ("_config.yaml", ConfigFormat::Yaml),
            ("_config.toml", ConfigFormat::Toml),
        ],
    };
    names
        .iter()
        .map(|(n, f)| (src.join(n), *f))
        .find(|(p, _)| p.is_file())
}

/// Hugo's keys are not case-sensitive: every key of every table in lowercase.
fn lowercase_keys(map: Map<String, Value>) -> Map<String, Value> {
    fn value(v: Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(lowercase_keys(m)),
            Value::Array(items) => Value::Array(items.into_iter().map(value).collect()),
            v => v,
        }
    }
    map.into_iter()
        .map(|(k, v)| (k.to_lowercase(), value(v)))
        .collect()
}

/// A text value (strings, numbers and booleans as written).
pub(super) fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A positive count (`paginate = 10`).
pub(super) fn count(v: &Value) -> Option<usize> {
    match v {
        Value::Number(n) => n.as_u64().map(|n| n as usize),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|&n| n > 0)
}

/// `https://u.github.io/blog/` → (`https://u.github.io/blog`, `/blog`).
pub(super) fn base(url: &str) -> (String, String) {
    let url = url.trim().trim_end_matches('/').to_string();
    let path = url
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string()))
        .unwrap_or_default();
    (url, path)
}

/// `vi-VN` → `vi`; none when it is no language measured can name.
pub(super) fn lang_of(code: &str) -> Option<Lang> {
    let primary = code.split(['-', '_']).next()?.to_lowercase();
    Lang::parse(&primary).ok()
}

/// A note for every key of `map` not in `known`, at its line.
pub(super) fn drop_rest(
    map: &Map<String, Value>,
    known: &[&str],
    text: &Text<'_>,
    why: &dyn Fn(&str) -> String,
    out: &mut Vec<Note>,
) {
    let mut rest: Vec<&String> = map
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .collect();
    rest.sort_by_key(|k| text.line(k));
    for key in rest {
        let written = text.written(key);
        out.push(text.note(key, format!("`{written}` dropped: {}", why(key))));
    }
}
