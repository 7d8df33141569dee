//! URL segments: what a folder name or a `slug:` may be. A segment is refused, never
//! percent-encoded: an address with `%20` or `%3F` in it is one nobody types or shares, and an
//! encoded `%2f` is read as `/` by some servers and not by others. The error suggests a slug.

/// What a segment may hold, as the errors say it.
pub const ALLOWED: &str = "ASCII letters, digits, `-`, `_` and `.` (not first)";

/// What is wrong with `s` as one segment of a page's URL, if anything.
/// The longest URL segment, in bytes: a segment is written as a folder's name, which most
/// file systems cap at 255 bytes.
pub const MAX_SEGMENT: usize = 255;

pub fn segment_problem(s: &str) -> Option<String> {
    if s.is_empty() {
        return Some("it is empty".into());
    }
    if s == "." || s == ".." {
        return Some(format!("`{s}` names a folder, not a page"));
    }
    if s.starts_with('.') {
        return Some("it starts with `.`, which hides a file".into());
    }
    let Some(bad) = s
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    else {
        return (s.len() > MAX_SEGMENT).then(|| {
            format!(
                "it has {} characters, and a URL segment is written as a folder's name, which may have at most {MAX_SEGMENT}",
                s.len()
            )
        });
    };
    Some(match bad {
        ' ' => "it holds a space".into(),
        c if c.is_whitespace() || c.is_control() => {
            format!("it holds the character U+{:04X}", u32::from(c))
        }
        c => format!("it holds `{c}`"),
    })
}

/// A segment made from `s` that [`segment_problem`] accepts: lowercase ASCII words joined by
/// `-`, diacritics removed (`Kết nối?` → `ket-noi`).
pub fn suggestion(s: &str) -> String {
    let mut slug = slug::slugify(s);
    if slug.len() > MAX_SEGMENT {
        // All ASCII: any byte is a character boundary.
        slug.truncate(MAX_SEGMENT);
        slug.truncate(slug.trim_end_matches('-').len());
    }
    if slug.is_empty() {
        "my-article".into()
    } else {
        slug
    }
}

/// What an alias may be, as the errors say it.
pub const ALIAS_HINT: &str = "an alias is the old URL's path on this site, e.g. `aliases: [/posts/old-name/]` (or `/2016/01/old-name.html`)";

