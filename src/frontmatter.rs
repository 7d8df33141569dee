//! Front matter: the YAML between the `---` lines at the top of an article. The only module that
//! knows serde_yaml (archived upstream), so swapping the YAML parser is a one-file change.

pub mod claims;

use std::path::Path;

use serde::Deserialize;

use crate::diag::{Diagnostic, Place};

/// What an article's front matter may say. Any other key is an error.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawFrontMatter {
    pub title: String,
    pub date: String,
    pub description: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    pub series: Option<String>,
    pub part: Option<u32>,
    #[serde(default)]
    pub draft: bool,
    pub updated: Option<String>,
    pub slug: Option<String>,
    /// Read here, checked by the claims stage.
    pub claims: Option<claims::RawClaims>,
    /// Short content hash of the original this translation was made from.
    pub translated_from: Option<String>,
}

/// What a standalone page's front matter may say (`pages/<name>/index.<lang>.md`): a page is
/// not an article, so it has no date, tags or series. Any other key is an error.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawPageFrontMatter {
    pub title: String,
    pub description: Option<String>,
    #[serde(default)]
    pub draft: bool,
}

/// Parses the YAML of a split standalone page; errors point into the file.
pub fn parse_page(path: &Path, split: &Split<'_>) -> Result<RawPageFrontMatter, Diagnostic> {
    serde_yaml::from_str(split.yaml).map_err(|e| yaml_error(path, split, &e))
}

/// A Markdown file split into its front matter and body.
#[derive(Debug)]
pub struct Split<'a> {
    pub yaml: &'a str,
    /// 1-based line of the file where the YAML starts.
    pub yaml_line: usize,
    pub body: &'a str,
    /// 1-based line of the file where the body starts.
    pub body_line: usize,
}

/// Splits `text` at its `---` fences.
pub fn split<'a>(path: &Path, text: &'a str) -> Result<Split<'a>, Diagnostic> {
    let text_no_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text_no_bom.find('\n').unwrap_or(text_no_bom.len());
    if text_no_bom[..first_end].trim_end() != "---" {
        return Err(Diagnostic::new(
            Place::at(path, 1, 1),
            "the file does not start with front matter",
        )
        .with_line_of(text_no_bom, 1)
        .with_hint(
            "start the file with a line `---`, then `title:` and `date:`, then a closing `---`",
        ));
    }
    let yaml_start = (first_end + 1).min(text_no_bom.len());
    let mut offset = yaml_start;
    for line in text_no_bom[yaml_start..].split_inclusive('\n') {
        if line.trim_end() == "---" {
            let yaml = &text_no_bom[yaml_start..offset];
            let body = &text_no_bom[offset + line.len()..];
            let yaml_lines = yaml.matches('\n').count();
            return Ok(Split {
                yaml,
                yaml_line: 2,
                body,
                body_line: 2 + yaml_lines + 1,
            });
        }
        offset += line.len();
    }
    Err(
        Diagnostic::new(Place::at(path, 1, 1), "the front matter is never closed")
            .with_line_of(text_no_bom, 1)
            .with_hint("end the front matter with a line holding only `---`"),
    )
}

/// Parses the YAML of a split file; errors point into the file.
pub fn parse(path: &Path, split: &Split<'_>) -> Result<RawFrontMatter, Diagnostic> {
    if split.yaml.trim().is_empty() {
        return Err(Diagnostic::new(
            Place::at(path, split.yaml_line, 1),
            "the front matter is empty",
        )
        .with_hint("give at least `title:` and `date: YYYY-MM-DD`"));
    }
    let raw = serde_yaml::from_str(split.yaml).map_err(|e| yaml_error(path, split, &e))?;
    check_nulls(path, split)?;
    Ok(raw)
}

/// Keys that need text: serde reads YAML's `null` (also `~`, `Null`, or nothing) as the text
/// "null" or "", so `title: null` would publish an article titled "null".
const TEXT_KEYS: [&str; 2] = ["title", "date"];
/// Lists of text, where a null entry would become the text "null".
const TEXT_LIST_KEYS: [&str; 2] = ["tags", "claims"];

fn check_nulls(path: &Path, split: &Split<'_>) -> Result<(), Diagnostic> {
    // Parsing the YAML a second time only when a null can be there at all.
    let may_hold_null = ["null", "Null", "NULL", "~"]
        .iter()
        .any(|n| split.yaml.contains(n))
        || split.yaml.lines().any(|l| {
            let l = l.trim_end();
            l.ends_with(':') || l.trim_start() == "-" || l.contains("[,") || l.contains(",]")
        });
    if !may_hold_null {
        return Ok(());
    }
    let Ok(serde_yaml::Value::Mapping(map)) = serde_yaml::from_str(split.yaml) else {
        return Ok(());
    };
    let null_key = TEXT_KEYS
        .iter()
        .find(|k| map.get(**k).is_some_and(serde_yaml::Value::is_null));
    let null_entry = TEXT_LIST_KEYS.iter().find(|k| {
        map.get(**k)
            .and_then(serde_yaml::Value::as_sequence)
            .is_some_and(|items| items.iter().any(serde_yaml::Value::is_null))
    });
    let (key, message, hint) = match (null_key, null_entry) {
        (Some(key), _) => (
            key,
            format!("front matter: `{key}` is null, not a text"),
            format!("write the {key}; to write the word null itself, quote it: {key}: \"null\""),
        ),
        (None, Some(key)) => (
            key,
            format!("front matter: `{key}` has a null entry"),
            "remove the empty entry; to write the word null itself, quote it: \"null\"".into(),
        ),
        (None, None) => return Ok(()),
    };
    let line = key_line(split, key).unwrap_or(split.yaml_line);
    Err(Diagnostic::new(Place::at(path, line, 1), message)
        .with_line_of(split.yaml, line + 1 - split.yaml_line)
        .with_hint(hint))
}

