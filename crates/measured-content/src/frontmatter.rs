//! Front matter: the YAML between the `---` lines (or the TOML between `+++` lines) at the top
//! of an article. The only module that knows serde_yaml (archived upstream), so swapping the
//! YAML parser is a one-file change. Both syntaxes are read into one YAML value whose keys are
//! checked one by one (`keys`), so that a file's every unknown key and wrong type is reported
//! in one run.

pub mod claims;
pub mod foreign;
mod keys;
mod limits;
mod moment;
mod node;
mod toml_text;

use std::path::Path;

use serde::Deserialize;

use measured_core::diag::{Diagnostic, Diagnostics, Place};

pub use keys::unknown_hint;
pub use moment::{DATE_HINT, Moment};

/// What an article's front matter may say. Any other key is an error (`keys::KEYS` lists the
/// same keys with their types).
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
    /// Old URLs of the article, each published as a page that redirects to it.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Read here, checked by the claims stage.
    pub claims: Option<claims::RawClaims>,
    /// Short content hash of the original this translation was made from.
    pub translated_from: Option<String>,
    /// The measured value the social card shows: `experiment.path`, with a filter if wanted.
    pub card: Option<String>,
    /// What that value is, as the card says under it.
    pub card_label: Option<String>,
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
    check_limits(path, split)?;
    match split.format {
        Format::Yaml => serde_yaml::from_str(split.text).map_err(|e| yaml_error(path, split, &e)),
        Format::Toml => toml::from_str(split.text).map_err(|e| {
            let at = e.span().map(|s| s.start);
            toml_error(path, split, e.message(), at)
        }),
    }
}

/// The syntax of a front matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Between `---` lines.
    Yaml,
    /// Between `+++` lines (Hugo, Zola).
    Toml,
}

impl Format {
    /// The line that opens and closes the front matter.
    pub fn fence(self) -> &'static str {
        match self {
            Format::Yaml => "---",
            Format::Toml => "+++",
        }
    }

    /// A `key: value` line (`key = value` in TOML) whose value is written as given.
    pub fn line(self, key: &str, value: &str) -> String {
        match self {
            Format::Yaml => format!("{key}: {value}"),
            Format::Toml => format!("{key} = {value}"),
        }
    }
}

/// A Markdown file split into its front matter and body.
#[derive(Debug)]
pub struct Split<'a> {
    pub format: Format,
    /// The front matter between the fences.
    pub text: &'a str,
    /// 1-based line of the file where the front matter's text starts.
    pub text_line: usize,
    pub body: &'a str,
    /// 1-based line of the file where the body starts.
    pub body_line: usize,
}

/// Splits `text` at its `---` (or `+++`) fences.
pub fn split<'a>(path: &Path, text: &'a str) -> Result<Split<'a>, Diagnostic> {
    let text_no_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text_no_bom.find('\n').unwrap_or(text_no_bom.len());
    let format = match text_no_bom[..first_end].trim_end() {
        "---" => Format::Yaml,
        "+++" => Format::Toml,
        _ => {
            return Err(Diagnostic::new(
                Place::at(path, 1, 1),
                "the file does not start with front matter",
            )
            .with_line_of(text_no_bom, 1)
            .with_hint(
                "start the file with a line `---`, then `title:` and `date:`, then a closing `---` (or TOML between `+++` lines)",
            ));
        }
    };
    let start = (first_end + 1).min(text_no_bom.len());
    let mut offset = start;
    for line in text_no_bom[start..].split_inclusive('\n') {
        if line.trim_end() == format.fence() {
            let front = &text_no_bom[start..offset];
            let lines = front.matches('\n').count();
            return Ok(Split {
                format,
                text: front,
                text_line: 2,
                body: &text_no_bom[offset + line.len()..],
                body_line: 2 + lines + 1,
            });
        }
        offset += line.len();
    }
    Err(
        Diagnostic::new(Place::at(path, 1, 1), "the front matter is never closed")
            .with_line_of(text_no_bom, 1)
            .with_hint(format!(
                "end the front matter with a line holding only `{}`",
                format.fence()
            )),
    )
}

