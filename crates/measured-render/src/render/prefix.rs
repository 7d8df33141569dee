//! A site published under a path (`base_url = "https://user.github.io/blog/"`): every
//! root-relative URL a rendered HTML page gives the browser (`href="/a/"`, `src="/style.css"`)
//! gets the path in front (`/blog/a/`).
//!
//! Inside the build a page's URL stays its site path (`/a/`): output files, the link check,
//! the search index and the memo all speak it, and an author writes `[x](/a/)` whatever the
//! host. Prefixing what a page says as it leaves its template, rather than in each of the
//! places that make a URL, reaches every one of them at once: the theme's templates and a
//! site's overrides, the Markdown body and the raw HTML in it. Only attributes of tags are
//! read (text, comments and the bodies of `<script>` and `<style>` are copied as they are), so
//! `href="/a/"` shown in a code block stays as written.

/// The attributes whose value is a URL a browser loads or follows.
const URL_ATTRIBUTES: [&str; 4] = ["href", "src", "action", "poster"];

/// `html` with `base` (`/blog`, no trailing slash) before every root-relative URL of a
/// [`URL_ATTRIBUTES`] attribute; `html` itself when `base` is empty.
pub(super) fn prefixed(html: &str, base: &str) -> String {
    if base.is_empty() {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len() + 64 * base.len());
    let mut copied = 0;
    let mut at = 0;
    while let Some(lt) = html[at..].find('<').map(|i| at + i) {
        let rest = &html[lt..];
        if rest.starts_with("<!--") {
            at = rest.find("-->").map_or(html.len(), |e| lt + e + 3);
            continue;
        }
        let Some(tag) = Tag::read(html, lt) else {
            at = lt + 1;
            continue;
        };
        for value in tag.root_relative {
            out.push_str(&html[copied..value]);
            out.push_str(base);
            copied = value;
        }
        at = tag.end;
        if tag.raw_text {
            let close = format!("</{}", tag.name);
            at = find_ascii_ci(&html[at..], &close).map_or(html.len(), |i| at + i);
        }
    }
    out.push_str(&html[copied..]);
    out
}

/// An opening tag: where it ends and where its root-relative URL values start.
struct Tag {
    name: String,
    /// Just past the tag's `>`.
    end: usize,
    /// Byte offsets of URL values that start with one `/`.
    root_relative: Vec<usize>,
    /// `<script>` or `<style>`: what follows, up to its end tag, is not HTML.
    raw_text: bool,
}

impl Tag {
    /// The opening tag at `lt` (a `<`), or `None` when none starts there (`</p>`, `a < b`).
    fn read(html: &str, lt: usize) -> Option<Tag> {
        let bytes = html.as_bytes();
        let name_end = (lt + 1..bytes.len())
            .find(|&i| !bytes[i].is_ascii_alphanumeric())
            .unwrap_or(bytes.len());
        if name_end == lt + 1 || !bytes[lt + 1].is_ascii_alphabetic() {
            return None;
        }
        let name = html[lt + 1..name_end].to_ascii_lowercase();
        let mut root_relative = Vec::new();
        let mut i = name_end;
        loop {
            while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
                i += 1;
            }
            if i >= bytes.len() || bytes[i] == b'>' {
                break;
            }
            let attr_start = i;
            while i < bytes.len() && !b" \t\n\r\x0c=>/".contains(&bytes[i]) {
                i += 1;
            }
            let attr = html[attr_start..i].to_ascii_lowercase();
            if bytes.get(i) != Some(&b'=') {
                continue;
            }
            i += 1;
            let (start, end) = value_span(bytes, i);
            let value = &html[start..end];
            if URL_ATTRIBUTES.contains(&attr.as_str())
                && value.starts_with('/')
                && !value.starts_with("//")
            {
                root_relative.push(start);
            }
            i = if bytes.get(end).is_some_and(|&b| b == b'"' || b == b'\'') {
                end + 1
            } else {
                end
            };
        }
        let raw_text = matches!(name.as_str(), "script" | "style");
        Some(Tag {
            name,
            end: (i + 1).min(bytes.len()),
            root_relative,
            raw_text,
        })
    }
}

/// The span of an attribute value that starts at `i` (just after `=`), quotes excluded.
fn value_span(bytes: &[u8], i: usize) -> (usize, usize) {
    match bytes.get(i) {
        Some(&q @ (b'"' | b'\'')) => {
            let end = (i + 1..bytes.len())
                .find(|&j| bytes[j] == q)
                .unwrap_or(bytes.len());
            (i + 1, end)
        }
        _ => {
            let end = (i..bytes.len())
                .find(|&j| bytes[j].is_ascii_whitespace() || bytes[j] == b'>')
                .unwrap_or(bytes.len());
            (i, end)
        }
    }
}

/// Where `needle` (ASCII) first occurs in `haystack`, ignoring ASCII case.
fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::prefixed;

    #[test]
    fn root_relative_urls_of_tags_get_the_base_and_nothing_else_does() {
        let html = concat!(
            r#"<link rel="stylesheet" href="/style.css"><script src='/theme.js' defer></script>"#,
            r#"<a href="/a/#x">a</a> <a href=/b/>b</a> <img alt="/x" src="/i.png"/>"#,
            r#"<a href="//cdn.example/x">cdn</a> <a href="https://e.org/a/">abs</a>"#,
            r##"<a href="rel/">rel</a> <a href="#top">top</a> <form action="/s/"></form>"##,
            r#"<pre><code>&lt;a href="/code/"&gt; a < b</code></pre><!-- <a href="/c/"> -->"#,
            r#"<script>if (a<b) x = '<a href="/js/">'</script><STYLE>a[href="/css/"]{}</STYLE>"#,
            r#"<meta property="og:url" content="/meta/">"#,
        );
        let want = concat!(
            r#"<link rel="stylesheet" href="/blog/style.css"><script src='/blog/theme.js' defer></script>"#,
            r#"<a href="/blog/a/#x">a</a> <a href=/blog/b/>b</a> <img alt="/x" src="/blog/i.png"/>"#,
            r#"<a href="//cdn.example/x">cdn</a> <a href="https://e.org/a/">abs</a>"#,
            r##"<a href="rel/">rel</a> <a href="#top">top</a> <form action="/blog/s/"></form>"##,
            r#"<pre><code>&lt;a href="/code/"&gt; a < b</code></pre><!-- <a href="/c/"> -->"#,
            r#"<script>if (a<b) x = '<a href="/js/">'</script><STYLE>a[href="/css/"]{}</STYLE>"#,
            r#"<meta property="og:url" content="/meta/">"#,
        );
        assert_eq!(prefixed(html, "/blog"), want);
    }

    #[test]
    fn a_site_at_the_root_of_its_host_is_left_as_rendered() {
        let html = r#"<a href="/a/">a</a>"#;
        assert_eq!(prefixed(html, ""), html);
    }

    #[test]
    fn unfinished_html_ends_without_a_panic() {
        for html in [
            "<a href=\"/a",
            "<a href=",
            "<a",
            "<",
            "<!--",
            "<script>",
            "<a href='/é/'>é",
        ] {
            let out = prefixed(html, "/b");
            assert!(out.len() >= html.len(), "{html:?} → {out:?}");
        }
        assert_eq!(prefixed("<a href='/é/'>é", "/b"), "<a href='/b/é/'>é");
    }
}
