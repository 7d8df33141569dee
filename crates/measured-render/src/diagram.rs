//! Mermaid diagrams (```` ```mermaid ```` blocks) drawn as inline SVG at build time by a Rust
//! renderer, with no browser and no Node: the renderer's fixed colours become CSS classes and
//! `currentColor`, so a diagram reads in both colour schemes; its ids are made unique on the
//! page; and it carries a text alternative (its messages or edges) for screen readers.

mod clicks;
mod cycles;
mod depth;

use std::fmt::Write;

use mermaid_svg::ast::{Diagram, FlowchartDiagram, SequenceDiagram, SequenceItem};

pub use clicks::DiagramLink;

use measured_core::html::escape;

/// How a diagram is placed on its page.
pub struct DiagramOptions<'a> {
    /// Unique on the page (`diagram-3`): prefixes every id inside the SVG.
    pub id: &'a str,
    /// The diagram's accessible name: its caption, or a localized "Sequence diagram".
    pub title: &'a str,
}

/// A diagram that cannot be drawn: the line within the block (from 1, when the renderer knows
/// it) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramError {
    pub line: Option<usize>,
    pub message: String,
    /// What to do, when it is not to fix the Mermaid syntax.
    pub hint: Option<&'static str>,
}

impl std::fmt::Display for DiagramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The renderer's default colours and the class (or `currentColor`) each becomes; the site's
/// stylesheet colours the classes per scheme (`.diagram` in style.css).
const COLOURS: [(&str, &str); 7] = [
    ("#333", "currentColor"),
    ("#9370DB", "d-line"),
    ("#ECECFF", "d-node"),
    ("#FFF5AD", "d-note"),
    ("#aaaa33", "d-note"),
    ("#e8e8e8", "d-label"),
    ("#fff", "d-label"),
];

/// A diagram drawn: its inline SVG, and the links it draws (for the link check).
#[derive(Debug, Clone)]
pub struct Drawn {
    pub svg: String,
    pub links: Vec<DiagramLink>,
}

/// The inline SVG of a Mermaid diagram, with the links it draws.
pub fn mermaid(source: &str, opts: &DiagramOptions<'_>) -> Result<Drawn, DiagramError> {
    // The renderer recurses as deep as the diagram nests: past the bound, its stack would
    // overflow and abort the process.
    if let Err(line) = depth::check(source, depth::MAX_DEPTH) {
        return Err(DiagramError {
            line: Some(line),
            message: format!(
                "it nests more than {} levels deep here (blocks such as loop…end and subgraph…end, braces, indented lines each add a level)",
                depth::MAX_DEPTH
            ),
            hint: Some("split it into smaller diagrams, or nest less"),
        });
    }
    let diagram = mermaid_svg::parse(source).map_err(parse_error)?;
    if let Diagram::State(d) = &diagram {
        cycles::check(d, source)?;
    }
    let svg = mermaid_svg::render_diagram(&diagram).map_err(|e| DiagramError {
        line: None,
        message: e.to_string(),
        hint: None,
    })?;
    let links = clicks::links(&svg, source)?;
    let body = drop_unused_markers(&recolour(&unique_ids(&svg, opts.id)));
    let Some(open_end) = body.find('>') else {
        return Err(DiagramError {
            line: None,
            message: "the renderer returned no SVG".into(),
            hint: None,
        });
    };
    let (open, rest) = body.split_at(open_end);
    let view_box = attribute(open, "viewBox").unwrap_or("0 0 100 100");
    let max_width = attribute(open, "style").unwrap_or("");
    // The layout measured its text at this size: the page's own size must not apply.
    let font_size = attribute(open, "font-size").unwrap_or("14");
    let id = opts.id;
    let svg = format!(
        "<svg class=\"diagram\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\" viewBox=\"{view_box}\" style=\"{max_width}\" font-size=\"{font_size}\" xmlns=\"http://www.w3.org/2000/svg\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc{rest}",
        escape(opts.title),
        escape(&describe(&diagram))
    );
    Ok(Drawn { svg, links })
}

