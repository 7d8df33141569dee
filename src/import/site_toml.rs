//! `site.toml` from the source's configuration: base URL, languages with their titles,
//! descriptions, footers and menus, pagination, the `[tags]` that keep two tags apart, and the
//! `[redirects]` that keep the old lists' URLs. An existing `site.toml` is never rewritten: the
//! redirects it lacks are added at its end, or listed to add by hand.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::plan::Inputs;
use super::{Note, Planned, Report};
use crate::diag::Diagnostics;
use crate::lang::Lang;

/// One language of the written site.
pub struct Language {
    pub lang: Lang,
    pub title: String,
    pub description: Option<String>,
    pub footer: Option<String>,
    /// (name, URL), in order.
    pub menu: Vec<(String, String)>,
}

/// What `site.toml` says.
pub struct SiteToml<'a> {
    /// The configuration file it comes from, for its first line.
    pub from: &'a str,
    pub base_url: &'a str,
    pub languages: &'a [Language],
    pub paginate: Option<usize>,
    pub tags: &'a BTreeMap<String, String>,
    pub redirects: &'a BTreeMap<String, String>,
}

/// The root's own `site.toml`, kept: the redirects added at its end when it has no
/// `[redirects]` table, else those it lacks listed to add by hand.
fn kept(
    existing: &crate::config::SiteConfig,
    path: &Path,
    from: PathBuf,
    redirects: &BTreeMap<String, String>,
    report: &mut Report,
) -> Result<Option<Planned>, Diagnostics> {
    let text =
        std::fs::read_to_string(path).map_err(|e| crate::diag::io_error(path, "read", &e))?;
    if let Some(new) = with_redirects(&text, redirects) {
        return Ok(Some(Planned {
            dest: PathBuf::from("site.toml"),
            bytes: new.into_bytes(),
            from,
            appends: true,
        }));
    }
    let missing: Vec<String> = redirects
        .iter()
        .filter(|(f, _)| !existing.redirects.iter().any(|r| &r.from == *f))
        .map(|(f, t)| {
            format!(
                "{} = {}",
                toml::Value::String(f.clone()),
                toml::Value::String(t.clone())
            )
        })
        .collect();
    if !missing.is_empty() {
        report.to_fix.push(Note::file(
            path,
            format!(
                "its [redirects] table lacks the old URLs of the lists: add\n      {}",
                missing.join("\n      ")
            ),
        ));
    }
    Ok(None)
}

/// A note for each language whose menu in the root's `site.toml` (kept as it is) lacks
/// entries of the source's menu.
fn kept_menus(
    existing: &crate::config::SiteConfig,
    menus: &BTreeMap<Lang, Vec<(String, String)>>,
    path: &Path,
    report: &mut Report,
) {
    for (lang, entries) in menus {
        let own = &existing.language(lang).menu;
        let missing: Vec<String> = entries
            .iter()
            .filter(|(_, url)| !own.iter().any(|m| &m.url == url))
            .map(|(name, url)| format!("{name} → {url}"))
            .collect();
        if !missing.is_empty() {
            report.to_fix.push(Note::file(
                path,
                format!(
                    "site.toml is kept as it is: add the source's menu entries to [[languages.{}.menu]] by hand if you want them ({})",
                    lang.code(),
                    missing.join(", ")
                ),
            ));
        }
    }
}

/// A TOML string.
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The text of a new `site.toml`.
pub fn render(s: &SiteToml<'_>) -> String {
    let mut out = format!(
        "# Written by `measured import` from {}; see docs/authoring.md for every key.\n",
        s.from
    );
    out.push_str(&format!("base_url = {}\n", q(s.base_url)));
    out.push_str(&format!(
        "default_language = {}\n",
        q(s.languages[0].lang.code())
    ));
    out.push_str(&format!("paginate = {}\n", s.paginate.unwrap_or(0)));
    for l in s.languages {
        out.push_str(&format!(
            "\n[languages.{}]\ntitle = {}\n",
            l.lang.code(),
            q(&l.title)
        ));
        if let Some(d) = &l.description {
            out.push_str(&format!("description = {}\n", q(d)));
        }
        if let Some(f) = &l.footer {
            out.push_str(&format!("footer = {}\n", q(f)));
        }
        for (name, url) in &l.menu {
            out.push_str(&format!(
                "\n[[languages.{}.menu]]\nname = {}\nurl = {}\n",
                l.lang.code(),
                q(name),
                q(url)
            ));
        }
    }
    if !s.tags.is_empty() {
        out.push_str("\n[tags]\n");
        for (name, slug) in s.tags {
            out.push_str(&format!("{} = {}\n", q(name), q(slug)));
        }
    }
    out.push_str(&redirects_table(s.redirects));
    out
}