/// Parses the front matter of a split file: every unknown key, wrong type and missing key of
/// the file at once, each pointing at its line.
pub fn parse(path: &Path, split: &Split<'_>) -> Result<RawFrontMatter, Diagnostics> {
    if split.text.trim().is_empty() {
        return Err(Diagnostic::new(
            Place::at(path, split.text_line, 1),
            "the front matter is empty",
        )
        .with_hint("give at least `title:` and `date: YYYY-MM-DD`")
        .into());
    }
    check_limits(path, split)?;
    let tree = match split.format {
        Format::Yaml => {
            serde_yaml::from_str(split.text).map_err(|e| yaml_error(path, split, &e))?
        }
        Format::Toml => toml_text::to_value(split.text)
            .map(node::Node::of_value)
            .map_err(|(message, at)| toml_error(path, split, &message, at))?,
    };
    let node::Node::Map(entries) = tree else {
        return Err(Diagnostic::new(
            Place::at(path, split.text_line, 1),
            "front matter: this is not a list of `key: value` lines",
        )
        .with_line_of(split.text, 1)
        .with_hint("write one `key: value` a line, e.g. `title: \"Kết nối\"`")
        .into());
    };
    let checked = keys::check(entries);
    let mut diags = Diagnostics::default();
    for (key, message, hint) in checked.problems {
        diags.push(at_key(
            path,
            split,
            &key,
            format!("front matter: {message}"),
            hint,
        ));
    }
    for key in keys::REQUIRED
        .iter()
        .filter(|k| !checked.names.iter().any(|n| n == *k))
    {
        diags.push(
            Diagnostic::new(
                Place::at(path, split.text_line, 1),
                format!("front matter: missing field `{key}`"),
            )
            .with_hint("every article needs `title:` and `date: YYYY-MM-DD`"),
        );
    }
    diags.into_result(())?;
    let raw: RawFrontMatter = serde_yaml::from_value(serde_yaml::Value::Mapping(checked.values))
        .map_err(|e| {
            Diagnostics::from(
                Diagnostic::new(
                    Place::at(path, split.text_line, 1),
                    format!("front matter: {e}"),
                )
                .with_hint("the keys are listed in docs/authoring.md"),
            )
        })?;
    Ok(RawFrontMatter {
        claims: checked.claims,
        ..raw
    })
}

/// The front matter's size and nesting within [`limits`], checked before a parser reads it.
fn check_limits(path: &Path, split: &Split<'_>) -> Result<(), Diagnostic> {
    limits::check(split.text).map_err(|(at, message)| {
        let place = Place::of_offset(path, split.text, at, split.text_line);
        let line = place.line.unwrap_or(split.text_line) + 1 - split.text_line;
        Diagnostic::new(place, format!("front matter: {message}"))
            .with_line_of(split.text, line)
            .with_hint("front matter is a few `key: value` lines (title, date, tags, claims…): write lists flat, e.g. `tags: [a, b]`, and keep long text in the body")
    })
}

/// A diagnostic at the line of `key` (the front matter's first line if it is not found).
pub fn at_key(
    path: &Path,
    split: &Split<'_>,
    key: &str,
    message: String,
    hint: impl Into<String>,
) -> Diagnostic {
    let line = key_line(split, key).unwrap_or(split.text_line);
    Diagnostic::new(Place::at(path, line, 1), message)
        .with_line_of(split.text, line + 1 - split.text_line)
        .with_hint(hint)
}

/// A text of the front matter (`fields`: each key with its value) that holds a character no
/// page or feed may carry ([`measured_core::html::forbidden_char`]), which an escape in quotes writes
/// (`"\0"`, `"\e"`), is an error at the key's line.
pub fn check_text(path: &Path, split: &Split<'_>, fields: &[(&str, &str)]) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for (key, value) in fields {
        if let Some(c) = value
            .chars()
            .find(|&c| measured_core::html::forbidden_char(c))
        {
            diags.push(at_key(
                path,
                split,
                key,
                format!(
                    "front matter: `{key}` holds the control character U+{:04X}, which no page or feed can carry",
                    u32::from(c)
                ),
                "remove it: an escape in double quotes writes one (\\0, \\e, \\x1b, \\u0000)",
            ));
        }
    }
    diags
}