fn parse_error(e: mermaid_svg::ParseError) -> DiagramError {
    match e {
        mermaid_svg::ParseError::Syntax { message, line, .. } => DiagramError {
            line: Some(line),
            message,
            hint: None,
        },
        mermaid_svg::ParseError::UnknownDiagramType(first) => DiagramError {
            line: Some(1),
            message: format!(
                "`{}` is not a kind of Mermaid diagram (write `sequenceDiagram` or `flowchart LR` on the first line)",
                first.trim()
            ),
            hint: None,
        },
        other => DiagramError {
            line: None,
            message: other.to_string(),
            hint: None,
        },
    }
}

/// The `<marker>` definitions no `url(#…)` refers to removed: the renderer defines every
/// arrowhead it knows (filled, circle, cross) whichever the diagram draws, and a page's weight
/// is counted.
fn drop_unused_markers(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("<marker ") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("</marker>") else {
            break;
        };
        let end = start + len + "</marker>".len();
        let used = attribute(&rest[start..end], "id")
            .is_some_and(|id| svg.contains(&format!("url(#{id})")));
        if used {
            out.push_str(&rest[start..end]);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The value of `name="…"` in a start tag.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// Every `id` and reference to one prefixed with `prefix`, so two diagrams on a page do not
/// share their arrowheads' ids; a link's `<a href="#…">` leads to the page's own id, and stays.
fn unique_ids(svg: &str, prefix: &str) -> String {
    let svg = svg
        .replace(" id=\"", &format!(" id=\"{prefix}-"))
        .replace("url(#", &format!("url(#{prefix}-"));
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg.as_str();
    while let Some(at) = rest.find("href=\"#") {
        out.push_str(&rest[..at]);
        out.push_str("href=\"#");
        if !rest[..at].ends_with("<a ") {
            out.push_str(prefix);
            out.push('-');
        }
        rest = &rest[at + 7..];
    }
    out.push_str(rest);
    out
}

/// Each start tag's fixed `fill` and `stroke` colours replaced: the text colour by
/// `currentColor`, the others by one class per element (its fill's, else its stroke's).
fn recolour(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find('>')
            .map_or(rest.len(), |e| start + e + 1);
        out.push_str(&recolour_tag(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn recolour_tag(tag: &str) -> String {
    // A tenth of a pixel is below what a screen shows, and a page's weight is counted.
    let mut tag = tenths(tag);
    if tag.starts_with("<text") {
        // `.diagram text:not([text-anchor])` centres: one rule instead of one per label.
        tag = tag.replacen(" text-anchor=\"middle\"", "", 1);
    }
    let mut class = None;
    for paint in ["fill", "stroke"] {
        let Some(value) = attribute(&tag, paint).map(str::to_string) else {
            continue;
        };
        let Some((_, role)) = COLOURS.iter().find(|(c, _)| c.eq_ignore_ascii_case(&value)) else {
            continue;
        };
        let old = format!(" {paint}=\"{value}\"");
        if *role == "currentColor" && paint == "fill" && tag.starts_with("<text") {
            // `.diagram text` fills with currentColor: one rule instead of one per label.
            tag = tag.replacen(&old, "", 1);
        } else if *role == "currentColor" {
            tag = tag.replacen(&old, &format!(" {paint}=\"currentColor\""), 1);
        } else {
            tag = tag.replacen(&old, "", 1);
            class.get_or_insert(*role);
        }
    }
    if let Some(class) = class {
        let at = tag.find([' ', '/', '>']).unwrap_or(tag.len());
        tag.insert_str(at, &format!(" class=\"{class}\""));
    }
    // The renderer's usual strokes as classes of the stylesheet: one rule, not one per element.
    const EDGE: &str = " stroke=\"currentColor\" stroke-width=\"1.5\"";
    if !tag.contains(" class=\"") && tag.contains(EDGE) {
        tag = tag.replacen(EDGE, " class=\"d-edge\"", 1);
    } else if tag.contains(" class=\"d-node\"") {
        tag = tag.replacen(" stroke-width=\"1.5\"", "", 1);
    }
    tag
}

/// Every decimal number in a start tag rounded to tenths (`286.15` → `286.2`, `4.0` → `4`);
/// digits inside a word (`mmd1`, `#fff5ad`) and numbers that are not numbers (`1.2.3`) stay.
fn tenths(tag: &str) -> String {
    let mut out = String::with_capacity(tag.len());
    let mut chars = tag.char_indices().peekable();
    let mut prev = None;
    while let Some((i, c)) = chars.next() {
        if !c.is_ascii_digit() || prev.is_some_and(is_word) {
            out.push(c);
            prev = Some(c);
            continue;
        }
        let mut end = i + 1;
        while let Some(&(j, d)) = chars.peek() {
            if !(d.is_ascii_digit() || d == '.') {
                break;
            }
            end = j + 1;
            chars.next();
        }
        let number = &tag[i..end];
        match number.parse::<f64>() {
            Ok(x) if number.contains('.') => {
                let rounded = format!("{x:.1}");
                out.push_str(rounded.strip_suffix(".0").unwrap_or(&rounded));
            }
            _ => out.push_str(number),
        }
        prev = number.chars().last();
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '#'
}

/// The text alternative: what the diagram says, one sentence a step.
fn describe(diagram: &Diagram) -> String {
    match diagram {
        Diagram::Sequence(d) => {
            let mut s = String::new();
            describe_items(d, &d.items, &mut s);
            s.trim_end().to_string()
        }
        Diagram::Flowchart(d) => describe_flow(d),
        _ => String::new(),
    }
}

fn describe_items(d: &SequenceDiagram, items: &[SequenceItem], s: &mut String) {
    let name = |id: &str| {
        d.participants
            .iter()
            .find(|p| p.id == id)
            .map_or(id.to_string(), |p| p.display.clone())
    };
    for item in items {
        match item {
            SequenceItem::Message(m) => {
                let _ = write!(s, "{} → {}: {}. ", name(&m.from), name(&m.to), m.text);
            }
            SequenceItem::Note(n) => {
                let who: Vec<String> = n.participants.iter().map(|p| name(p)).collect();
                let _ = write!(s, "({}: {}.) ", who.join(", "), n.text);
            }
            SequenceItem::Loop(b) | SequenceItem::Opt(b) | SequenceItem::Break(b) => {
                let _ = write!(s, "[{}] ", b.label);
                describe_items(d, &b.items, s);
            }
            SequenceItem::Alt(branches)
            | SequenceItem::Par(branches)
            | SequenceItem::Critical(branches) => {
                for b in branches {
                    let _ = write!(s, "[{}] ", b.label);
                    describe_items(d, &b.items, s);
                }
            }
            _ => {}
        }
    }
}

fn describe_flow(d: &FlowchartDiagram) -> String {
    let name = |id: &str| {
        d.nodes
            .iter()
            .find(|n| n.id == id)
            .map_or(id.to_string(), |n| n.text.clone())
    };
    let steps: Vec<String> = d
        .edges
        .iter()
        .map(|e| match &e.label {
            Some(label) => format!("{} → {} ({label})", name(&e.from), name(&e.to)),
            None => format!("{} → {}", name(&e.from), name(&e.to)),
        })
        .collect();
    if steps.is_empty() {
        let nodes: Vec<&str> = d.nodes.iter().map(|n| n.text.as_str()).collect();
        return nodes.join(", ");
    }
    steps.join(". ") + "."
}

#[cfg(test)]
mod tests {
    use super::*;

    const HANDSHAKE: &str = "sequenceDiagram
    participant C as Client
    participant S as Server
    C->>S: SYN
    S->>C: SYN-ACK
    C->>S: ACK
    Note over C,S: connection established
";

    const LOOKUP: &str = "flowchart LR
    A[Browser] --> B{Cached?}
    B -->|yes| C[Answer]
    B -->|no| D[Resolver] --> C
";

    fn opts<'a>(id: &'a str, title: &'a str) -> DiagramOptions<'a> {
        DiagramOptions { id, title }
    }

    fn hex_colours(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let mut found: Vec<String> = doc
            .descendants()
            .flat_map(|n| n.attributes())
            .filter(|a| a.name() == "fill" || a.name() == "stroke")
            .map(|a| a.value())
            .filter(|v| v.starts_with('#'))
            .map(str::to_string)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    #[test]
    fn a_sequence_diagram_is_an_image_named_and_described_by_its_messages() {
        let svg = mermaid(HANDSHAKE, &opts("d1", "TCP handshake"))
            .unwrap()
            .svg;
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let root = doc.root_element();
        assert_eq!(root.attribute("role"), Some("img"));
        assert_eq!(root.attribute("aria-labelledby"), Some("d1-t d1-d"));
        assert_eq!(
            root.attribute("font-size"),
            Some("14"),
            "the size its layout assumed"
        );
        let text = |id: &str| {
            doc.descendants()
                .find(|n| n.attribute("id") == Some(id))
                .and_then(|n| n.text())
                .unwrap()
        };
        assert_eq!(text("d1-t"), "TCP handshake");
        assert_eq!(
            text("d1-d"),
            "Client → Server: SYN. Server → Client: SYN-ACK. Client → Server: ACK. \
             (Client, Server: connection established.)"
        );
        let labels: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        for word in ["Client", "Server", "SYN", "SYN-ACK", "ACK"] {
            assert!(labels.contains(&word), "{word} is drawn: {labels:?}");
        }
    }

    #[test]
    fn colours_follow_the_page_and_ids_are_the_diagrams_own() {
        for source in [HANDSHAKE, LOOKUP] {
            let svg = mermaid(source, &opts("d7", "x")).unwrap().svg;
            assert_eq!(hex_colours(&svg), Vec::<String>::new(), "{svg}");
            assert!(svg.contains("currentColor"), "{svg}");
            assert!(svg.contains("class=\"d-node\""), "{svg}");
            let doc = roxmltree::Document::parse(&svg).unwrap();
            for node in doc.descendants() {
                if let Some(id) = node.attribute("id") {
                    assert!(id.starts_with("d7-"), "{id}");
                }
            }
            assert!(
                !svg.contains("url(#arrow"),
                "references follow the ids: {svg}"
            );
            let markers: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name("marker"))
                .filter_map(|n| n.attribute("id"))
                .collect();
            assert!(!markers.is_empty(), "{svg}");
            for id in markers {
                assert!(svg.contains(&format!("url(#{id})")), "{id} is used: {svg}");
            }
            assert!(
                doc.descendants()
                    .filter(|n| n.has_tag_name("text"))
                    .all(|n| n.attribute("fill").is_none()),
                "labels take their colour from the stylesheet: {svg}"
            );
        }
        let css = include_str!("../../../static/style.css");
        assert!(
            css.contains(".diagram text { fill: currentColor;"),
            "labels are coloured"
        );
        for class in ["d-line", "d-node", "d-note", "d-label"] {
            assert!(
                css.contains(&format!(".diagram .{class}")),
                "style.css colours {class}"
            );
        }
    }

    #[test]
    fn coordinates_keep_tenths_and_the_usual_strokes_and_anchors_are_the_stylesheets() {
        assert_eq!(
            tenths(
                r##"<path id="mmd1-a" d="M286.15 119.769L-3.04 4.0" class="x2" stroke="#fff5ad" v="1.2.3">"##
            ),
            r##"<path id="mmd1-a" d="M286.2 119.8L-3 4" class="x2" stroke="#fff5ad" v="1.2.3">"##
        );
        for source in [HANDSHAKE, LOOKUP] {
            let svg = mermaid(source, &opts("d9", "x")).unwrap().svg;
            let doc = roxmltree::Document::parse(&svg).unwrap();
            for node in doc.descendants().filter(|n| n.is_element()) {
                for a in node.attributes() {
                    let long = a.value().split(|c: char| !(c.is_ascii_digit() || c == '.'));
                    let decimals = long.filter_map(|n| n.split_once('.')).map(|(_, d)| d.len());
                    assert!(
                        decimals.max().unwrap_or(0) <= 1,
                        "{}={}",
                        a.name(),
                        a.value()
                    );
                }
                if node.has_tag_name("text") {
                    assert_ne!(node.attribute("text-anchor"), Some("middle"), "{svg}");
                }
                if node.attribute("stroke") == Some("currentColor") {
                    assert_ne!(
                        node.attribute("stroke-width"),
                        Some("1.5"),
                        "a d-edge: {svg}"
                    );
                }
            }
        }
        let css = include_str!("../../../static/style.css");
        assert!(css.contains(".diagram text:not([text-anchor]) { text-anchor: middle; }"));
        assert!(css.contains(".diagram .d-edge { stroke: currentColor; stroke-width: 1.5; }"));
        assert!(css.contains(".diagram .d-node:not([stroke-width]) { stroke-width: 1.5; }"));
    }

    #[test]
    fn a_flowchart_is_described_by_its_edges() {
        let svg = mermaid(LOOKUP, &opts("d2", "DNS lookup")).unwrap().svg;
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let desc = doc.descendants().find(|n| n.has_tag_name("desc")).unwrap();
        assert_eq!(
            desc.text(),
            Some(
                "Browser → Cached?. Cached? → Answer (yes). Cached? → Resolver (no). Resolver → Answer."
            )
        );
        let boxes = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("d-node"))
            .count();
        assert!(boxes >= 4, "one box a node: {svg}");
    }

    #[test]
    fn an_error_names_its_line_in_the_block() {
        let e = mermaid(
            "sequenceDiagram\n    participant C\n    C->>S SYN\n    C-->>\n",
            &opts("d3", "x"),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("receiver"), "{e}");
        let e = mermaid("sequenceDiagramm\n  A->>B: hi\n", &opts("d4", "x")).unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
    }

    #[test]
    fn clicks_are_links_at_their_line_and_scripts_are_errors() {
        let source = "flowchart LR\n    A[Intro] --> B[Other]\n    click A \"#intro\" \"to the intro\"\n    click B \"/other/?q=1&x=2\"\n";
        let drawn = mermaid(source, &opts("d5", "x")).unwrap();
        assert_eq!(
            drawn.links,
            [
                DiagramLink {
                    dest: "#intro".into(),
                    line: Some(3)
                },
                DiagramLink {
                    dest: "/other/?q=1&x=2".into(),
                    line: Some(4)
                },
            ]
        );
        // The page's own anchor is left alone by the ids made unique.
        assert!(drawn.svg.contains("<a href=\"#intro\""), "{}", drawn.svg);
        for (click, line, what) in [
            (
                "click A \"javascript:alert(1)\"",
                3,
                "the link `javascript:alert(1)` runs a script",
            ),
            ("click A \" JaVaScRiPt:alert(1)\"", 3, "runs a script"),
            (
                "click A \"data:text/html,<script>x</script>\"",
                3,
                "runs a script",
            ),
            (
                "click B call alert(1)",
                3,
                "a `click` that calls `alert` runs a script",
            ),
            (
                "click B callback",
                3,
                "a `click` that calls `callback` runs a script",
            ),
        ] {
            let source = format!("flowchart LR\n    A --> B\n    {click}\n");
            let e = mermaid(&source, &opts("d6", "x")).unwrap_err();
            assert_eq!(e.line, Some(line), "{click}: {e}");
            assert!(e.message.contains(what), "{click}: {e}");
        }
    }
}
