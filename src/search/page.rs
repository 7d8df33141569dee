//! A page as the index sees it, read from its published HTML: URL, title, searchable text, and
//! each spelling's weighted count (a word in a heading counts more than one in a paragraph).
//!
//! A page is searchable when its `<main>` carries [`BODY_MARKER`] (the theme puts it on
//! articles); what is read is that `<main>`, minus elements carrying [`IGNORE_MARKER`] (table
//! of contents, Reproduce section) and what is not prose (`script`, `style`, `svg`,
//! `template`).

use rustc_hash::FxHashMap;

use super::words;

/// The attribute that marks a page's searchable part.
pub const BODY_MARKER: &str = "data-search-body";
/// The attribute that leaves an element out of the index.
pub const IGNORE_MARKER: &str = "data-search-ignore";

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

/// One page of the index.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// As the browser sees it: `/en/tcp/`.
    pub url: String,
    /// The text of the first `<h1>` of the searchable part (the URL when there is none).
    pub title: String,
    /// The searchable text, whitespace collapsed: excerpts are cut from it.
    pub text: String,
    /// Each spelling ([`words::spelling`]) and its weighted count, sorted by spelling.
    pub words: Vec<(String, u32)>,
    /// How many words the text has (for ranking: a match in a short page counts more).
    pub len: u32,
}

/// The weight of a word under heading level `level` (0: not in a heading).
fn weight(level: u8) -> u32 {
    match level {
        1 => 7,
        2 => 5,
        3 => 4,
        4..=6 => 3,
        _ => 1,
    }
}

/// Reads the page at output path `path`.
pub fn read(path: &str, html: &str) -> Page {
    let url = url_of(path);
    let region = searchable(html);
    let mut scan = Scan::default();
    scan.run(region);
    let title = match scan.title {
        Some((start, end)) => scan.text[start..end].trim().to_string(),
        None => url.clone(),
    };
    // Counted as written, then merged by spelling (`Kết` and `kết`): one spelling made per
    // distinct word, not per occurrence.
    let mut len = 0;
    let mut written: FxHashMap<&str, u32> = FxHashMap::default();
    let mut runs = scan.runs.iter().peekable();
    let mut level = 0;
    for (at, word) in word_offsets(&scan.text) {
        while let Some((start, l)) = runs.peek() {
            if *start > at {
                break;
            }
            level = *l;
            runs.next();
        }
        len += 1;
        *written.entry(word).or_default() += weight(level);
    }
    let mut words: Vec<(String, u32)> = written
        .into_iter()
        .map(|(word, count)| (words::spelling(word), count))
        .collect();
    words.sort_unstable();
    words.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 += later.1;
        }
        same
    });
    Page {
        url,
        title,
        text: scan.text.trim_end().to_string(),
        words,
        len,
    }
}

/// The URL of the page at output path `path`, as the browser sees it: `en/x/index.html` →
/// `/en/x/`.
pub fn url_of(path: &str) -> String {
    format!("/{}", path.strip_suffix("index.html").unwrap_or(path))
}

/// The words of `text` with their byte offsets.
fn word_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = text.as_ptr() as usize;
    words::split(text).map(move |w| (w.as_ptr() as usize - base, w))
}

/// Whether the page has a searchable part: its `<main>` carries [`BODY_MARKER`] (the rest
/// of the page is not read).
pub fn is_searchable(html: &str) -> bool {
    html.find("<main").is_some_and(|at| {
        let tag = &html[at..];
        has_attribute(&tag[..tag_end(tag)], BODY_MARKER)
    })
}

/// The content of the page's `<main>` (the whole page when it has none).
fn searchable(html: &str) -> &str {
    let Some(at) = html.find("<main") else {
        return html;
    };
    let open_end = at + tag_end(&html[at..]);
    match html.rfind("</main>") {
        Some(end) if end >= open_end => &html[open_end..end],
        _ => &html[open_end..],
    }
}

/// The state of a scan through the searchable HTML.
#[derive(Default)]
struct Scan {
    text: String,
    /// (offset in `text`, heading level from there on).
    runs: Vec<(usize, u8)>,
    /// The element being skipped and how deep inside it the scan is.
    skipping: Option<(String, usize)>,
    heading: u8,
    title: Option<(usize, usize)>,
    title_open: Option<usize>,
}