fn yaml_error(path: &Path, split: &Split<'_>, e: &serde_yaml::Error) -> Diagnostic {
    // serde_yaml's messages end with " at line L column C"; we give the place ourselves.
    let full = e.to_string();
    let message = match full.find(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full.clone(),
    };
    // "…, while parsing a flow sequence at line L column C": the cause is where that opens
    // (an unclosed `[`), not where the parser gave up.
    let opened = full.split_once(", while parsing ").and_then(|(_, rest)| {
        let (what, at) = rest.split_once(" at line ")?;
        let (l, c) = at.split_once(" column ")?;
        Some((
            what.to_string(),
            l.parse::<usize>().ok()?,
            c.trim().parse::<usize>().ok()?,
        ))
    });
    let (message, line, col) = match (opened, e.location()) {
        (Some((what, l, c)), _) => (
            format!("{message}, while parsing {what} that starts here"),
            l,
            c,
        ),
        (None, Some(loc)) => (message, loc.line(), loc.column()),
        (None, None) => (message, 1, 1),
    };
    // Anchors and aliases that multiply (billion laughs): serde_yaml stops, with no place.
    let (message, line, col, hint) = if full.starts_with("repetition limit exceeded") {
        let alias = split
            .text
            .lines()
            .position(|l| l.contains(" *") || l.contains("[*") || l.contains(",*"));
        (
            "YAML aliases (`*name`) repeat what they name too many times".to_string(),
            alias.map_or(1, |i| i + 1),
            1,
            "write the values out: front matter needs no anchors (`&name`) or aliases (`*name`)",
        )
    } else {
        (message, line, col, YAML_HINT)
    };
    // An error at the end of the YAML (an unclosed list) points at its last line.
    let lines = split.text.lines().count().max(1);
    let (line, col) = if line > lines {
        (lines, 1)
    } else {
        (line, col)
    };
    Diagnostic::new(
        Place::at(path, split.text_line + line - 1, col),
        format!("front matter: {message}"),
    )
    .with_line_of(split.text, line)
    .with_hint(hint)
}

const YAML_HINT: &str = "check the YAML syntax: indentation, quotes around text holding `:` or `#`";

fn toml_error(path: &Path, split: &Split<'_>, message: &str, at: Option<usize>) -> Diagnostic {
    let (line, col) = at.map_or((1, 1), |o| measured_core::diag::line_col(split.text, o));
    Diagnostic::new(
        Place::at(path, split.text_line + line - 1, col),
        format!("front matter: {}", message.trim_end()),
    )
    .with_line_of(split.text, line)
    .with_hint("check the TOML syntax: `key = \"text\"`, lists as `[\"a\", \"b\"]`")
}

