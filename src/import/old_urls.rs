//! The URLs a post had under its old generator, each kept as an alias: Hugo's
//! `/<section path>/<slug>/` (or `url:`), Zola's `/<section>/<slug>/` (or `path:`), Jekyll's
//! `/YYYY/MM/DD/slug.html` (or `permalink:`), under `/<lang>/` for a translation.

use super::front::Converted;
use super::source::Post;
use super::{Generator, Note};
use crate::lang::Lang;

/// The post's old URLs: [`old_url`], and for a Jekyll post with categories and no
/// `permalink:`, also Jekyll's default `/<categories>/YYYY/MM/DD/title.html`.
pub fn old_urls(
    generator: Generator,
    post: &Post,
    conv: &Converted,
    default: &Lang,
) -> Vec<String> {
    let mut urls: Vec<String> = old_url(generator, post, conv, default)
        .into_iter()
        .collect();
    if generator == Generator::Jekyll && conv.url.is_none() && !conv.categories.is_empty() {
        let plain = urls.first().cloned().unwrap_or_default();
        urls.push(format!("/{}{plain}", conv.categories.join("/")));
    }
    urls
}

/// The post's old URL, when it can be computed (a Jekyll `permalink:` with placeholders
/// cannot, and is reported by [`permalink_note`]).
pub fn old_url(
    generator: Generator,
    post: &Post,
    conv: &Converted,
    default: &Lang,
) -> Option<String> {
    if let Some(url) = &conv.url {
        let url = expand(url, post, conv);
        if url.contains(':') && !url.contains("://") {
            return None;
        }
        return Some(with_slashes(&url));
    }
    let prefix = match (&post.lang, post.at_root) {
        (_, true) => String::new(),
        (Some(l), false) => format!("/{}", l.code()),
        (None, false) => format!("/{}", default.code()),
    };
    let name = conv.slug.clone().unwrap_or_else(|| post.stem.clone());
    Some(match generator {
        Generator::Hugo => {
            let path = join(&post.section, &name).to_lowercase().replace(' ', "-");
            format!("{prefix}/{path}/")
        }
        Generator::Zola => {
            let section: Vec<String> = post
                .section
                .split('/')
                .filter(|s| !s.is_empty())
                .map(slug::slugify)
                .collect();
            let path = join(&section.join("/"), &slug::slugify(&name));
            format!("{prefix}/{path}/")
        }
        Generator::Jekyll => {
            let date = post.file_date.clone().unwrap_or_default().replace('-', "/");
            format!("{prefix}/{date}/{name}.html")
        }
    })
}

/// Jekyll's placeholders in a `permalink:` (`/blog/:year/:title/`) filled in: `:year`,
/// `:month`, `:day` (from the file name), `:title` and `:slug`, `:categories`.
fn expand(url: &str, post: &Post, conv: &Converted) -> String {
    let date = post.file_date.clone().unwrap_or_default();
    let part = |i: usize| date.split('-').nth(i).unwrap_or_default().to_string();
    let name = conv.slug.clone().unwrap_or_else(|| post.stem.clone());
    [
        (":categories", conv.categories.join("/")),
        (":year", part(0)),
        (":month", part(1)),
        (":day", part(2)),
        (":title", name.clone()),
        (":slug", name),
    ]
    .iter()
    .filter(|_| !date.is_empty())
    .fold(url.to_string(), |u, (k, v)| u.replace(k, v))
    .replace("//", "/")
}

/// A note for a `permalink:` (or `url:`) with placeholders the import does not expand.
pub fn permalink_note(file: &std::path::Path, post: &Post, conv: &Converted) -> Option<Note> {
    let url = expand(conv.url.as_ref()?, post, conv);
    (url.contains(':') && !url.contains("://")).then(|| {
        Note::at(
            file,
            conv.url_line,
            format!("`{url}` has placeholders: add the post's old URL to `aliases:` by hand"),
        )
    })
}

/// The old folders a bundle's files were served from (the old URL without its file name),
/// so that links written to them absolutely can be made relative.
pub fn old_dirs(
    generator: Generator,
    post: &Post,
    conv: &Converted,
    default: &Lang,
) -> Vec<String> {
    let mut dirs: Vec<String> = old_url(generator, post, conv, default)
        .into_iter()
        .collect();
    dirs.extend(conv.aliases.iter().map(|a| with_slashes(a)));
    dirs.into_iter()
        .map(|d| match d.rfind('/') {
            Some(i) => d[..=i].to_string(),
            None => d,
        })
        .collect()
}

fn join(section: &str, name: &str) -> String {
    if section.is_empty() {
        name.to_string()
    } else {
        format!("{section}/{name}")
    }
}

/// `posts/x` → `/posts/x/`; `/2016/x.html` kept.
fn with_slashes(url: &str) -> String {
    let path = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => url.trim(),
    };
    let mut out = format!("/{}", path.trim_start_matches('/'));
    if !out.ends_with('/') && !out.ends_with(".html") {
        out.push('/');
    }
    out
}

/// `aliases` without repeats and without `new_url`, the article's URL now.
pub fn distinct(aliases: Vec<String>, new_url: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in aliases {
        let a = with_slashes(&a);
        if a != new_url && !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_site_paths_without_the_new_url() {
        let a = vec![
            "posts/x".into(),
            "/x/".into(),
            "/posts/x/".into(),
            "/2016/01/08/x.html".into(),
        ];
        assert_eq!(distinct(a, "/x/"), ["/posts/x/", "/2016/01/08/x.html"]);
    }
}
