//! Internal link checking: every relative or root-relative link and image written in an article
//! must lead to a file of the output, and its `#fragment` to an id on that page.

use crate::diag::{Diagnostic, Diagnostics};
use crate::markdown::Link;
use crate::output::Output;

/// Checks the links of one page (its URL and the links written in it) against the output.
pub fn check(page_url: &str, links: &[Link], output: &Output) -> Diagnostics {
    let mut diags = Diagnostics::default();
    for link in links {
        if let Err(why) = check_one(page_url, &link.dest, output) {
            diags.push(Diagnostic::new(link.place.clone(), format!("broken link `{}`: {why}", link.dest)).with_hint(
                "link to another article as /<slug>/ (or /en/<slug>/), to an asset of the article folder by its file name, to a heading as #<id>",
            ));
        }
    }
    diags
}

fn check_one(page_url: &str, dest: &str, output: &Output) -> Result<(), String> {
    if is_external(dest) {
        return Ok(());
    }
    let (path_part, fragment) = match dest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (dest, None),
    };
    let path_part = path_part
        .split('?')
        .next()
        .unwrap_or_default()
        .replace("%20", " ");
    let target = if path_part.is_empty() {
        page_url.to_string()
    } else {
        resolve(page_url, &path_part).ok_or_else(|| "it leads outside the site".to_string())?
    };
    let file =
        output_file(&target, output).ok_or_else(|| format!("nothing is published at {target}"))?;
    if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
        let html = output.text(&file).unwrap_or_default();
        if !html.contains(&format!("id=\"{fragment}\"")) {
            return Err(format!("{target} has no element with id `{fragment}`"));
        }
    }
    Ok(())
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
    candidates.into_iter().find(|c| output.get(c).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Place;

    fn output() -> Output {
        let mut o = Output::default();
        o.insert("index.html".into(), b"<h2 id=\"top\">".to_vec());
        o.insert("a/index.html".into(), b"<h2 id=\"ket-noi\">".to_vec());
        o.insert("a/chart.png".into(), vec![]);
        o.insert("en/b/index.html".into(), vec![]);
        o
    }

    fn errors(page: &str, dest: &str) -> Vec<String> {
        let link = Link {
            dest: dest.into(),
            place: Place::at("content/a/index.vi.md", 3, 1),
        };
        check(page, &[link], &output())
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
    fn resolves_relative_paths() {
        assert_eq!(resolve("/en/a/", "../b/").as_deref(), Some("/en/b/"));
        assert_eq!(
            resolve("/a/", "./img/x.png").as_deref(),
            Some("/a/img/x.png")
        );
        assert_eq!(resolve("/a/", "/").as_deref(), Some("/"));
    }
}
