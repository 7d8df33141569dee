//! Collectors of what later stages read of a body, each handed events by the Markdown pass:
//! the searchable text and the summary (the first paragraph). The links and the word count
//! are plain lists and counts in [`super::pass`]; the headings' ids in [`super::headings`].

use pulldown_cmark::{Event, Tag, TagEnd};

use measured_core::html::strip_tags;
use measured_core::search_text::Text;

/// The body's text as a reader reads it, for the search index: prose, code and what hooks
/// injected, an image's alt text aside, with heading levels.
#[derive(Default)]
pub(super) struct SearchText {
    pub(super) text: Text,
    /// How many images the current event is inside (their text is alt text, not read).
    in_image: usize,
}

impl SearchText {
    /// A word boundary where `event` starts or ends a block (or breaks a line).
    pub(super) fn boundary(&mut self, event: &Event<'_>) {
        let block = match event {
            Event::Start(tag) => !matches!(
                tag,
                Tag::Emphasis
                    | Tag::Strong
                    | Tag::Strikethrough
                    | Tag::Superscript
                    | Tag::Subscript
                    | Tag::Link { .. }
                    | Tag::Image { .. }
            ),
            Event::End(tag) => !matches!(
                tag,
                TagEnd::Emphasis
                    | TagEnd::Strong
                    | TagEnd::Strikethrough
                    | TagEnd::Superscript
                    | TagEnd::Subscript
                    | TagEnd::Link
                    | TagEnd::Image
            ),
            Event::SoftBreak | Event::HardBreak | Event::Rule => true,
            _ => false,
        };
        if block {
            self.text.space();
        }
    }

    /// Prose as written (not when it is an image's alt text).
    pub(super) fn prose(&mut self, text: &str) {
        if self.in_image == 0 {
            self.text.push(text);
        }
    }

    /// Prose that values made HTML (not when it is an image's alt text).
    pub(super) fn prose_html(&mut self, html: &str) {
        if self.in_image == 0 {
            self.text.push_html(html);
        }
    }

    /// Inline code.
    pub(super) fn code(&mut self, code: &str) {
        self.text.push(code);
    }

    /// A code block's code, a block of its own.
    pub(super) fn code_block(&mut self, code: &str) {
        self.text.push(code);
        self.text.space();
    }

    /// HTML written in the body or made by a hook.
    pub(super) fn html(&mut self, html: &str) {
        self.text.push_html(html);
    }

    pub(super) fn enter_image(&mut self) {
        self.in_image += 1;
    }

    pub(super) fn leave_image(&mut self) {
        self.in_image = self.in_image.saturating_sub(1);
    }

    /// What follows is a heading of `level`.
    pub(super) fn enter_heading(&mut self, level: u8) {
        self.text.heading(level);
    }

    /// The heading ended: what follows is not one, after a word boundary.
    pub(super) fn leave_heading(&mut self) {
        self.text.heading(0);
        self.text.space();
    }
}

/// The first paragraph at the top level (not in a list, a quote or a footnote), as plain
/// text: listings and feeds quote it where the article gives no description.
#[derive(Default)]
pub(super) struct Summary {
    /// How deep in lists, quotes and footnotes the pass is.
    depth: usize,
    first: Option<String>,
}

impl Summary {
    /// A list, quote or footnote starts.
    pub(super) fn enter(&mut self) {
        self.depth += 1;
    }

    /// A list, quote or footnote ends.
    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Whether a paragraph that starts here is the summary.
    pub(super) fn wants_paragraph(&self) -> bool {
        self.depth == 0 && self.first.is_none()
    }

    /// The summary is the paragraph of `events` (rewritten, from its start to its end), unless
    /// it has no prose (an image, a raw HTML line): then the next one is. A formula in it
    /// reads as its plain text (`2^62`, not the MathML's `262`).
    pub(super) fn paragraph<'e>(&mut self, events: impl Iterator<Item = Event<'e>>) {
        let mut html = String::new();
        // An image and its alt text are left out.
        let mut in_image = 0usize;
        let prose = events.filter(|e| match e {
            Event::Start(Tag::Image { .. }) => {
                in_image += 1;
                false
            }
            Event::End(TagEnd::Image) => {
                in_image = in_image.saturating_sub(1);
                false
            }
            _ => in_image == 0,
        });
        pulldown_cmark::html::push_html(&mut html, prose);
        let text = strip_tags(&super::formula::readable(&html))
            .trim()
            .to_string();
        if !text.is_empty() {
            self.first = Some(text);
        }
    }

    pub(super) fn finish(self) -> String {
        self.first.unwrap_or_default()
    }
}

/// The `href` and `src` attributes of raw HTML (quoted or not, entities such as `&amp;`
/// decoded), with their byte offset in `html`: the link check reads them like Markdown's.
pub(super) fn html_links(html: &str) -> Vec<(usize, String)> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    for name in ["href", "src"] {
        for (at, _) in lower.match_indices(name) {
            let before = lower[..at].chars().next_back();
            // An attribute: after a space, inside a tag (not text such as `use href=x`).
            // A line of a block with no `<` or `>` before it continues a tag (`<img\n src=…>`).
            let in_tag = match (lower[..at].rfind('<'), lower[..at].rfind('>')) {
                (Some(open), Some(close)) => open > close,
                (Some(_), None) | (None, None) => true,
                (None, Some(_)) => false,
            };
            if !before.is_some_and(|c| c.is_ascii_whitespace()) || !in_tag {
                continue;
            }
            let rest = html[at + name.len()..].trim_start();
            let Some(value) = rest.strip_prefix('=').map(str::trim_start) else {
                continue;
            };
            let dest = match value.chars().next() {
                Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or_default(),
                _ => value
                    .split(|c: char| c.is_ascii_whitespace() || c == '>')
                    .next()
                    .unwrap_or_default(),
            };
            if !dest.is_empty() && !dest.contains("{{") {
                out.push((at, dest.replace("&amp;", "&")));
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::CowStr;

    #[test]
    fn the_summary_is_the_first_paragraph_outside_lists_quotes_and_footnotes() {
        let mut summary = Summary::default();
        summary.enter();
        assert!(!summary.wants_paragraph(), "inside a list");
        summary.leave();
        assert!(summary.wants_paragraph());
        summary.paragraph(
            [
                Event::Start(Tag::Paragraph),
                Event::Text(CowStr::from(" Đo <được> ")),
                Event::End(TagEnd::Paragraph),
            ]
            .into_iter(),
        );
        assert!(!summary.wants_paragraph(), "one summary");
        assert_eq!(summary.finish(), "Đo <được>");
    }

    #[test]
    fn raw_html_links_are_read_with_their_offsets() {
        let html = "<a href=\"/x/?a=1&amp;b=2\">x</a> use src=no <img data-src=\"no\" src='ảnh.png'> <a href=y.html>";
        let got = html_links(html);
        let dests: Vec<&str> = got.iter().map(|(_, d)| d.as_str()).collect();
        assert_eq!(dests, ["/x/?a=1&b=2", "ảnh.png", "y.html"]);
        assert_eq!(&html[got[1].0..got[1].0 + 3], "src");
    }

    #[test]
    fn alt_text_is_not_searchable_but_code_is() {
        let mut text = SearchText::default();
        text.prose("một");
        text.enter_image();
        text.prose("ảnh");
        text.prose_html("<b>ảnh</b>");
        text.leave_image();
        text.boundary(&Event::SoftBreak);
        text.code("x_y");
        assert_eq!(text.text.as_str(), "một x_y");
    }
}
