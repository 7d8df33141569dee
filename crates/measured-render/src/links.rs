//! Internal link checking: every relative or root-relative link and image written in an article
//! (in Markdown or in its raw HTML's `href` and `src`) must lead to a file of the output, and
//! its `#fragment` to an id on that page; a URL whose scheme is malformed (`9https://…`) is
//! flagged, and a link to a draft says so. No page of the output may carry the same id twice
//! (a fragment would lead to the first one only).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::markdown::Link;
use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::output::Output;

/// What links are checked against: the output, and the URLs of drafts left out of it.
#[derive(Clone, Copy)]
pub struct Targets<'a> {
    pub output: &'a Output,
    /// Draft articles' URLs and files (empty when drafts are built).
    pub drafts: &'a BTreeMap<String, PathBuf>,
    /// The URLs and files of articles left out for their errors, reported in the same build.
    pub failed: &'a BTreeMap<String, PathBuf>,
    /// The URLs and files of the articles a build of one article leaves out (`--only`): links
    /// to them, anchors included, are taken as they are.
    pub elsewhere: &'a BTreeMap<String, PathBuf>,
}

const HINT: &str = "link to another article as /<slug>/ (or /en/<slug>/), to an asset of the article folder by its file name, to a heading as #<id>";

/// Checks the links of one page (its URL and the links written in it) against the output.
pub fn check(page_url: &str, links: &[Link], targets: Targets<'_>) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for link in links {
        if let Err((why, hint)) = check_one(page_url, &link.dest, targets) {
            diags.push(
                Diagnostic::new(
                    link.place.clone(),
                    format!("broken link `{}`: {why}", link.dest),
                )
                .with_hint(hint),
            );
        }
    }
    diags
}

/// The Markdown a page of the output was made from, where an id it repeats may be written.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a std::path::Path,
    pub body: &'a str,
    /// 1-based line of the file where `body` starts.
    pub body_line: usize,
}

/// Every HTML file of the output whose ids repeat: one diagnostic per page and id, at the line
/// of its source (`source` of an output file) that writes the id, when one does.
pub fn check_ids<'s>(output: &Output, source: &dyn Fn(&str) -> Option<Source<'s>>) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for path in output.html_paths() {
        if let Some(d) = output.with_ids(path, |ids| duplicate_ids(path, ids, source(path))) {
            diags.extend(d);
        }
    }
    diags
}

/// The repeated ids of the page published at `page_url`, written from `source` (incremental
/// rebuilds).
pub fn check_ids_at(page_url: &str, output: &Output, source: Source<'_>) -> Diagnostics {
    output_file(page_url, output)
        .and_then(|file| output.with_ids(&file, |ids| duplicate_ids(&file, ids, Some(source))))
        .unwrap_or_default()
}

/// One diagnostic per id that the output file `path` carries more than once.
fn duplicate_ids(
    path: &str,
    ids: &mut dyn Iterator<Item = &str>,
    source: Option<Source<'_>>,
) -> Diagnostics {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for id in ids {
        *seen.entry(id).or_default() += 1;
    }
    let mut diags = Diagnostics::default();
    for (id, n) in seen.into_iter().filter(|&(_, n)| n > 1) {
        let written = source.and_then(|s| written_id(s, id));
        let place = written.clone().unwrap_or_else(|| Place::file(path));
        let mut d = Diagnostic::new(place, format!("the page /{path} has {n} elements with id `{id}`"))
            .with_hint("a link to #id leads to the first one only: rename the heading ({#other-id}) or the theme's element");
        if let (Some(s), Some(line)) = (source, written.and_then(|p| p.line)) {
            d = d.with_line_of(s.body, line + 1 - s.body_line);
        }
        diags.push(d);
    }
    diags
}

/// Where the body of `source` gives an element the id `id` (`id="…"` in HTML, `{#…}` after a
/// heading): its second such place if it has two, else its one.
fn written_id(source: Source<'_>, id: &str) -> Option<Place> {
    let forms = [
        format!("id=\"{id}\""),
        format!("id='{id}'"),
        format!("{{#{id}}}"),
        format!("{{#{id} "),
    ];
    let mut found: Vec<usize> = forms
        .iter()
        .flat_map(|f| source.body.match_indices(f.as_str()).map(|(i, _)| i))
        .collect();
    found.sort_unstable();
    let at = *found.get(1).or(found.first())?;
    Some(Place::of_offset(
        source.path,
        source.body,
        at,
        source.body_line,
    ))
}