/// The site path an `aliases:` entry names: `/posts/x/` for a folder (its `index.html` is
/// written), `/2016/x.html` for a file. A full URL of this path is accepted as its path. The
/// path is percent-decoded and put in Unicode's composed form (NFC) before it is checked, as a
/// server maps a request to a file: `/caf%C3%A9/` is the folder `café/`, the same URL as
/// `/café/`, and `/%2e%2e/` is `..`, refused.
pub fn alias_path(alias: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization;
    let path = match alias.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => alias.trim(),
    };
    let lower = path.to_ascii_lowercase();
    if let Some(encoded) = ["%2f", "%5c"].iter().find(|e| lower.contains(*e)) {
        return Err(format!(
            "`{}` is an encoded `{}`, which servers read differently",
            encoded.to_ascii_uppercase(),
            if *encoded == "%2f" { '/' } else { '\\' }
        ));
    }
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .map_err(|_| "its percent-encoding is not UTF-8 text".to_string())?;
    let path: String = decoded.nfc().collect();
    if let Some(c) = path
        .chars()
        .find(|c| matches!(c, '?' | '#' | '\\' | '%') || c.is_control())
    {
        return Err(format!(
            "a redirect page cannot answer for a path with `{}`",
            c.escape_default()
        ));
    }
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.is_empty() {
        return Err("it is the home page".into());
    }
    if let Some(s) = segments.iter().find(|s| s.starts_with('.')) {
        return Err(match *s {
            "." | ".." => format!("its segment `{s}` names a folder, not a page"),
            _ => format!("its segment `{s}` starts with `.`, which hides a file"),
        });
    }
    let joined = segments.join("/");
    let is_file = !path.ends_with('/')
        && segments
            .last()
            .is_some_and(|s| s.ends_with(".html") || s.ends_with(".htm"));
    Ok(if is_file {
        format!("/{joined}")
    } else {
        format!("/{joined}/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_that_break_urls_are_refused_with_the_reason() {
        let cases = [
            ("Has Space", "it holds a space"),
            ("a?q", "it holds `?`"),
            ("a#b", "it holds `#`"),
            ("a%2fb", "it holds `%`"),
            ("a\\b", "it holds `\\`"),
            ("a:b", "it holds `:`"),
            ("a/b", "it holds `/`"),
            ("kết-nối", "it holds `ế`"),
            ("a\tb", "it holds the character U+0009"),
            ("..", "`..` names a folder, not a page"),
            (".", "`.` names a folder, not a page"),
            (".hidden", "it starts with `.`, which hides a file"),
            ("", "it is empty"),
            (
                &"a".repeat(256),
                "it has 256 characters, and a URL segment is written as a folder's name, which may have at most 255",
            ),
        ];
        for (segment, problem) in cases {
            assert_eq!(
                segment_problem(segment).as_deref(),
                Some(problem),
                "{segment:?}"
            );
        }
    }

    #[test]
    fn aliases_become_site_paths() {
        assert_eq!(alias_path("/posts/iot/x/").unwrap(), "/posts/iot/x/");
        assert_eq!(alias_path("posts/x").unwrap(), "/posts/x/");
        assert_eq!(alias_path("/2016/01/x.html").unwrap(), "/2016/01/x.html");
        assert_eq!(
            alias_path("https://old.example.org/blog/x/").unwrap(),
            "/blog/x/"
        );
        assert_eq!(alias_path("/bài-viết/cũ/").unwrap(), "/bài-viết/cũ/");
        assert_eq!(alias_path("/").unwrap_err(), "it is the home page");
        assert!(alias_path("/a/?p=1").unwrap_err().contains("`?`"));
        assert!(alias_path("/../x/").unwrap_err().contains("`..`"));
    }

    #[test]
    fn aliases_are_decoded_and_composed_before_they_are_checked() {
        assert_eq!(alias_path("/caf%C3%A9/").unwrap(), "/café/");
        assert_eq!(alias_path("/cafe\u{301}/").unwrap(), "/café/");
        assert_eq!(alias_path("/a%20b.html").unwrap(), "/a b.html");
        for (alias, why) in [
            (
                "/%2e%2e/etc/",
                "its segment `..` names a folder, not a page",
            ),
            ("/%2E/x/", "its segment `.` names a folder, not a page"),
            (
                "/a%2fb/",
                "`%2F` is an encoded `/`, which servers read differently",
            ),
            (
                "/a%5Cb/",
                "`%5C` is an encoded `\\`, which servers read differently",
            ),
            (
                "/a%3Fb/",
                "a redirect page cannot answer for a path with `?`",
            ),
            (
                "/a%00b/",
                "a redirect page cannot answer for a path with `\\u{0}`",
            ),
            ("/a%FFb/", "its percent-encoding is not UTF-8 text"),
            (
                "/a%252e/",
                "a redirect page cannot answer for a path with `%`",
            ),
        ] {
            assert_eq!(alias_path(alias).unwrap_err(), why, "{alias}");
        }
    }

    #[test]
    fn plain_segments_pass_and_suggestions_pass() {
        for ok in [
            "tcp-handshake",
            "http1_vs_http2",
            "v2.1",
            "Readme",
            "style.css",
        ] {
            assert_eq!(segment_problem(ok), None, "{ok}");
        }
        assert_eq!(suggestion("Kết nối?"), "ket-noi");
        assert_eq!(suggestion(".."), "my-article");
        assert_eq!(segment_problem(&suggestion("a%2fb \\ c")), None);
        assert_eq!(segment_problem(&suggestion(&"ab ".repeat(200))), None);
        assert_eq!(segment_problem(&"a".repeat(255)), None);
    }
}
