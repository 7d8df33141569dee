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

/// `value` as JSON to embed in a `<script>` element (JSON-LD, data for scripts): `<`, `>` and
/// `&` are written `\u003c`, `\u003e` and `\u0026`, which JSON reads back as the same
/// characters, so no string in it can end the script (`</script>`), start a comment that
/// swallows the page (`<!--<script>`), or a CDATA section (`]]>`). U+2028 and U+2029 too, which
/// end a line in older JavaScript.
pub fn script_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("a JSON value serialises");
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
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

    #[test]
    fn script_json_has_no_markup_characters_and_reads_back_the_same() {
        let hostile = "<!--<script> </script> ]]> a & b \u{2028}";
        let json = script_json(&serde_json::json!({ "headline": hostile }));
        assert!(!json.contains(['<', '>', '&', '\u{2028}']), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["headline"], hostile);
    }
}
