//! One diagnostic type for every stage: a place (file, line, column), a message, the offending
//! line and a hint. Stages collect them and fail together; `main` prints them, `serve` shows
//! them as an overlay.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where something went wrong: a file and, when known, a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Place {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub col: Option<usize>,
}

impl Place {
    pub fn file(path: impl Into<PathBuf>) -> Self {
        Place {
            path: path.into(),
            line: None,
            col: None,
        }
    }

    pub fn at(path: impl Into<PathBuf>, line: usize, col: usize) -> Self {
        Place {
            path: path.into(),
            line: Some(line),
            col: Some(col),
        }
    }

    /// The place of byte `offset` in `text`, which starts at line `first_line` of `path`.
    pub fn of_offset(path: &Path, text: &str, offset: usize, first_line: usize) -> Self {
        let (line, col) = line_col(text, offset);
        Place::at(path, line + first_line - 1, col)
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// An error a user sees: where, what, the offending line, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub place: Place,
    pub message: String,
    /// The source line the error points at, when there is one.
    pub snippet: Option<String>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(place: Place, message: impl Into<String>) -> Self {
        Diagnostic {
            place,
            message: message.into(),
            snippet: None,
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_snippet(mut self, snippet: impl Into<String>) -> Self {
        self.snippet = Some(snippet.into());
        self
    }

    /// Attaches the line of `source` (1-based `line` counted within `source`) as the snippet.
    pub fn with_line_of(mut self, source: &str, line: usize) -> Self {
        if let Some(text) = source.lines().nth(line.saturating_sub(1)) {
            self.snippet = Some(text.to_string());
        }
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error: {}", self.place, self.message)?;
        if let Some(snippet) = &self.snippet {
            let gutter = self.place.line.map(|l| l.to_string()).unwrap_or_default();
            write!(f, "\n {gutter} | {snippet}")?;
            if let Some(col) = self.place.col {
                let pad = " ".repeat(gutter.len());
                let spaces = " ".repeat(col.saturating_sub(1));
                write!(f, "\n {pad} | {spaces}^")?;
            }
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  = help: {hint}")?;
        }
        Ok(())
    }
}

/// All the diagnostics of a failed stage, sorted by place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

/// A stage's error: one diagnostic, or several.
pub trait IntoDiagnostics {
    fn into_diagnostics(self) -> Diagnostics;
}

impl IntoDiagnostics for Diagnostic {
    fn into_diagnostics(self) -> Diagnostics {
        Diagnostics(vec![self])
    }
}

impl IntoDiagnostics for Diagnostics {
    fn into_diagnostics(self) -> Diagnostics {
        self
    }
}

impl FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        Diagnostics(iter.into_iter().collect())
    }
}

impl Diagnostics {
    /// Every `Ok` value of `results`, in order, or every error among them (not only the
    /// first): a stage reports all its problems in one build.
    pub fn gather<T, E: IntoDiagnostics>(
        results: impl IntoIterator<Item = Result<T, E>>,
    ) -> Result<Vec<T>, Diagnostics> {
        let mut diags = Diagnostics::default();
        let mut values = Vec::new();
        for r in results {
            match r {
                Ok(v) => values.push(v),
                Err(e) => diags.extend(e.into_diagnostics()),
            }
        }
        diags.into_result(values)
    }

    pub fn one(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(value)` when nothing was reported, else all diagnostics sorted by place.
    pub fn into_result<T>(mut self, value: T) -> Result<T, Diagnostics> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            self.0.sort_by(|a, b| {
                a.place
                    .cmp(&b.place)
                    .then_with(|| a.message.cmp(&b.message))
            });
            self.0.dedup();
            Err(self)
        }
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics::one(d)
    }
}

/// A diagnostic for an I/O failure on `path`.
pub fn io_error(path: &Path, what: &str, err: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Place::file(path), format!("cannot {what}: {err}"))
}

/// The text of the file at `path` (`what` it is, for messages: "the article"); a file that is
/// not UTF-8 is an error at the line and column of its first byte that is not.
pub fn read_text(path: &Path, what: &str) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| io_error(path, &format!("read {what}"), &e))?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        // The text before the bad byte is valid: count its lines and characters.
        let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let (line, col) = line_col(before, at);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line_end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| at + i);
        Diagnostic::new(
            Place::at(path, line, col),
            format!(
                "{what} is not UTF-8 text: the byte 0x{:02X} here is not part of a UTF-8 character",
                bytes[at]
            ),
        )
        .with_snippet(String::from_utf8_lossy(&bytes[line_start..line_end]).into_owned())
        .with_hint("save the file as UTF-8 (in most editors: Save with Encoding → UTF-8); measured reads no other encoding")
    })
}

/// The closest of `candidates` to `name` (Levenshtein distance at most a third of its length).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let max = (name.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (levenshtein(name, c), c))
        .filter(|(d, _)| *d <= max)
        .min()
        .map(|(_, c)| c)
}

/// The hint for a name that is none of `candidates`: the closest (`did you mean `x`?`), or else
/// all of them after `list` (`the experiments are: a, b`).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
    list: &str,
) -> String {
    closest(name, candidates.clone()).map_or_else(
        || {
            format!(
                "{list}: {}",
                candidates.into_iter().collect::<Vec<_>>().join(", ")
            )
        },
        |c| format!("did you mean `{c}`?"),
    )
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let text = "một\nhai ba\nbốn";
        assert_eq!(line_col(text, 0), (1, 1));
        let b = text.find("ba").unwrap();
        assert_eq!(line_col(text, b), (2, 5));
        let n = text.find('n').unwrap();
        assert_eq!(line_col(text, n), (3, 3));
    }

    #[test]
    fn display_shows_place_snippet_caret_and_hint() {
        let d = Diagnostic::new(Place::at("a.md", 3, 5), "bad thing")
            .with_snippet("date: 2026-13-01")
            .with_hint("fix it");
        let s = d.to_string();
        assert_eq!(
            s,
            "a.md:3:5: error: bad thing\n 3 | date: 2026-13-01\n   |     ^\n  = help: fix it"
        );
    }

    #[test]
    fn closest_suggests_near_names_only() {
        let names = ["tcp-handshake", "tls-price", "varint"];
        assert_eq!(closest("tcp-handshak", names), Some("tcp-handshake"));
        assert_eq!(closest("varnit", names), Some("varint"));
        assert_eq!(closest("zzzzzzzz", names), None);
    }
}
