//! `[redirects]`: old URLs of the site that are no article's (an imported blog's section and
//! tag lists, its old feed), each answered by the build with what is at its new URL: a page
//! that redirects there, or, for a feed or another file, the same file (a feed reader keeps
//! reading the old feed URL). Checked here as paths; the build checks that each new URL is
//! published and that no old one is a file it writes.

use std::collections::BTreeMap;
use std::path::Path;

use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// One line of `[redirects]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteRedirect {
    /// The old site path, percent-decoded: `/tags/lập-trình/` (a folder, answered by its
    /// `index.html`) or `/index.xml` (a file).
    pub from: String,
    /// The site path it leads to, percent-decoded (`/tags/lap-trinh/`, `/atom.xml`).
    pub to: String,
    /// Its line in `site.toml`.
    pub place: Place,
}

const HINT: &str =
    "write `\"/old/path/\" = \"/new/path/\"`: both paths of this site, from its root";

/// The lines of `[redirects]`, each checked; all the errors together in `diags`.
pub(super) fn validate(
    raw: BTreeMap<String, String>,
    path: &Path,
    text: &str,
    diags: &mut Diagnostics,
) -> Vec<SiteRedirect> {
    let mut out: Vec<SiteRedirect> = Vec::new();
    for (from, to) in raw {
        let place = place_of(path, text, &from);
        let checked = site_path(&from).and_then(|f| {
            let t = site_path(&to).map_err(|m| format!("its new URL `{to}`: {m}"))?;
            Ok((f, t))
        });
        match checked {
            Ok((from_path, to_path)) => {
                if let Some(twice) = out.iter().find(|r| r.from == from_path) {
                    diags.push(
                        Diagnostic::new(
                            place,
                            format!("[redirects] names the old URL {from_path} twice"),
                        )
                        .with_hint(format!(
                            "keep one of this line and line {}",
                            twice.place.line.unwrap_or(0)
                        )),
                    );
                    continue;
                }
                out.push(SiteRedirect {
                    from: from_path,
                    to: to_path,
                    place,
                });
            }
            Err(m) => diags
                .push(Diagnostic::new(place, format!("[redirects] `{from}`: {m}")).with_hint(HINT)),
        }
    }
    out
}

/// The line of `from`'s key in `site.toml`.
fn place_of(path: &Path, text: &str, from: &str) -> Place {
    let quoted = [format!("\"{from}\""), format!("'{from}'")];
    match text.lines().position(|l| {
        quoted
            .iter()
            .any(|q| l.trim_start().starts_with(q.as_str()))
    }) {
        Some(i) => Place::at(path, i + 1, 1),
        None => Place::file(path),
    }
}

/// A site path, percent-decoded and checked: `/x/` for a folder (`/x` too), `/x.xml` for a
/// file (its last segment has a `.`).
pub fn site_path(raw: &str) -> Result<String, String> {
    if !raw.starts_with('/') || raw.starts_with("//") {
        return Err("it does not start with `/`".into());
    }
    let decoded = percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| "its %-escapes are not UTF-8".to_string())?;
    if let Some(c) = decoded
        .chars()
        .find(|c| matches!(c, '?' | '#' | '\\' | '<' | '>' | '"' | '\'' | '`') || c.is_control())
    {
        return Err(format!(
            "a redirect cannot answer for a path with `{}`",
            c.escape_default()
        ));
    }
    let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(s) = segments.iter().find(|s| s.starts_with('.')) {
        return Err(format!(
            "its segment `{s}` starts with `.` (a folder above, or a hidden file)"
        ));
    }
    let joined = segments.join("/");
    if joined.is_empty() {
        return Ok("/".into());
    }
    let is_file = !decoded.ends_with('/') && segments.last().is_some_and(|s| s.contains('.'));
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
    fn paths_are_decoded_and_checked() {
        assert_eq!(
            site_path("/tags/l%E1%BA%ADp-tr%C3%ACnh/").unwrap(),
            "/tags/lập-trình/"
        );
        assert_eq!(site_path("/posts").unwrap(), "/posts/");
        assert_eq!(site_path("/index.xml").unwrap(), "/index.xml");
        assert!(site_path("/a/../b/").unwrap_err().contains("`..`"));
        assert!(site_path("/%2e%2e/b/").unwrap_err().contains("`..`"));
        assert!(site_path("/<script>/").unwrap_err().contains("`<`"));
        assert!(site_path("tags/x/").unwrap_err().contains("`/`"));
    }
}