fn check_one(page_url: &str, dest: &str, targets: Targets<'_>) -> Result<(), (String, String)> {
    if let Some(problem) = malformed(dest) {
        return Err((
            format!("it is not a URL: {problem}"),
            "write the full address, e.g. https://example.org/page, or a path on this site".into(),
        ));
    }
    if is_external(dest) {
        return Ok(());
    }
    let output = targets.output;
    let broken = |why: String| (why, HINT.to_string());
    let (path_part, fragment) = match dest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (dest, None),
    };
    // Any UTF-8 path, percent-encoded or not: `%E1%BA%A3nh.png` is the file `ảnh.png`.
    let path_part =
        percent_encoding::percent_decode_str(path_part.split('?').next().unwrap_or_default())
            .decode_utf8_lossy()
            .into_owned();
    let target = if path_part.is_empty() {
        page_url.to_string()
    } else {
        resolve(page_url, &path_part).ok_or_else(|| broken("it leads outside the site".into()))?
    };
    let Some(file) = output_file(&target, output) else {
        let dir = if target.ends_with('/') {
            target.clone()
        } else {
            format!("{target}/")
        };
        if targets.elsewhere.contains_key(&dir) {
            return Ok(());
        }
        return Err(match (targets.drafts.get(&dir), targets.failed.get(&dir)) {
            (Some(path), _) => (
                format!("{target} is a draft ({}), which is not published", path.display()),
                "publish it (remove `draft: true`), or preview with `measured build --drafts` or `measured serve --drafts`".into(),
            ),
            (None, Some(path)) => (
                format!("{target} is the article {}, left out for its errors", path.display()),
                "fix that article's errors, reported in this build too".into(),
            ),
            (None, None) => broken(format!("nothing is published at {target}")),
        });
    };
    if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
        let found = output.with_ids(&file, |ids| {
            let mut ids = ids;
            Iterator::any(&mut ids, |id| id == fragment)
        });
        if found != Some(true) {
            return Err(broken(format!(
                "{target} has no element with id `{fragment}`"
            )));
        }
    }
    Ok(())
}

/// What is wrong with a URL that has a scheme, if anything: a scheme starts with a letter and
/// holds letters, digits, `+`, `-` and `.` (RFC 3986), and a web address has `//` and a host.
fn malformed(dest: &str) -> Option<String> {
    let colon = dest.find(':')?;
    let scheme = &dest[..colon];
    if scheme.contains(['/', '#', '?']) {
        return None;
    }
    let first = scheme.chars().next();
    if !first.is_some_and(|c| c.is_ascii_alphabetic())
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return Some(format!(
            "`{scheme}:` is no scheme (a scheme starts with a letter)"
        ));
    }
    let lower = scheme.to_ascii_lowercase();
    let rest = &dest[colon + 1..];
    if matches!(lower.as_str(), "http" | "https") {
        let host = rest
            .strip_prefix("//")
            .map(|r| r.split(['/', '?', '#']).next().unwrap_or_default());
        if host.is_none_or(str::is_empty) {
            return Some(format!("`{scheme}:` is followed by no `//host`"));
        }
    }
    None
}

fn is_external(dest: &str) -> bool {
    if dest.starts_with("//") {
        return true;
    }
    match dest.find(':') {
        Some(colon) => !dest[..colon].contains(['/', '#', '?']),
        None => false,
    }
}

/// The site path `dest` leads to from `page_url` (a `/`-ending directory URL), normalised.
pub fn resolve(page_url: &str, dest: &str) -> Option<String> {
    let joined = if dest.starts_with('/') {
        dest.to_string()
    } else {
        format!("{page_url}{dest}")
    };
    let trailing = joined.ends_with('/') || joined.ends_with("/.") || joined.ends_with("/..");
    let mut segments: Vec<&str> = Vec::new();
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            s => segments.push(s),
        }
    }
    let mut out = format!("/{}", segments.join("/"));
    if trailing && out != "/" {
        out.push('/');
    }
    Some(out)
}

