//! An article's page (`article.html`): its body, dates, reading time, tags, series, table of
//! contents, "Reproduce" section, related articles and translation notice.

use serde::Serialize;

use crate::markdown::TocEntry;
use measured_content::site::Page;
use measured_measure::claims::Verdict;

use super::RenderInputs;
use super::link::{self, LinkCtx, TagLink};
use super::meta::{self, PageMeta};
use super::reproduce::Reproduce;

/// The context of `article.html`.
#[derive(Serialize)]
pub(super) struct ArticlePage<'a> {
    meta: PageMeta,
    article: ArticleCtx<'a>,
}

#[derive(Serialize)]
struct ArticleCtx<'a> {
    title: &'a str,
    date: String,
    date_iso: String,
    updated: Option<String>,
    updated_iso: Option<String>,
    reading_time: String,
    tags: Vec<TagLink>,
    series: Option<SeriesCtx>,
    /// The table of contents, each H3 under the H2 before it.
    toc: Vec<TocNode<'a>>,
    /// How many headings it lists (shown from two on).
    toc_size: usize,
    content: &'a str,
    /// Where the page's experiments were measured, as CSS custom properties (`--w1:'…'`)
    /// that the values' tooltips show ([`crate::markdown::Rendered::where_vars`]).
    content_style: &'a str,
    reproduce: &'a [Reproduce],
    results_url: Option<String>,
    related: Vec<LinkCtx>,
    translation_notice: Option<String>,
    /// The article has claims: its page says once what their marks mean.
    claims: bool,
    /// Some of its claims did not hold on the machine that built it.
    claims_unconfirmed: bool,
}

/// The article's series: where it stands, every part, and its neighbours.
#[derive(Serialize)]
struct SeriesCtx {
    name: String,
    position: String,
    parts: Vec<SeriesPart>,
    prev: Option<LinkCtx>,
    next: Option<LinkCtx>,
}

#[derive(Serialize)]
struct SeriesPart {
    title: String,
    url: String,
    part: Option<u32>,
    current: bool,
}

/// A heading in the table of contents, with the headings under it.
#[derive(Serialize, Debug, PartialEq, Eq)]
struct TocNode<'a> {
    id: &'a str,
    text: &'a str,
    children: Vec<TocNode<'a>>,
}

/// The headings nested by level: an H3 goes under the H2 before it (at the top when none is),
/// so that the list numbers the sections, not every heading.
fn nest(entries: &[TocEntry]) -> Vec<TocNode<'_>> {
    let top = entries.iter().map(|e| e.level).min().unwrap_or(2);
    let mut out: Vec<TocNode<'_>> = Vec::new();
    for e in entries {
        let node = TocNode {
            id: &e.id,
            text: &e.text,
            children: Vec::new(),
        };
        match out.last_mut() {
            Some(parent) if e.level > top => parent.children.push(node),
            _ => out.push(node),
        }
    }
    out
}

/// The context of page `i`'s article page.
pub(super) fn context(inputs: &RenderInputs, i: usize) -> ArticlePage<'_> {
    let p = &inputs.site.pages[i];
    let lang = &p.doc.lang;
    let t = &inputs.strings[lang];
    let body = &inputs.bodies[i];
    let front = &p.doc.front;
    let description = link::description(inputs, i);
    let mut meta = meta::meta(
        inputs,
        lang,
        &p.url,
        front.title.clone(),
        description.clone(),
        &meta::versions_of(inputs, i),
    );
    meta.og_type = "article";
    meta.image = meta::image(inputs, i);
    meta.json_ld = Some(json_ld(inputs, p, &description));
    let minutes = body.words.div_ceil(200).max(1);
    let reproduce = inputs.reproduce.get(i).map_or(&[][..], Vec::as_slice);
    let claims = inputs.claims.get(&p.doc.dir).map_or(&[][..], Vec::as_slice);
    let article = ArticleCtx {
        title: &front.title,
        date: t.date(front.date.date()),
        date_iso: front.date.to_string(),
        updated: front.updated.map(|d| t.date(d.date())),
        updated_iso: front.updated.map(|d| d.to_string()),
        reading_time: t.count("reading_time", minutes),
        tags: link::tag_links(&inputs.config, p),
        series: series(inputs, i),
        toc: nest(&body.toc),
        toc_size: body.toc.len(),
        content: &body.html,
        content_style: &body.where_vars,
        reproduce,
        results_url: (!reproduce.is_empty()).then(|| format!("{}results.json", p.url)),
        related: inputs
            .related
            .get(i)
            .into_iter()
            .flatten()
            .map(|&j| link::link(inputs, j, lang))
            .collect(),
        translation_notice: inputs.notices.get(i).cloned().flatten(),
        claims: !claims.is_empty(),
        claims_unconfirmed: claims.iter().any(|c| c.entry.verdict != Verdict::Holds),
    };
    ArticlePage { meta, article }
}

