//! Links in a post's body as measured reads them: a link the old site resolved under its base
//! URL or path (`/KhanhLanBlog/images/a.png`, `https://u.github.io/KhanhLanBlog/posts/x/`)
//! made a site path (`/images/a.png`), an old URL of an imported post or page replaced by its
//! new one, and a note for each linked file the source does not have. Fenced code is left
//! alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::Note;

/// What the links of a body are resolved against.
pub struct Site<'a> {
    /// The old base URL without its trailing slash (`https://u.github.io/blog`).
    pub base_url: Option<&'a str>,
    /// Its path (`/blog`), empty at a host's root.
    pub base_path: &'a str,
    /// Old site paths → new ones (`/posts/x/` → `/x/`).
    pub moved: &'a BTreeMap<String, String>,
    /// The static files copied (`/images/a.png`).
    pub statics: &'a BTreeSet<String>,
    /// The bundle's files at their old URLs (`/posts/x/a.png`), made relative later.
    pub bundle: &'a BTreeSet<String>,
    /// The new URL of each content file, by the paths the source links it by (`posts/x.md`,
    /// `posts/x`, Zola's `@/posts/x.md` without its `@/`).
    pub content: &'a BTreeMap<String, String>,
}

/// `body` with its links made site paths; how many changed, and a note (at `file`, the body
/// starting at `first_line`) for each linked file that is not in the source.
pub fn rewrite(
    body: &str,
    site: &Site<'_>,
    file: &Path,
    first_line: usize,
    notes: &mut Vec<Note>,
) -> (String, usize) {
    let mut out = String::with_capacity(body.len());
    let mut changed = 0;
    let mut fence: Option<&str> = None;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        let opens = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (fence, opens) {
            (Some(f), Some(o)) if f == o => fence = None,
            (Some(_), _) => {}
            (None, Some(o)) => fence = Some(o),
            (None, None) => {}
        }
        if fence.is_some() || opens.is_some() {
            out.push_str(line);
            continue;
        }
        let (text, n) = rewrite_line(line, site, &mut |target| {
            let text = if target.starts_with("@/") {
                format!("links `{target}`, a content file the import did not find: fix the link")
            } else {
                format!(
                    "links the file `{target}`, which is not in the source's static files: put it in static/ at that path, or fix the link"
                )
            };
            notes.push(Note::at(file, first_line + i, text));
        });
        changed += n;
        out.push_str(&text);
    }
    (out, changed)
}

/// Where a link's target starts after each of these (Markdown links and images, HTML
/// attributes, reference definitions).
const OPENERS: &[&str] = &["](", "src=\"", "href=\"", "src='", "href='", "]: "];

/// One line with its links rewritten, and how many changed; `missing` is told each linked
/// file the source lacks.
fn rewrite_line(line: &str, site: &Site<'_>, missing: &mut dyn FnMut(&str)) -> (String, usize) {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut changed = 0;
    while let Some((at, opener)) = OPENERS
        .iter()
        .filter_map(|o| rest.find(o).map(|i| (i, *o)))
        .min_by_key(|(i, _)| *i)
    {
        let start = at + opener.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '"' | '\'' | '>'))
            .unwrap_or(rest.len());
        let target = &rest[..end];
        let new = resolve(target, site, missing);
        if new != target {
            changed += 1;
        }
        out.push_str(&new);
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, changed)
}

/// A link's new target: a site path with the old base left out, moved where the post or page
/// is now; `missing` is told when it names a file the source does not have.
fn resolve(target: &str, site: &Site<'_>, missing: &mut dyn FnMut(&str)) -> String {
    if let Some(internal) = target.strip_prefix("@/") {
        return match content_url(internal, site.content) {
            Some(url) => url,
            None => {
                missing(target);
                target.to_string()
            }
        };
    }
    let Some(path) = site_path(target, site) else {
        return target.to_string();
    };
    let split = path.find(['#', '?']).unwrap_or(path.len());
    let (path, tail) = path.split_at(split);
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8_lossy()
        .into_owned();
    let slashed = format!("{}/", decoded.trim_end_matches('/'));
    if site.bundle.contains(&decoded) {
        // The bundle's own file: made relative to the article afterwards.
        return format!("{path}{tail}");
    }
    if let Some(new) = site
        .moved
        .get(&decoded)
        .or_else(|| site.moved.get(&slashed))
    {
        return format!("{new}{tail}");
    }
    let last = decoded.rsplit('/').next().unwrap_or_default();
    let is_file = last.contains('.') && !last.ends_with(".html") && !last.ends_with(".htm");
    if is_file && !site.statics.contains(&decoded) && !site.bundle.contains(&decoded) {
        missing(&decoded);
    }
    format!("{path}{tail}")
}