/// The output file a site path names, if there is one.
fn output_file(target: &str, output: &Output) -> Option<String> {
    let rel = target.trim_start_matches('/');
    let candidates = if rel.is_empty() || rel.ends_with('/') {
        vec![format!("{rel}index.html")]
    } else {
        vec![rel.to_string(), format!("{rel}/index.html")]
    };
    candidates.into_iter().find(|c| output.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output() -> Output {
        let mut o = Output::default();
        o.insert("index.html".into(), b"<h2 id=\"top\">".to_vec());
        o.insert("a/index.html".into(), b"<h2 id=\"ket-noi\">".to_vec());
        o.insert("a/chart.png".into(), vec![]);
        o.insert("en/b/index.html".into(), vec![]);
        o.insert("a/ảnh.png".into(), vec![]);
        o
    }

    fn errors(page: &str, dest: &str) -> Vec<String> {
        let link = Link {
            dest: dest.into(),
            place: Place::at("content/a/index.vi.md", 3, 1),
        };
        let drafts = BTreeMap::from([(
            "/draft/".to_string(),
            PathBuf::from("content/draft/index.vi.md"),
        )]);
        let output = output();
        let targets = Targets {
            output: &output,
            drafts: &drafts,
            failed: &BTreeMap::new(),
            elsewhere: &BTreeMap::new(),
        };
        check(page, &[link], targets)
            .0
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn good_links_pass() {
        for dest in [
            "/a/",
            "/a",
            "../a/#ket-noi",
            "chart.png",
            "#ket-noi",
            "/en/b/",
            "https://example.org/x",
            "mailto:a@b.c",
            "/#top",
            "%E1%BA%A3nh.png",
            "/a/%E1%BA%A3nh.png",
            "ảnh.png",
            "HTTPS://example.org",
            "git+ssh://host/x",
        ] {
            assert!(
                errors("/a/", dest).is_empty(),
                "{dest}: {:?}",
                errors("/a/", dest)
            );
        }
    }

    #[test]
    fn broken_links_are_named() {
        assert_eq!(
            errors("/a/", "/missing/"),
            ["broken link `/missing/`: nothing is published at /missing/"]
        );
        assert_eq!(
            errors("/a/", "#nope"),
            ["broken link `#nope`: /a/ has no element with id `nope`"]
        );
        assert_eq!(
            errors("/a/", "img.png"),
            ["broken link `img.png`: nothing is published at /a/img.png"]
        );
        assert_eq!(
            errors("/a/", "../../../x"),
            ["broken link `../../../x`: it leads outside the site"]
        );
    }

    #[test]
    fn malformed_urls_and_drafts_are_named() {
        assert_eq!(
            errors("/a/", "9https://example.org/"),
            [
                "broken link `9https://example.org/`: it is not a URL: `9https:` is no scheme (a scheme starts with a letter)"
            ]
        );
        assert_eq!(
            errors("/a/", "https:/example.org"),
            [
                "broken link `https:/example.org`: it is not a URL: `https:` is followed by no `//host`"
            ]
        );
        assert_eq!(
            errors("/a/", "/draft/"),
            [
                "broken link `/draft/`: /draft/ is a draft (content/draft/index.vi.md), which is not published"
            ]
        );
        assert_eq!(
            errors("/a/", "../draft"),
            [
                "broken link `../draft`: /draft is a draft (content/draft/index.vi.md), which is not published"
            ]
        );
    }

    #[test]
    fn duplicate_ids_are_named() {
        let mut o = output();
        o.insert(
            "b/index.html".into(),
            b"<nav id=\"series\"></nav><h2 data-id=\"x\" id=\"series\">S</h2><h2 id=\"ok\">"
                .to_vec(),
        );
        let messages: Vec<String> = check_ids(&o, &|_| None)
            .0
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert_eq!(
            messages,
            ["the page /b/index.html has 2 elements with id `series`"]
        );
        let body = "Intro.\n\n## Series {#series}\n";
        let source = Source {
            path: std::path::Path::new("content/b/index.vi.md"),
            body,
            body_line: 5,
        };
        let at = check_ids_at("/b/", &o, source);
        assert_eq!(at.0.len(), 1);
        assert_eq!(at.0[0].place, Place::at("content/b/index.vi.md", 7, 11));
        assert_eq!(at.0[0].snippet.as_deref(), Some("## Series {#series}"));
        assert!(check_ids_at("/a/", &o, source).is_empty());
    }

    #[test]
    fn resolves_relative_paths() {
        assert_eq!(resolve("/en/a/", "../b/").as_deref(), Some("/en/b/"));
        assert_eq!(
            resolve("/a/", "./img/x.png").as_deref(),
            Some("/a/img/x.png")
        );
        assert_eq!(resolve("/a/", "/").as_deref(), Some("/"));
    }
}
