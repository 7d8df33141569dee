//! An article's searchable text, gathered by the Markdown stage while it renders the body:
//! plain text with whitespace collapsed, and the heading level of each stretch (a word in a
//! heading weighs more). The index never reads a page back from its HTML.
//!
//! Text comes as written (pulldown-cmark's text, code as is) or as HTML that a hook made
//! (injected values, experiment blocks), read here for its text: character references
//! decoded, tags of inline elements joining their neighbours, other tags separating words,
//! and nothing of `script`, `style`, `svg`, `template` or `noscript`.
//!
//! A module of its own, depending on nothing: the Markdown stage writes it, the search stage
//! reads it.

/// Elements whose content is never indexed.
const SKIPPED: &[&str] = &["script", "style", "svg", "template", "noscript"];
/// Elements with no content (no closing tag).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];
/// Elements inside a line of text: their tags do not separate words (highlighted code is
/// spans inside words' neighbourhoods, `<em>` can sit inside a word).
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark", "q", "s",
    "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
];

/// Searchable text with its heading levels.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    text: String,
    /// (offset in `text`, heading level from there on; 0: not a heading).
    runs: Vec<(usize, u8)>,
    level: u8,
}

impl Text {
    /// The text, whitespace collapsed to single spaces, none at the start.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Where the heading level changes: (offset in the text, level from there on).
    pub fn runs(&self) -> &[(usize, u8)] {
        &self.runs
    }

    /// Appends text as written (no markup, references already decoded).
    pub fn push(&mut self, raw: &str) {
        let mut rest = raw;
        while let Some((at, len)) = next_space(rest) {
            self.text.push_str(&rest[..at]);
            self.space();
            rest = &rest[at + len..];
        }
        self.text.push_str(rest);
    }

    /// A word boundary (at most one space in a row, none at the start).
    pub fn space(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with(' ') {
            self.text.push(' ');
        }
    }

    /// What follows is under a heading of `level` (1–6), or not in a heading (0).
    pub fn heading(&mut self, level: u8) {
        if level != self.level {
            self.level = level;
            self.runs.push((self.text.len(), level));
        }
    }

    /// Appends the text of an HTML fragment (see the module's documentation).
    pub fn push_html(&mut self, html: &str) {
        let mut scan = Scan {
            text: self,
            skipping: None,
        };
        scan.run(html);
    }

    /// Appends `other` after a word boundary, its heading levels with it.
    pub fn append(&mut self, other: &Text) {
        self.heading(0);
        self.space();
        let base = self.text.len();
        self.text.push_str(&other.text);
        self.runs
            .extend(other.runs.iter().map(|(at, level)| (base + at, *level)));
        self.level = other.level;
    }

    /// Frees the slack of the grown text.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.runs.shrink_to_fit();
    }

    /// The text without its trailing space.
    pub fn into_string(mut self) -> String {
        if self.text.ends_with(' ') {
            self.text.pop();
        }
        self.text
    }
}

/// Where the first whitespace character of `s` is, and its length: a scan of bytes, decoding
/// only characters whose first byte some whitespace character has (U+0085, U+00A0, U+1680,
/// U+2000–U+205F, U+3000): text is mostly letters, many of them accented.
fn next_space(s: &str) -> Option<(usize, usize)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => return Some((i, 1)),
            0xc2 | 0xe1 | 0xe2 | 0xe3 => {
                let c = s[i..].chars().next()?;
                if c.is_whitespace() {
                    return Some((i, c.len_utf8()));
                }
                i += c.len_utf8();
            }
            _ => i += 1,
        }
    }
    None
}

/// A scan through an HTML fragment, writing its text.
struct Scan<'t> {
    text: &'t mut Text,
    /// The element being skipped and how deep inside it the scan is.
    skipping: Option<(String, usize)>,
}

impl Scan<'_> {
    fn run(&mut self, html: &str) {
        let mut rest = html;
        while let Some(lt) = rest.find('<') {
            self.push_text(&rest[..lt]);
            rest = &rest[lt..];
            if let Some(comment) = rest.strip_prefix("<!--") {
                rest = comment.find("-->").map_or("", |e| &comment[e + 3..]);
                continue;
            }
            let end = tag_end(rest);
            self.tag(&rest[..end]);
            rest = &rest[end..];
        }
        self.push_text(rest);
    }

    fn push_text(&mut self, raw: &str) {
        if self.skipping.is_some() || raw.is_empty() {
            return;
        }
        self.text.push(&decode(raw));
    }

    fn tag(&mut self, tag: &str) {
        let closing = tag.starts_with("</");
        let after = &tag[if closing { 2 } else { 1 }..];
        let name_len = after
            .bytes()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        // Lower-cased on the stack: highlighted code has many tags.
        let mut buf = [0u8; 16];
        let name = match after.get(..name_len) {
            Some(n) if n.len() <= buf.len() => {
                buf[..n.len()].copy_from_slice(n.as_bytes());
                buf[..n.len()].make_ascii_lowercase();
                std::str::from_utf8(&buf[..n.len()]).unwrap_or_default()
            }
            _ => "",
        };
        if name.is_empty() {
            // Not a tag (`<` in text would have been escaped): keep it as text.
            self.push_text(tag);
            return;
        }
        let void = VOID.contains(&name) || tag.ends_with("/>");
        if let Some((skipped, depth)) = &mut self.skipping {
            if skipped == name && !void {
                if closing {
                    *depth -= 1;
                } else {
                    *depth += 1;
                }
                if *depth == 0 {
                    self.skipping = None;
                }
            }
            return;
        }
        if !INLINE.contains(&name) {
            self.text.space();
        }
        let heading = heading_level(name);
        if closing {
            if heading.is_some() {
                self.text.heading(0);
            }
            return;
        }
        if !void && SKIPPED.contains(&name) {
            self.skipping = Some((name.to_string(), 1));
            return;
        }
        if let Some(level) = heading {
            self.text.heading(level);
        }
    }
}

