//! The Atom feeds (`atom.xml`): a language's newest articles, and each tag's (at
//! `<tag page>atom.xml`, linked from the tag page), with their whole bodies, links made
//! absolute.

use serde::Serialize;

use measured_content::config::SiteConfig;
use measured_content::site::Tag;
use measured_core::lang::Lang;

use super::RenderInputs;
use super::link;

/// The context of `atom.xml`.
#[derive(Serialize)]
pub(super) struct Feed<'a> {
    title: String,
    subtitle: &'a str,
    lang: &'a str,
    author: &'a str,
    home: String,
    self_url: String,
    updated: String,
    entries: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    title: String,
    url: String,
    published: String,
    updated: String,
    summary: String,
    content: String,
    tags: Vec<String>,
}

/// The articles a language's feed carries: its newest `feed_limit` (`own`: newest first).
pub(super) fn feed_pages<'p>(config: &SiteConfig, own: &'p [usize]) -> &'p [usize] {
    &own[..own.len().min(config.feed_limit)]
}

/// The articles of `lang`, newest first.
pub(super) fn own<'i>(inputs: &'i RenderInputs, lang: &Lang) -> &'i [usize] {
    inputs.site.by_lang.get(lang).map_or(&[], Vec::as_slice)
}

/// The output file of a language's feed.
pub(super) fn path(config: &SiteConfig, lang: &Lang) -> String {
    format!("{}{FILE}", config.lang_prefix(lang).trim_start_matches('/'))
}

/// A feed's file name, in the folder of the listing it follows.
pub(super) const FILE: &str = measured_content::site::reserved::FEED;

/// The output file of the feed of `tag`, beside its page: `tags/mang/atom.xml`.
pub(super) fn tag_path(tag: &Tag) -> String {
    format!("{}{FILE}", tag.url.trim_start_matches('/'))
}

/// The feed of `tag`, a tag of `lang`: its newest `feed_limit` articles.
pub(super) fn tag_context<'i>(inputs: &'i RenderInputs, lang: &'i Lang, tag: &Tag) -> Feed<'i> {
    let config = &inputs.config;
    let pages = feed_pages(config, &tag.pages);
    let mut feed = context(inputs, lang, pages);
    feed.title = format!(
        "{} · {}",
        inputs.strings[lang].fill("tag_title", &[("tag", &tag.name)]),
        feed.title
    );
    feed.home = config.absolute(&tag.url);
    feed.self_url = config.absolute(&format!("{}{FILE}", tag.url));
    feed
}

/// The feed of `lang`, carrying `pages`.
pub(super) fn context<'i>(inputs: &'i RenderInputs, lang: &'i Lang, pages: &[usize]) -> Feed<'i> {
    let config = &inputs.config;
    let site = &inputs.site;
    let rfc3339 = |d: measured_content::content::Moment| d.rfc3339();
    let entries: Vec<Entry> = pages
        .iter()
        .map(|&i| {
            let p = &site.pages[i];
            Entry {
                title: p.doc.front.title.clone(),
                url: config.absolute(&p.url),
                published: rfc3339(p.doc.front.date),
                updated: rfc3339(p.doc.front.updated.unwrap_or(p.doc.front.date)),
                summary: link::description(inputs, i),
                content: absolutize(&inputs.bodies[i].html, &config.base_url, &p.url),
                tags: p.doc.front.tags.clone(),
            }
        })
        .collect();
    let updated = pages
        .iter()
        .map(|&i| {
            let front = &site.pages[i].doc.front;
            front.updated.unwrap_or(front.date)
        })
        .max()
        .map_or_else(|| "1970-01-01T00:00:00Z".to_string(), rfc3339);
    let prefix = config.lang_prefix(lang);
    let lc = config.language(lang);
    Feed {
        title: lc.title.clone(),
        subtitle: &lc.description,
        lang: lang.code(),
        author: if config.author.is_empty() {
            &lc.title
        } else {
            &config.author
        },
        home: config.absolute(&prefix),
        self_url: config.absolute(&format!("{prefix}{FILE}")),
        updated,
        entries,
    }
}

/// Makes root-relative and page-relative `href`/`src` in `html` absolute (for feeds).
fn absolutize(html: &str, base_url: &str, page_url: &str) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut done = 0;
    let mut from = 0;
    // One pass over `="`, the end of every quoted attribute name: `href="` and `src="` are
    // the ones to rewrite.
    while let Some(j) = html[from..].find('=') {
        let start = from + j + 2;
        from = from + j + 1;
        let name = &html[..start - 2];
        if !html[from..].starts_with('"') || !(name.ends_with("href") || name.ends_with("src")) {
            continue;
        }
        let end = html[start..].find('"').map_or(html.len(), |k| start + k);
        let url = &html[start..end];
        out.push_str(&html[done..start]);
        if url.starts_with('/') && !url.starts_with("//") {
            out.push_str(base_url);
        } else if !url.contains(':') && !url.starts_with('#') && !url.starts_with("//") {
            out.push_str(base_url);
            out.push_str(page_url);
        }
        done = start;
        from = end;
    }
    out.push_str(&html[done..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::{inputs, page};

    #[test]
    fn a_feed_carries_whole_bodies_newest_first_with_absolute_links() {
        let inputs = inputs();
        let vi = inputs.config.default_lang.clone();
        let feed = context(&inputs, &vi, own(&inputs, &vi));
        let urls: Vec<&str> = feed.entries.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://e.org/dns/",
                "https://e.org/only-vi/",
                "https://e.org/tcp/"
            ]
        );
        assert_eq!(feed.updated, "2026-02-01T00:00:00Z", "the latest update");
        assert_eq!((feed.author, feed.title.as_str()), ("Tác giả", "Đo thật"));
        assert_eq!(feed.self_url, "https://e.org/atom.xml");
        let dns = &feed.entries[0];
        assert_eq!(
            dns.summary, "Tra tên miền.",
            "the description the author wrote"
        );
        assert!(
            dns.content.contains("src=\"https://e.org/dns/a.png\"")
                && dns.content.contains("href=\"https://e.org/x/\""),
            "{}",
            dns.content
        );
        let en = inputs.config.lang("en").unwrap().clone();
        let tcp = page(&inputs, "tcp", "en");
        let feed = context(&inputs, &en, &[tcp]);
        assert_eq!(feed.home, "https://e.org/en/");
        assert_eq!(feed.updated, "2026-01-02T00:00:00Z");
        assert_eq!(path(&inputs.config, &en), "en/atom.xml");
    }

    #[test]
    fn feed_links_become_absolute() {
        let html = r##"<a class="l" href="/x/">x</a><img title="/t" src="i.png"><a href="#f">f</a><a href="https://o.org/">o</a><b data-u="/u">"##;
        assert_eq!(
            absolutize(html, "https://e.org", "/en/p/"),
            r##"<a class="l" href="https://e.org/x/">x</a><img title="/t" src="https://e.org/en/p/i.png"><a href="#f">f</a><a href="https://o.org/">o</a><b data-u="/u">"##
        );
    }
}