/// 1-based line in the file of the front-matter key `key` (`key:`, or in TOML `key =` and
/// `[key]`), if it is there.
pub fn key_line(split: &Split<'_>, key: &str) -> Option<usize> {
    let sep = match split.format {
        Format::Yaml => ':',
        Format::Toml => '=',
    };
    let table = format!("[{key}]");
    split
        .text
        .lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(sep))
                || (split.format == Format::Toml && l.trim_end() == table)
        })
        .map(|i| split.text_line + i)
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

    /// The front matter of `text`, or its first error.
    fn parse_text(text: &str) -> Result<RawFrontMatter, Diagnostic> {
        parse_all(text).map_err(|d| d.0[0].clone())
    }

    fn parse_all(text: &str) -> Result<RawFrontMatter, Diagnostics> {
        let p = Path::new("content/a/index.vi.md");
        let s = split(p, text)?;
        parse(p, &s)
    }

    #[test]
    fn splits_and_counts_lines() {
        let text = "---\ntitle: A\ndate: 2026-01-02\n---\nBody\n";
        let s = split(Path::new("x"), text).unwrap();
        assert_eq!(s.text, "title: A\ndate: 2026-01-02\n");
        assert_eq!(s.body, "Body\n");
        assert_eq!(s.body_line, 5);
    }

    #[test]
    fn unknown_key_points_at_its_line() {
        let e = parse_text("---\ntitle: A\ndate: 2026-01-02\ntgas: [x]\n---\n").unwrap_err();
        assert_eq!(e.place.line, Some(4));
        assert_eq!(e.message, "front matter: unknown key `tgas`");
        assert_eq!(e.snippet.as_deref(), Some("tgas: [x]"));
        assert_eq!(e.hint.as_deref(), Some("did you mean `tags`?"));
    }

    #[test]
    fn every_unknown_key_and_wrong_type_of_a_file_is_reported_at_once() {
        let text = "---\ntitle: A\ndate: 2026-01-02\ncategories: [iot]\ntags: python\nweight: 3\nlastmod: 2026-01-03\ndraft: maybe\n---\n";
        let e = parse_all(text).unwrap_err();
        let got: Vec<(Option<usize>, &str)> =
            e.0.iter()
                .map(|d| (d.place.line, d.message.as_str()))
                .collect();
        assert_eq!(
            got,
            [
                (Some(4), "front matter: unknown key `categories`"),
                (
                    Some(5),
                    "front matter: `tags` is a list, not the text `python`"
                ),
                (Some(6), "front matter: unknown key `weight`"),
                (Some(7), "front matter: unknown key `lastmod`"),
                (
                    Some(8),
                    "front matter: `draft` is true or false, not the text `maybe`"
                ),
            ]
        );
        let tags = &e.0[1];
        assert_eq!(tags.hint.as_deref(), Some("write it as tags: [python]"));
        assert_eq!(
            e.0[3].hint.as_deref(),
            Some("measured calls this `updated`")
        );
    }

    #[test]
    fn toml_front_matter_between_plus_lines() {
        let text = "+++\ntitle = \"Kết nối\"\ndate = 2025-06-04T17:04:06+07:00\ntags = [\"mạng\"]\n+++\nBody\n";
        let f = parse_text(text).unwrap();
        assert_eq!(f.title, "Kết nối");
        assert_eq!(f.date, "2025-06-04T17:04:06+07:00");
        assert_eq!(f.tags, ["mạng"]);
        let s = split(Path::new("x"), text).unwrap();
        assert_eq!((s.format, s.body, s.body_line), (Format::Toml, "Body\n", 6));
        let e = parse_all("+++\ntitle = \"A\"\ndate = 2026-01-01\nweight = 1\ntags = \"x\"\n+++\n")
            .unwrap_err();
        let lines: Vec<Option<usize>> = e.0.iter().map(|d| d.place.line).collect();
        assert_eq!(lines, [Some(4), Some(5)], "{e}");
        let e = parse_text("+++\ntitle = \"A\"\ndate = \n+++\n").unwrap_err();
        assert_eq!(e.place.line, Some(3), "{e}");
        assert!(e.hint.unwrap().contains("TOML"));
    }

    #[test]
    fn malformed_yaml_points_into_the_file() {
        let e = parse_text("---\ntitle: A\ndate: 2026-01-02\ntags: [a, b\n---\n").unwrap_err();
        assert!(e.place.line.unwrap() >= 4, "{e}");
        let e = parse_text("---\ntitle: [Hello\ndate: 2026-01-02\n---\n").unwrap_err();
        assert_eq!((e.place.line, e.place.col), (Some(2), Some(8)), "{e}");
        assert!(
            e.message
                .ends_with("while parsing a flow sequence that starts here"),
            "{e}"
        );
        assert!(e.hint.unwrap().contains("YAML syntax"));
    }

    #[test]
    fn missing_title_is_reported() {
        let e = parse_text("---\ndate: 2026-01-02\n---\n").unwrap_err();
        assert_eq!(e.message, "front matter: missing field `title`");
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
