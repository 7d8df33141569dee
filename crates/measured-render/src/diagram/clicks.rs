//! The links a diagram draws (Mermaid's `click A "url"`, a label's `<a href>`, a kanban
//! ticket): read from the renderer's SVG, so every kind of diagram is covered, each placed at
//! the line of the block that writes it. A script URL (`javascript:`, `data:`, `vbscript:`) or
//! a `click … call`/`callback` (an `onclick` handler) is an error; the others go to the link
//! check with the article's links.

use super::DiagramError;

const HINT: &str = "link a node to a page or heading instead: `click A \"/other-article/\"`, `click A \"#heading\"`, or an https:// address";

/// A link a diagram draws: its target as written, and the line of the block that writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramLink {
    pub dest: String,
    pub line: Option<usize>,
}

/// The links of the rendered `svg` of the block `source`; a script among them is an error.
pub(super) fn links(svg: &str, source: &str) -> Result<Vec<DiagramLink>, DiagramError> {
    if let Some(handler) = handler(svg) {
        let name = handler.split('(').next().unwrap_or_default().trim();
        return Err(DiagramError {
            line: line_of(source, |l| l.starts_with("click") && l.contains(name)),
            message: format!(
                "a `click` that calls `{name}` runs a script in the reader's browser, which a page of this site never does"
            ),
            hint: Some(HINT),
        });
    }
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find("<a href=\"") {
        let value = &rest[at + 9..];
        let end = value.find('"').unwrap_or(value.len());
        let dest = unescape(&value[..end]);
        rest = &value[end..];
        let line = line_of(source, |l| l.contains(dest.as_str()));
        if measured_core::html::is_script_url(&dest) {
            return Err(DiagramError {
                line,
                message: format!(
                    "the link `{dest}` runs a script in the reader's browser, which a page of this site never does"
                ),
                hint: Some(HINT),
            });
        }
        out.push(DiagramLink { dest, line });
    }
    Ok(out)
}

/// The value of the first event handler attribute (`onclick="…"`) in `svg`, if any.
fn handler(svg: &str) -> Option<String> {
    // Lowercased byte for byte, so its offsets are `svg`'s.
    let lower = svg.to_ascii_lowercase();
    lower.match_indices(" on").find_map(|(at, _)| {
        let name_end = lower[at + 3..]
            .find(|c: char| !c.is_ascii_alphabetic())
            .map(|i| at + 3 + i)?;
        let value = svg[name_end..].strip_prefix("=\"")?;
        (name_end > at + 3).then(|| unescape(value.split('"').next().unwrap_or_default()))
    })
}

/// The 1-based line of the first line of `source` (trimmed) that `matches`.
fn line_of(source: &str, matches: impl Fn(&str) -> bool) -> Option<usize> {
    source
        .lines()
        .position(|l| matches(l.trim()))
        .map(|i| i + 1)
}

/// An attribute value's text: the renderer escapes `&`, `<`, `>`, `"` and `'`.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}