/// The new URL of the content file `path` (`posts/x.md#part`, `/posts/x`), its fragment kept.
fn content_url(path: &str, content: &BTreeMap<String, String>) -> Option<String> {
    let (path, fragment) = match path.split_once('#') {
        Some((p, f)) => (p, format!("#{f}")),
        None => (path, String::new()),
    };
    let path = path.trim_start_matches('/').trim_end_matches('/');
    let url = content.get(path).or_else(|| {
        let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
        content.get(stem)
    })?;
    Some(format!("{url}{fragment}"))
}

/// `body` with each line outside fenced code (and Jekyll's highlight blocks) put through
/// `f`, and the sum of what `f` counted.
fn outside_fences(body: &str, mut f: impl FnMut(&str) -> (String, usize)) -> (String, usize) {
    let mut out = String::with_capacity(body.len());
    let mut count = 0;
    let mut fence: Option<&str> = None;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let opens = ["```", "~~~", "{% highlight", "{% endhighlight"]
            .into_iter()
            .find(|f| trimmed.starts_with(f));
        match (fence, opens) {
            (Some("{% highlight"), Some("{% endhighlight")) => fence = None,
            (Some(f), Some(o)) if f == o => fence = None,
            (None, Some(o)) if o != "{% endhighlight" => fence = Some(o),
            _ => {}
        }
        if fence.is_some() || opens.is_some() {
            out.push_str(line);
            continue;
        }
        let (text, n) = f(line);
        out.push_str(&text);
        count += n;
    }
    (out, count)
}

