//! A page as the index sees it: URL, title, searchable text, and each word's weighted count
//! as written (a word in a heading counts more than one in a paragraph); the index spells
//! each written form once for all pages.
//!
//! What is searchable of an article is what a reader reads of it: its title (as its `<h1>`),
//! its tags, its description (listings show it) and its body ([`Text`], gathered by the
//! Markdown stage). Not the table of contents, the Reproduce section, the series or the
//! related articles, which are about other pages or every page.

use rustc_hash::FxHashMap;

use super::Source;
use super::words;
use measured_core::search_text::Text;

/// One page of the index.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// As the browser sees it: `/en/tcp/`.
    pub url: String,
    /// The article's title.
    pub title: String,
    /// The searchable text, whitespace collapsed: excerpts are cut from it.
    pub text: String,
    /// Each word as written (its range in `text`, at its first occurrence) and its count,
    /// weighted by the headings it is in: ranges, not a string each (a page has hundreds).
    counts: Vec<(u32, u32, u32)>,
    /// How many words the text has (for ranking: a match in a short page counts more).
    pub len: u32,
}

impl Page {
    /// Each word of the page as written (`Kết` and `kết` apart) and its weighted count.
    pub fn written(&self) -> impl Iterator<Item = (&str, u32)> {
        self.counts
            .iter()
            .map(|&(start, end, count)| (&self.text[start as usize..end as usize], count))
    }
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

/// The page of an article.
pub fn of_article(article: &Source<'_>) -> Page {
    let Source {
        url,
        title,
        tags,
        description,
        body,
    } = *article;
    let mut text = Text::default();
    text.heading(1);
    text.push(title);
    text.heading(0);
    for tag in tags {
        text.space();
        text.push(tag);
    }
    text.space();
    text.push(description);
    text.append(body);
    let runs = text.runs().to_vec();
    let text = text.into_string();
    let (counts, len) = count(&text, &runs);
    Page {
        url: url.to_string(),
        title: title.trim().to_string(),
        text,
        counts,
        len,
    }
}

/// Each word of `text` as written (its range at its first occurrence) and its count, weighted
/// by the heading level `runs` give it; and how many words `text` has.
fn count(text: &str, runs: &[(usize, u8)]) -> (Vec<(u32, u32, u32)>, u32) {
    let mut len = 0;
    let mut written: FxHashMap<&str, (u32, u32)> = FxHashMap::default();
    let mut runs = runs.iter().peekable();
    let mut level = 0;
    for (at, word) in word_offsets(text) {
        while let Some((start, l)) = runs.peek() {
            if *start > at {
                break;
            }
            level = *l;
            runs.next();
        }
        len += 1;
        written.entry(word).or_insert((at as u32, 0)).1 += weight(level);
    }
    let mut counts: Vec<(u32, u32, u32)> = written
        .into_iter()
        .map(|(word, (at, count))| (at, at + word.len() as u32, count))
        .collect();
    // In the order of the text: the same for the same page, whatever the hash map's order.
    counts.sort_unstable();
    (counts, len)
}

/// The words of `text` with their byte offsets.
fn word_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = text.as_ptr() as usize;
    words::split(text).map(move |w| (w.as_ptr() as usize - base, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(html: &str) -> Text {
        let mut t = Text::default();
        t.push_html(html);
        t
    }

    fn article(title: &str, body: &Text) -> Page {
        of_article(&Source {
            url: "/a/",
            title,
            tags: &[],
            description: "",
            body,
        })
    }

    /// The weighted count of `word` as written in `p`.
    fn weight_of(p: &Page, word: &str) -> Option<u32> {
        p.written().find(|(w, _)| *w == word).map(|(_, c)| c)
    }

    #[test]
    fn a_page_is_its_title_tags_and_body() {
        let p = of_article(&Source {
            url: "/en/tcp/",
            title: "Opening a connection",
            tags: &["networking".into(), "TCP".into()],
            description: "Three packets.",
            body: &body("<p>The handshake &amp; the <em>window</em>.</p>"),
        });
        assert_eq!(p.url, "/en/tcp/");
        assert_eq!(p.title, "Opening a connection");
        assert_eq!(
            p.text,
            "Opening a connection networking TCP Three packets. The handshake & the window."
        );
        assert_eq!(p.len, 11);
        assert_eq!(weight_of(&p, "Opening"), Some(7), "the title is the <h1>");
        assert_eq!(weight_of(&p, "TCP"), Some(1));
        assert_eq!(weight_of(&p, "window"), Some(1));
    }

    #[test]
    fn words_in_headings_weigh_more() {
        let p = article(
            "Alpha",
            &body("<h2 id=\"x\">Beta</h2><p>gamma alpha <strong>beta</strong></p>"),
        );
        assert_eq!(weight_of(&p, "Alpha").unwrap(), 7);
        assert_eq!(weight_of(&p, "alpha").unwrap(), 1);
        assert_eq!(weight_of(&p, "Beta").unwrap(), 5);
        assert_eq!(weight_of(&p, "beta").unwrap(), 1);
        assert_eq!(weight_of(&p, "gamma").unwrap(), 1);
    }

    #[test]
    fn words_are_counted_as_written() {
        let p = article("", &body("<p>Kết nối, kết nối và kẹt</p>"));
        assert_eq!(weight_of(&p, "Kết"), Some(1));
        assert_eq!(weight_of(&p, "kết"), Some(1));
        assert_eq!(weight_of(&p, "kẹt"), Some(1));
        assert_eq!(weight_of(&p, "nối"), Some(2));
        assert_eq!(p.len, 6);
    }
}