/// The `[redirects]` table of `redirects` (empty when there are none).
pub fn redirects_table(redirects: &BTreeMap<String, String>) -> String {
    if redirects.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n# The old site's URLs: each answers with a page leading to its new one (a feed with the feed).\n[redirects]\n",
    );
    for (from, to) in redirects {
        out.push_str(&format!("{} = {}\n", q(from), q(to)));
    }
    out
}

/// An existing `site.toml`'s text with `redirects` added: `None` when it has a `[redirects]`
/// table already (the caller lists what it lacks), or when there is nothing to add.
pub fn with_redirects(text: &str, redirects: &BTreeMap<String, String>) -> Option<String> {
    let has_table = text.lines().any(|l| l.trim() == "[redirects]");
    if has_table || redirects.is_empty() {
        return None;
    }
    let mut out = text.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&redirects_table(redirects));
    Some(out)
}

/// `site.toml`: written from the source's configuration when the root has none; else its
/// `[redirects]` added at its end, or what it lacks listed to add by hand.
pub(super) fn plan(
    inp: &Inputs<'_>,
    langs: &[Lang],
    menus: &BTreeMap<Lang, Vec<(String, String)>>,
    tags: &BTreeMap<String, String>,
    redirects: &BTreeMap<String, String>,
    paginate: Option<usize>,
    report: &mut Report,
) -> Result<Option<Planned>, Diagnostics> {
    let path = inp.opts.root.join("site.toml");
    let from = inp
        .source
        .file
        .as_deref()
        .map_or_else(|| inp.opts.src.clone(), Path::to_path_buf);
    if let Some(existing) = inp.existing {
        kept_menus(existing, menus, &path, report);
        return kept(existing, &path, from, redirects, report);
    }
    let title_of = |lang: &Lang| {
        let own = inp
            .source
            .languages
            .iter()
            .find(|l| l.lang.as_ref().unwrap_or(inp.default_lang) == lang);
        own.or(inp.source.languages.first())
    };
    let mut languages = Vec::new();
    for lang in langs {
        let sl = title_of(lang);
        let title = sl.and_then(|l| l.title.clone()).unwrap_or_else(|| {
            report.to_fix.push(Note::file(
                &from,
                "no site title: site.toml says `Blog`; write the site's name there",
            ));
            "Blog".to_string()
        });
        languages.push(Language {
            lang: lang.clone(),
            title,
            description: sl.and_then(|l| l.description.clone()),
            footer: sl.and_then(|l| l.footer.clone()),
            menu: menus.get(lang).cloned().unwrap_or_default(),
        });
        if !["vi", "en"].contains(&lang.code()) {
            report.to_fix.push(Note::file(&from, format!("measured's theme has UI strings in vi and en only: copy templates/i18n/en.toml to templates/i18n/{}.toml and translate it", lang.code())));
        }
    }
    let text = render(&SiteToml {
        from: &from.display().to_string(),
        base_url: inp
            .source
            .base_url
            .as_deref()
            .unwrap_or("https://example.org"),
        languages: &languages,
        paginate,
        tags,
        redirects,
    });
    Ok(Some(Planned {
        dest: PathBuf::from("site.toml"),
        bytes: text.into_bytes(),
        from,
        appends: false,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_toml_that_measured_reads() {
        let languages = [Language {
            lang: Lang::parse("vi").unwrap(),
            title: "Blog \"của\" tôi".into(),
            description: Some("Ghi chép".into()),
            footer: None,
            menu: vec![("Giới thiệu".into(), "/about/".into())],
        }];
        let redirects = BTreeMap::from([("/tags/lập-trình/".into(), "/tags/lap-trinh/".into())]);
        let text = render(&SiteToml {
            from: "hugo.toml",
            base_url: "https://u.github.io/blog",
            languages: &languages,
            paginate: Some(5),
            tags: &BTreeMap::new(),
            redirects: &redirects,
        });
        let config = crate::config::parse(
            std::path::Path::new("/site"),
            std::path::Path::new("/site/site.toml"),
            &text,
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(config.languages[0].title, "Blog \"của\" tôi");
        assert_eq!(config.base_path, "/blog");
        assert_eq!(config.languages[0].menu[0].url, "/about/");
    }
}
