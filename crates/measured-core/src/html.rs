//! Small HTML helpers: escaping text and attributes, stripping tags for plain-text summaries,
//! and the characters a page may carry (a program's terminal escapes removed).

use std::borrow::Cow;

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

/// Whether a link's target runs a script when followed (`javascript:`, `vbscript:`, `data:`),
/// read as a browser reads it: case aside, with the spaces and controls it ignores removed.
pub fn is_script_url(url: &str) -> bool {
    let scheme: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .take_while(|&c| c != ':')
        .collect::<String>()
        .to_ascii_lowercase();
    let has_colon = url.contains(':');
    has_colon && matches!(scheme.as_str(), "javascript" | "vbscript" | "data")
}

/// Whether `c` is a character no page or feed may carry: XML forbids the C0 controls but tab,
/// line feed and carriage return, and U+FFFE and U+FFFF; HTML reports DEL and the C1 controls.
pub fn forbidden_char(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b' | '\x0c' | '\x0e'..='\x1f' | '\x7f'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
}

/// A program's output as a page may show it: ANSI escape sequences (colours, cursor moves,
/// titles) removed, a carriage return that redraws a line made a line break, and every other
/// character [`forbidden_char`] names dropped.
pub fn terminal_text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| forbidden_char(c) || c == '\r') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => skip_escape(&mut chars),
            // The C1 form of ESC [.
            '\u{9b}' => skip_csi(&mut chars),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => out.push('\n'),
            c if forbidden_char(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Skips what follows an ESC: a control sequence (`[`…), a string (`]`, `P`, `X`, `^`, `_`, up
/// to BEL or ESC `\\`), or one more character.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' || (c == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                    break;
                }
            }
        }
        // An intermediate byte, then the final one (`ESC ( B`).
        Some(' '..='/') => {
            chars.next();
        }
        _ => {}
    }
}

/// Skips a control sequence's parameters and intermediates up to its final byte (`@`…`~`).
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) || !(' '..='?').contains(&c) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_urls_are_known_however_written() {
        for url in [
            "javascript:alert(1)",
            " JavaScript:x",
            "java\tscript:x",
            "vbscript:x",
            "data:text/html,<b>",
        ] {
            assert!(is_script_url(url), "{url}");
        }
        for url in [
            "/a/",
            "#x",
            "https://e.org/javascript:",
            "mailto:a@b",
            "javascript",
        ] {
            assert!(!is_script_url(url), "{url}");
        }
    }

    #[test]
    fn terminal_escapes_and_controls_are_removed_from_output() {
        assert_eq!(terminal_text("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(terminal_text("plain"), Cow::Borrowed(_)));
        assert_eq!(
            terminal_text("\u{1b}[1;31mred\u{1b}[0m ok\u{1b}]0;title\u{7} \u{1b}(Bx\u{8}\0\u{c}y"),
            "red ok xy"
        );
        assert_eq!(terminal_text("10%\r20%\r\nend\r\n"), "10%\n20%\nend\n");
        assert_eq!(terminal_text("a\u{9b}2Kb\u{1b}]8;;u\u{1b}\\c"), "abc");
        assert!(
            !terminal_text("\u{7f}\u{85}\u{fffe}x")
                .chars()
                .any(forbidden_char)
        );
    }

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
