//! Small HTML helpers: escaping text and attributes, and stripping tags for plain-text summaries.

/// Escapes text for an HTML element body or a double-quoted attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    pulldown_cmark_escape::escape_html(&mut out, s).expect("writing to a String");
    out
}

/// Escapes `s` as the body of a `<code>` block (quotes stay readable).
pub fn escape_body(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    pulldown_cmark_escape::escape_html_body_text(&mut out, s).expect("writing to a String");
    out
}

/// The text of an HTML fragment without its tags, entities decoded for the common ones.
pub fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_strips() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(strip_tags("<p>a &amp; <b>b</b></p>"), "a & b");
    }
}