impl Scan {
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
        let decoded = decode(raw);
        // Empty parts between whitespace in a row: `space` writes one.
        for (i, part) in decoded.split(words::is_space).enumerate() {
            if i > 0 {
                self.space();
            }
            self.text.push_str(part);
        }
    }

    /// A word boundary (at most one space in a row, none at the start).
    fn space(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with(' ') {
            self.text.push(' ');
        }
    }

    fn tag(&mut self, tag: &str) {
        let closing = tag.starts_with("</");
        let after = &tag[if closing { 2 } else { 1 }..];
        let name_len = after
            .bytes()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        // Lower-cased on the stack: a page has thousands of tags (highlighted code).
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
            self.space();
        }
        if closing {
            if heading_level(name) == Some(self.heading) && self.heading > 0 {
                self.set_heading(0);
                if let Some(start) = self.title_open.take() {
                    self.title = Some((start, self.text.len()));
                }
            }
            return;
        }
        if !void && (SKIPPED.contains(&name) || has_attribute(tag, IGNORE_MARKER)) {
            self.skipping = Some((name.to_string(), 1));
            return;
        }
        if let Some(level) = heading_level(name) {
            self.set_heading(level);
            if level == 1 && self.title.is_none() && self.title_open.is_none() {
                self.title_open = Some(self.text.len());
            }
        }
    }

    fn set_heading(&mut self, level: u8) {
        self.heading = level;
        self.runs.push((self.text.len(), level));
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

/// Whether the tag has the attribute `name` (outside attribute values).
fn has_attribute(tag: &str, name: &str) -> bool {
    // A byte scan: the tags are short and many (a substring searcher's set-up costs more).
    let (tag, name) = (tag.as_bytes(), name.as_bytes());
    (1..tag.len().saturating_sub(name.len()) + 1).any(|at| {
        tag[at..].starts_with(name)
            && tag[at - 1].is_ascii_whitespace()
            && tag
                .get(at + name.len())
                .is_none_or(|&c| c == b'=' || c == b'>' || c == b'/' || c.is_ascii_whitespace())
    })
}

/// Text with its character references decoded (`&amp;`, `&#39;`, `&#x2F;`, `&nbsp;` …): what
/// pulldown-cmark and Tera write.
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

    fn page(main: &str) -> Page {
        read(
            "en/tcp/index.html",
            &format!(
                "<html lang=\"en\"><head><title>Site</title></head><body><nav>Home menu</nav><main id=\"main\" {BODY_MARKER}>{main}</main><footer>footer</footer></body></html>"
            ),
        )
    }

    fn count(p: &Page, spelling: &str) -> Option<u32> {
        p.words.iter().find(|(s, _)| s == spelling).map(|(_, c)| *c)
    }

    #[test]
    fn only_the_marked_part_is_read_and_ignored_parts_are_left_out() {
        let p = page(
            "<h1>Opening a connection</h1><nav data-search-ignore><h2>Contents</h2><ol><li>nested <nav>deep</nav> still</li></ol></nav><p>The handshake &amp; the <em>window</em>.</p><script>var x = 1;</script><svg><text>axis</text></svg>",
        );
        assert_eq!(p.url, "/en/tcp/");
        assert_eq!(p.title, "Opening a connection");
        assert_eq!(p.text, "Opening a connection The handshake & the window.");
        for gone in ["home", "contents", "deep", "still", "var", "axis", "footer"] {
            assert!(count(&p, gone).is_none(), "{gone} in {:?}", p.words);
        }
        assert_eq!(p.len, 7);
    }

    #[test]
    fn words_in_headings_weigh_more() {
        let p =
            page("<h1>Alpha</h1><h2 id=\"x\">Beta</h2><p>gamma alpha <strong>beta</strong></p>");
        assert_eq!(count(&p, "alpha").unwrap(), 7 + 1);
        assert_eq!(count(&p, "beta").unwrap(), 5 + 1);
        assert_eq!(count(&p, "gamma").unwrap(), 1);
    }

    #[test]
    fn inline_tags_do_not_split_words_and_block_tags_do() {
        let p = page(
            "<pre><code><span>tcp_</span><span>nodelay</span></code></pre><table><tr><td>a</td><td>b</td></tr></table>",
        );
        assert_eq!(p.text, "tcp_nodelay a b");
    }

    #[test]
    fn spellings_are_counted_as_written_lower_cased() {
        let p = page("<p>Kết nối, kết nối và kẹt</p>");
        assert_eq!(count(&p, "kết").unwrap(), 2);
        assert_eq!(count(&p, "kẹt").unwrap(), 1);
        assert_eq!(count(&p, "nối").unwrap(), 2);
    }

    #[test]
    fn references_are_decoded_and_stray_ampersands_kept() {
        assert_eq!(
            decode("a &lt;b&gt; &#39;c&#x27; &nbsp;&copy; R&D"),
            "a <b> 'c' \u{a0}&copy; R&D"
        );
    }

    #[test]
    fn attributes_are_found_outside_values_only() {
        assert!(has_attribute(
            "<nav class=\"toc\" data-search-ignore>",
            IGNORE_MARKER
        ));
        assert!(!has_attribute(
            "<p title=\"x data-search-ignore\">",
            IGNORE_MARKER
        ));
        assert!(!has_attribute("<p data-search-ignored>", IGNORE_MARKER));
    }

    #[test]
    fn a_quoted_greater_than_sign_does_not_end_a_tag() {
        let p = page("<p><abbr title=\"a > b\">gt</abbr> word</p>");
        assert_eq!(p.text, "gt word");
    }

    #[test]
    fn urls_drop_index_html() {
        assert_eq!(url_of("index.html"), "/");
        assert_eq!(url_of("en/tcp/index.html"), "/en/tcp/");
        assert_eq!(url_of("404.html"), "/404.html");
    }

    #[test]
    fn a_page_without_a_heading_is_titled_by_its_url() {
        assert_eq!(page("<p>text</p>").title, "/en/tcp/");
    }
}
