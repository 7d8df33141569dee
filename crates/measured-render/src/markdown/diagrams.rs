//! ```` ```mermaid ```` blocks drawn as inline SVG by [`crate::diagram`], in a figure with the
//! caption the info string gives (```` ```mermaid {#fig-id} Caption ````), named for screen
//! readers by that caption or by the kind of diagram in the page's language.

use crate::diagram::{self, DiagramError, DiagramLink, DiagramOptions};
use measured_core::html::escape;

use super::Labels;
use super::figures;

/// How one diagram is placed.
pub(super) struct Placed<'a> {
    /// Unique on the page, prefixes the SVG's ids.
    pub(super) n: usize,
    /// The figure's id and label, when it is numbered.
    pub(super) numbered: Option<(&'a str, &'a str)>,
    pub(super) caption: &'a str,
}

/// The figure of the diagram `code`, and the links it draws.
pub(super) fn html(
    code: &str,
    at: &Placed<'_>,
    labels: &Labels,
) -> Result<(String, Vec<DiagramLink>), DiagramError> {
    let title = if at.caption.is_empty() {
        default_name(code, labels)
    } else {
        at.caption
    };
    let svg_id = format!("mmd{}", at.n);
    let drawn = diagram::mermaid(code, &DiagramOptions { id: &svg_id, title })?;
    let svg = drawn.svg;
    let caption = match at.numbered {
        Some((_, label)) => figures::caption(label, &escape(at.caption)),
        None if at.caption.is_empty() => String::new(),
        None => format!("<figcaption>{}</figcaption>", escape(at.caption)),
    };
    let id = at
        .numbered
        .map(|(id, _)| format!(" id=\"{}\"", escape(id)))
        .unwrap_or_default();
    Ok((
        format!("<figure class=\"diagram-figure\"{id}>{svg}{caption}</figure>\n"),
        drawn.links,
    ))
}

/// "Sequence diagram", "Flowchart", or "Diagram", by the block's first line.
fn default_name<'l>(code: &str, labels: &'l Labels) -> &'l str {
    let first = code
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("%%"))
        .unwrap_or_default();
    if first.starts_with("sequenceDiagram") {
        &labels.sequence
    } else if first.starts_with("flowchart") || first.starts_with("graph") {
        &labels.flowchart
    } else {
        &labels.diagram
    }
}

/// The offset in the body of line `line` (from 1) of the block whose fence starts at `fence`.
pub(super) fn line_offset(body: &str, fence: usize, line: usize) -> usize {
    let mut at = fence;
    for _ in 0..line {
        match body[at..].find('\n') {
            Some(i) => at += i + 1,
            None => break,
        }
    }
    at
}