/// `line` with each `open … close` span that `resolve` gives a URL for replaced by it.
fn replace_spans(
    line: &str,
    spans: &[(&str, &str)],
    resolve: &dyn Fn(&str) -> Option<String>,
) -> (String, usize) {
    let mut out = String::with_capacity(line.len());
    let mut count = 0;
    let mut rest = line;
    while let Some((start, open, close)) = spans
        .iter()
        .filter_map(|(o, c)| rest.find(o).map(|i| (i, *o, *c)))
        .min_by_key(|(i, _, _)| *i)
    {
        let Some(len) = rest[start..].find(close).filter(|&l| l >= open.len()) else {
            break;
        };
        let inner = rest[start + open.len()..start + len].trim();
        let end = start + len + close.len();
        match resolve(inner) {
            Some(url) => {
                out.push_str(&rest[..start]);
                out.push_str(&url);
                count += 1;
            }
            None => out.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, count)
}

/// `body` with Hugo's `{{< ref "posts/x.md" >}}` and `{{< relref … >}}` replaced by the new
/// URL of the file they name (outside fenced code), and how many; one naming no file imported
/// is left, for [`super::body::inert`] to report.
pub fn refs(body: &str, content: &BTreeMap<String, String>) -> (String, usize) {
    let resolve = |inner: &str| {
        let arg = inner
            .strip_prefix("relref ")
            .or_else(|| inner.strip_prefix("ref "))?;
        content_url(arg.trim().trim_matches(['"', '\'']), content)
    };
    outside_fences(body, |line| {
        replace_spans(line, &[("{{<", ">}}"), ("{{%", "%}}")], &resolve)
    })
}

/// `body` with the Liquid that names the site's own URLs (`{{ site.baseurl }}`,
/// `{{ "/x/" | relative_url }}`, `{% post_url 2016-01-08-x %}`, `{% link about.md %}`) made
/// the site paths it stands for, and how many; other Liquid is left for
/// [`super::body::inert`] to report.
pub fn liquid(body: &str, content: &BTreeMap<String, String>) -> (String, usize) {
    let resolve = |inner: &str| {
        if let Some(name) = inner.strip_prefix("post_url ") {
            return content_url(&format!("_posts/{}.md", name.trim()), content);
        }
        if let Some(path) = inner.strip_prefix("link ") {
            return content_url(path.trim(), content);
        }
        if matches!(
            inner,
            "site.baseurl" | "site.url" | "site.url }}{{ site.baseurl"
        ) {
            return Some(String::new());
        }
        let (quoted, filter) = inner.split_once('|')?;
        let path = quoted.trim().trim_matches(['"', '\'']);
        (matches!(filter.trim(), "relative_url" | "absolute_url") && path.starts_with('/'))
            .then(|| path.to_string())
    };
    outside_fences(body, |line| {
        replace_spans(line, &[("{{", "}}"), ("{%", "%}")], &resolve)
    })
}

/// The target as a path of the old site (`/images/a.png`), if it is one: a full URL of the
/// old base, or a path from the root, its base path left out.
fn site_path(target: &str, site: &Site<'_>) -> Option<String> {
    let path = match site.base_url.and_then(|b| strip_base(target, b)) {
        Some(rest) => format!("/{}", rest.trim_start_matches('/')),
        None if target.starts_with('/') && !target.starts_with("//") => target.to_string(),
        None => return None,
    };
    let base = site.base_path;
    if base.is_empty() || base == "/" {
        return Some(path);
    }
    Some(match path.strip_prefix(base) {
        Some(rest) if rest.is_empty() || rest.starts_with(['/', '#', '?']) => {
            format!("/{}", rest.trim_start_matches('/'))
        }
        _ => path,
    })
}

/// `target` without the old base URL (either scheme), if it starts with it.
fn strip_base<'t>(target: &'t str, base: &str) -> Option<&'t str> {
    let host = base.split_once("://").map_or(base, |(_, h)| h);
    let host = host.split('/').next().unwrap_or(host);
    ["https://", "http://", "//"].iter().find_map(|scheme| {
        let rest = target.strip_prefix(scheme)?.strip_prefix(host)?;
        (rest.is_empty() || rest.starts_with(['/', '#', '?'])).then_some(rest)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_and_internal_links_lead_to_the_new_urls() {
        let content = BTreeMap::from([
            ("posts/x.md".to_string(), "/x/".to_string()),
            ("posts/x".to_string(), "/x/".to_string()),
        ]);
        let (text, n) = liquid(
            "[a]({{ site.baseurl }}/x/) [b]({% post_url 2016-01-08-x %}) {{ \"/c/\" | relative_url }} {{ page.title }}\n{% highlight liquid %}\n{{ site.baseurl }}\n{% endhighlight %}\n",
            &BTreeMap::from([("_posts/2016-01-08-x.md".to_string(), "/x/".to_string())]),
        );
        assert_eq!(
            text,
            "[a](/x/) [b](/x/) /c/ {{ page.title }}\n{% highlight liquid %}\n{{ site.baseurl }}\n{% endhighlight %}\n"
        );
        assert_eq!(n, 3);
        let body = "[a]({{< ref \"posts/x.md#part\" >}}) [b]({{< relref \"/posts/x\" >}}) [c]({{< ref \"gone.md\" >}})\n```\n{{< ref \"posts/x.md\" >}}\n```\n";
        let (text, n) = refs(body, &content);
        assert_eq!(
            text,
            "[a](/x/#part) [b](/x/) [c]({{< ref \"gone.md\" >}})\n```\n{{< ref \"posts/x.md\" >}}\n```\n"
        );
        assert_eq!(n, 2);
        let site = Site {
            base_url: None,
            base_path: "",
            moved: &BTreeMap::new(),
            statics: &BTreeSet::new(),
            bundle: &BTreeSet::new(),
            content: &content,
        };
        let mut notes = Vec::new();
        let (text, _) = rewrite(
            "[z](@/posts/x.md#h) [y](@/nope.md)\n",
            &site,
            Path::new("p.md"),
            3,
            &mut notes,
        );
        assert_eq!(text, "[z](/x/#h) [y](@/nope.md)\n");
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn links_under_the_base_path_become_site_paths_and_old_urls_new_ones() {
        let moved = BTreeMap::from([("/posts/x/".to_string(), "/x/".to_string())]);
        let statics = BTreeSet::from(["/images/a.png".to_string(), "/files/b c.pdf".to_string()]);
        let site = Site {
            base_url: Some("https://u.github.io/Blog"),
            base_path: "/Blog",
            moved: &moved,
            statics: &statics,
            bundle: &BTreeSet::new(),
            content: &BTreeMap::new(),
        };
        let body = "![a](/Blog/images/a.png) [x](https://u.github.io/Blog/posts/x/#h)\n\
            ```\n![a](/Blog/images/a.png)\n```\n\
            <a href=\"/Blog/files/b%20c.pdf\">b</a> [gone](/Blog/images/gone.jpg) [out](https://other.org/Blog/a.png)\n";
        let mut notes = Vec::new();
        let (text, n) = rewrite(body, &site, Path::new("p.md"), 10, &mut notes);
        assert_eq!(
            text,
            "![a](/images/a.png) [x](/x/#h)\n```\n![a](/Blog/images/a.png)\n```\n\
             <a href=\"/files/b%20c.pdf\">b</a> [gone](/images/gone.jpg) [out](https://other.org/Blog/a.png)\n"
        );
        assert_eq!(n, 4);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].place, "p.md:14");
        assert!(
            notes[0].text.contains("`/images/gone.jpg`"),
            "{}",
            notes[0].text
        );
    }
}