/// Page `i`'s series, if it is part of one.
fn series(inputs: &RenderInputs, i: usize) -> Option<SeriesCtx> {
    let site = &inputs.site;
    let lang = &site.pages[i].doc.lang;
    let t = &inputs.strings[lang];
    let (name, parts) = site.series_of(i)?;
    let pos = parts.iter().position(|&x| x == i).unwrap_or(0);
    Some(SeriesCtx {
        name: name.to_string(),
        position: t.fill(
            "series_position",
            &[
                ("part", &(pos + 1).to_string()),
                ("total", &parts.len().to_string()),
                ("series", name),
            ],
        ),
        parts: parts
            .iter()
            .map(|&j| SeriesPart {
                title: site.pages[j].doc.front.title.clone(),
                url: site.pages[j].url.clone(),
                part: site.pages[j].doc.front.part,
                current: j == i,
            })
            .collect(),
        prev: pos
            .checked_sub(1)
            .map(|k| link::link(inputs, parts[k], lang)),
        next: parts.get(pos + 1).map(|&k| link::link(inputs, k, lang)),
    })
}

/// The article's schema.org description, as JSON safe inside `<script>`.
fn json_ld(inputs: &RenderInputs, p: &Page, description: &str) -> String {
    let config = &inputs.config;
    let v = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": p.doc.front.title,
        "description": description,
        "datePublished": p.doc.front.date.to_string(),
        "dateModified": p.doc.front.updated.unwrap_or(p.doc.front.date).to_string(),
        "inLanguage": p.doc.lang.code(),
        "url": config.absolute(&p.url),
        "mainEntityOfPage": config.absolute(&p.url),
        "author": { "@type": "Person", "name": if config.author.is_empty() { &config.language(&p.doc.lang).title } else { &config.author } },
        "keywords": p.doc.front.tags.join(", "),
    });
    measured_core::html::script_json(&v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::tests::{inputs, page};

    #[test]
    fn an_article_in_a_series_with_an_experiment() {
        let inputs = inputs();
        let dns = page(&inputs, "dns", "vi");
        let ArticlePage { meta, article } = context(&inputs, dns);
        assert_eq!(meta.og_type, "article");
        let json_ld: serde_json::Value =
            serde_json::from_str(meta.json_ld.as_deref().unwrap()).unwrap();
        assert_eq!(json_ld["headline"], "DNS");
        assert_eq!(json_ld["dateModified"], "2026-02-01");
        assert_eq!(json_ld["author"]["name"], "Tác giả");
        assert_eq!(article.date, "5 tháng 1, 2026");
        assert_eq!(article.updated.as_deref(), Some("1 tháng 2, 2026"));
        assert_eq!(
            article.reading_time, "3 phút đọc",
            "450 words at 200 a minute"
        );
        assert_eq!(article.reproduce.len(), 1);
        assert_eq!(article.results_url.as_deref(), Some("/dns/results.json"));
        let series = article.series.unwrap();
        assert_eq!(series.position, "Phần 2/2 của loạt “Mạng”");
        let parts: Vec<(&str, bool)> = series
            .parts
            .iter()
            .map(|p| (p.url.as_str(), p.current))
            .collect();
        assert_eq!(parts, [("/tcp/", false), ("/dns/", true)]);
        assert!(series.prev.is_some() && series.next.is_none());
        assert!(!article.related.is_empty(), "the other part at least");
    }

    #[test]
    fn an_article_without_experiments_has_no_results_file() {
        let inputs = inputs();
        let ArticlePage { meta, article } = context(&inputs, page(&inputs, "tcp", "en"));
        assert_eq!(article.results_url, None);
        assert!(article.reproduce.is_empty());
        assert_eq!(article.reading_time, "3 min read");
        let versions: Vec<(&str, &str)> = meta
            .alternates
            .iter()
            .map(|a| (a.hreflang.as_str(), a.href.as_str()))
            .collect();
        assert_eq!(
            versions,
            [
                ("vi", "https://e.org/tcp/"),
                ("en", "https://e.org/en/tcp/")
            ]
        );
    }
}

#[cfg(test)]
mod toc_tests {
    use super::*;

    fn entry(level: u8, id: &str) -> TocEntry {
        TocEntry {
            level,
            id: id.into(),
            text: id.to_uppercase(),
        }
    }

    #[test]
    fn h3_headings_nest_under_the_h2_before_them() {
        let flat = [
            entry(3, "intro"),
            entry(2, "a"),
            entry(3, "a1"),
            entry(3, "a2"),
            entry(2, "b"),
        ];
        let ids = |nodes: &[TocNode<'_>]| -> Vec<String> {
            nodes
                .iter()
                .map(|n| {
                    let kids: Vec<&str> = n.children.iter().map(|c| c.id).collect();
                    format!("{}[{}]", n.id, kids.join(","))
                })
                .collect()
        };
        assert_eq!(ids(&nest(&flat[1..])), ["a[a1,a2]", "b[]"]);
        // An H3 before any H2 stays at the top; a page of H3s only is one level.
        assert_eq!(ids(&nest(&flat)), ["intro[]", "a[a1,a2]", "b[]"]);
        assert_eq!(ids(&nest(&[entry(3, "x"), entry(3, "y")])), ["x[]", "y[]"]);
    }
}
