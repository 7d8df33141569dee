//! `[redirects]` of `site.toml` answered: at each old URL, a page that leads to the new one, or,
//! when the new one is a feed or another file, the same file (a feed reader keeps its old
//! feed URL). Rendered feeds are copied as they are rendered ([`copies`]); everything else
//! once the output is complete ([`add_site_redirects`]), which also checks that each new URL is
//! published and that no old one is a file the site writes, all errors together.

use measured_content::config::{SiteConfig, SiteRedirect};
use measured_core::diag::{Diagnostic, Diagnostics};
use measured_core::output::Output;

use super::RenderInputs;
use super::path_of;
use super::redirect::{Redirect, redirect_html};

/// Whether a redirect's new URL is a page (answered with a redirect page) rather than a file
/// (answered with a copy of it).
fn to_page(r: &SiteRedirect) -> bool {
    let to = path_of(&r.to);
    to.ends_with(".html") || to.ends_with(".htm")
}

/// The file `path` (a feed just rendered) and a copy of it at each old URL that leads to it.
pub(super) fn copies(
    config: &SiteConfig,
    file: (String, std::sync::Arc<[u8]>),
) -> Vec<(String, std::sync::Arc<[u8]>)> {
    let mut out = Vec::new();
    for r in config.redirects.iter().filter(|r| !to_page(r)) {
        if path_of(&r.to) == file.0 {
            out.push((path_of(&r.from), file.1.clone()));
        }
    }
    out.insert(0, file);
    out
}

/// Adds an answer for every `[redirects]` line whose old URL has none yet; an old URL the site
/// writes something at, or a new URL where nothing is published, is an error at its line.
pub fn add_site_redirects(inputs: &RenderInputs, output: &mut Output) -> Result<(), Diagnostics> {
    let config = &inputs.config;
    let mut diags = Diagnostics::default();
    for r in &config.redirects {
        let from = path_of(&r.from);
        let to = path_of(&r.to);
        if !to_page(r) {
            if output.contains(&from) {
                // The feed's copy, made as it was rendered.
                continue;
            }
            match output.get(&to).map(<[u8]>::to_vec) {
                Some(bytes) => output.insert(from, bytes),
                None => diags.push(nowhere(r)),
            }
            continue;
        }
        if !output.contains(&to) {
            diags.push(nowhere(r));
            continue;
        }
        let taken = std::iter::once(from.as_str())
            .chain(from.match_indices('/').map(|(i, _)| &from[..i]))
            .find(|f| output.contains(f));
        if let Some(taken) = taken {
            diags.push(
                Diagnostic::new(
                    r.place.clone(),
                    format!(
                        "[redirects] {}: the site already publishes /{taken}, which a redirect would replace",
                        r.from
                    ),
                )
                .with_hint("remove the line: the old URL answers already"),
            );
            continue;
        }
        let page = page_html(inputs, r, output.get(&to));
        output.insert(from, page.into_bytes());
    }
    diags.into_result(())
}

fn nowhere(r: &SiteRedirect) -> Diagnostic {
    Diagnostic::new(
        r.place.clone(),
        format!(
            "[redirects] {} leads to {}, where the site publishes nothing",
            r.from, r.to
        ),
    )
    .with_hint("write the new URL of the page (its path on this site), or remove the line")
}

/// The page that leads from `r.from` to `r.to`, in the language of the page there, titled as
/// it is (`target`, its bytes when held).
fn page_html(inputs: &RenderInputs, r: &SiteRedirect, target: Option<&[u8]>) -> String {
    let config = &inputs.config;
    let lang = config
        .langs()
        .find(|l| r.to.starts_with(&format!("/{}/", l.code())))
        .unwrap_or(&config.default_lang);
    let title = target.and_then(title_of).unwrap_or_else(|| r.to.clone());
    redirect_html(&Redirect {
        lang: lang.code(),
        title: &title,
        canonical: &config.absolute(&r.to),
        href: &config.href(&r.to),
        moved: inputs.strings[lang].get("page_moved_to"),
    })
}

/// The text of a page's `<title>`, unescaped as far as the redirect page escapes it again.
fn title_of(html: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(html).ok()?;
    let start = text.find("<title>")? + "<title>".len();
    let end = start + text[start..].find("</title>")?;
    Some(
        text[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}