/// `h1`…`h6` → 1…6.
fn heading_level(name: &str) -> Option<u8> {
    match name.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(d - b'0'),
        _ => None,
    }
}

/// The length of the tag at the start of `html` (up to and with its `>`; quotes respected).
fn tag_end(html: &str) -> usize {
    // Bytes: the delimiters are ASCII, which never occurs inside a multi-byte character.
    let mut quote = None;
    for (i, &b) in html.as_bytes().iter().enumerate().skip(1) {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if b == q => quote = None,
            (None, b'>') => return i + 1,
            _ => {}
        }
    }
    html.len()
}

/// Text with its character references decoded (`&amp;`, `&#39;`, `&#x2F;`, `&nbsp;` …): what
/// pulldown-cmark and the hooks write.
fn decode(raw: &str) -> std::borrow::Cow<'_, str> {
    if !raw.contains('&') {
        return raw.into();
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest[1..]
            .find(';')
            .filter(|end| *end <= 10)
            .and_then(|end| Some((reference(&rest[1..=end])?, end + 2)));
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// The character a reference's name stands for (`amp` → `&`, `#39` → `'`).
fn reference(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(fragment: &str) -> Text {
        let mut t = Text::default();
        t.push_html(fragment);
        t
    }

    #[test]
    fn html_is_read_for_its_text_without_what_is_not_prose() {
        let t = html(
            "<figure><figcaption>The handshake &amp; the <em>window</em>.</figcaption><script>var x = 1;</script><svg><text>axis</text><svg>nested</svg>still</svg><!-- a comment --></figure><p>after</p>",
        );
        assert_eq!(t.as_str(), "The handshake & the window. after ");
        assert_eq!(t.into_string(), "The handshake & the window. after");
    }

    #[test]
    fn inline_tags_do_not_split_words_and_block_tags_do() {
        let t = html(
            "<pre><code><span>tcp_</span><span>nodelay</span></code></pre><table><tr><td>a</td><td>b</td></tr></table>",
        );
        assert_eq!(t.into_string(), "tcp_nodelay a b");
    }

    #[test]
    fn headings_in_html_and_in_text_set_the_level_of_what_follows() {
        let mut t = Text::default();
        t.heading(1);
        t.push("Title");
        t.heading(0);
        t.space();
        t.push_html("<p>one</p><h2 id=\"x\">Two</h2><p>three</p>");
        assert_eq!(t.as_str(), "Title one Two three ");
        assert_eq!(t.runs(), [(0, 1), (5, 0), (10, 2), (14, 0)]);
    }

    #[test]
    fn appended_text_keeps_its_levels_after_a_boundary() {
        let mut body = Text::default();
        body.push("intro ");
        body.heading(2);
        body.push("Part");
        let mut page = Text::default();
        page.heading(1);
        page.push("T");
        page.append(&body);
        assert_eq!(page.as_str(), "T intro Part");
        assert_eq!(page.runs(), [(0, 1), (1, 0), (8, 2)]);
    }

    #[test]
    fn whitespace_is_collapsed() {
        let mut t = Text::default();
        t.push("  a \n\t b  ");
        t.space();
        t.push("c");
        assert_eq!(t.into_string(), "a b c");
    }

    #[test]
    fn every_whitespace_character_and_only_those_separate_words() {
        for c in (0..0x1_0000).filter_map(char::from_u32) {
            let mut t = Text::default();
            t.push(&format!("a{c}b"));
            if c.is_whitespace() {
                assert_eq!(t.as_str(), "a b", "{c:?}");
            } else {
                assert_eq!(t.as_str(), format!("a{c}b"), "{c:?}");
            }
        }
    }

    #[test]
    fn references_are_decoded_and_stray_ampersands_kept() {
        assert_eq!(
            decode("a &lt;b&gt; &#39;c&#x27; &nbsp;&copy; R&D"),
            "a <b> 'c' \u{a0}&copy; R&D"
        );
    }

    #[test]
    fn a_quoted_greater_than_sign_does_not_end_a_tag() {
        assert_eq!(
            html("<p><abbr title=\"a > b\">gt</abbr> word</p>").into_string(),
            "gt word"
        );
    }
}