fn yaml_error(path: &Path, split: &Split<'_>, e: &serde_yaml::Error) -> Diagnostic {
    // serde_yaml's messages end with " at line L column C"; we give the place ourselves.
    let full = e.to_string();
    let message = match full.find(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    let (line, col) = match e.location() {
        Some(loc) => (loc.line(), loc.column()),
        None => (1, 1),
    };
    // An error at the end of the YAML (an unclosed list) points at its last line.
    let yaml_lines = split.yaml.lines().count().max(1);
    let (line, col) = if line > yaml_lines {
        (yaml_lines, 1)
    } else {
        (line, col)
    };
    let file_line = split.yaml_line + line - 1;
    let hint = if message.starts_with("unknown field") {
        "remove the key or fix its spelling; the keys are listed in docs/authoring.md"
    } else if message.starts_with("missing field") {
        "every article needs `title:` and `date: YYYY-MM-DD`"
    } else {
        "check the YAML syntax: indentation, quotes around text holding `:` or `#`"
    };
    Diagnostic::new(
        Place::at(path, file_line, col),
        format!("front matter: {message}"),
    )
    .with_line_of(split.yaml, line)
    .with_hint(hint)
}

/// 1-based line in the file of the front-matter key `key`, if it is there.
pub fn key_line(split: &Split<'_>, key: &str) -> Option<usize> {
    split
        .yaml
        .lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|i| split.yaml_line + i)
}

/// Renders front matter for `measured new`.
pub fn scaffold(title: &str, date: &str, extra: &[(&str, &str)]) -> String {
    let mut out = String::from("---\n");
    out.push_str(&format!("title: {}\n", yaml_string(title)));
    out.push_str(&format!("date: {date}\n"));
    for (k, v) in extra {
        out.push_str(&format!("{k}: {v}\n"));
    }
    out.push_str("---\n");
    out
}

/// A YAML double-quoted scalar.
pub fn yaml_string(s: &str) -> String {
    serde_yaml::to_string(s)
        .map(|y| y.trim_end().to_string())
        .unwrap_or_else(|_| format!("{s:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<RawFrontMatter, Diagnostic> {
        let p = Path::new("content/a/index.vi.md");
        let s = split(p, text)?;
        parse(p, &s)
    }

    #[test]
    fn splits_and_counts_lines() {
        let text = "---\ntitle: A\ndate: 2026-01-02\n---\nBody\n";
        let s = split(Path::new("x"), text).unwrap();
        assert_eq!(s.yaml, "title: A\ndate: 2026-01-02\n");
        assert_eq!(s.body, "Body\n");
        assert_eq!(s.body_line, 5);
    }

    #[test]
    fn unknown_key_points_at_its_line() {
        let e = parse_text("---\ntitle: A\ndate: 2026-01-02\ntgas: [x]\n---\n").unwrap_err();
        assert_eq!(e.place.line, Some(4));
        assert!(e.message.contains("unknown field `tgas`"), "{}", e.message);
        assert_eq!(e.snippet.as_deref(), Some("tgas: [x]"));
    }

    #[test]
    fn malformed_yaml_points_into_the_file() {
        let e = parse_text("---\ntitle: A\ndate: 2026-01-02\ntags: [a, b\n---\n").unwrap_err();
        assert!(e.place.line.unwrap() >= 4, "{e}");
    }

    #[test]
    fn missing_title_is_reported() {
        let e = parse_text("---\ndate: 2026-01-02\n---\n").unwrap_err();
        assert!(e.message.contains("missing field `title`"), "{}", e.message);
    }

    #[test]
    fn null_where_text_is_needed_names_the_key_and_line() {
        for (yaml, key) in [
            ("title: null\ndate: 2026-01-02", "`title` is null"),
            ("title: ~\ndate: 2026-01-02", "`title` is null"),
            ("title:\ndate: 2026-01-02", "`title` is null"),
            ("title: A\ndate: NULL", "`date` is null"),
            (
                "title: A\ndate: 2026-01-02\ntags: [a, null]",
                "`tags` has a null entry",
            ),
            (
                "title: A\ndate: 2026-01-02\ntags:\n  - a\n  -",
                "`tags` has a null entry",
            ),
        ] {
            let e = parse_text(&format!("---\n{yaml}\n---\n")).unwrap_err();
            assert!(e.message.contains(key), "{yaml}: {}", e.message);
            let line = yaml
                .lines()
                .position(|l| l.starts_with(&key[1..5]))
                .unwrap()
                + 2;
            assert_eq!(e.place.line, Some(line), "{yaml}");
        }
        let quoted = parse_text("---\ntitle: \"null\"\ndate: 2026-01-02\n---\n").unwrap();
        assert_eq!(quoted.title, "null");
    }

    #[test]
    fn unclosed_front_matter_is_reported() {
        let e = parse_text("---\ntitle: A\n").unwrap_err();
        assert!(e.message.contains("never closed"));
    }
}
