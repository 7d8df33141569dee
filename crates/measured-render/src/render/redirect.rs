//! The pages that answer for an article's old URLs (`aliases:`): a static redirect with a
//! canonical link, a refresh and a visible link, marked `noindex`. Not templated: a theme has
//! nothing to show on a page the reader leaves at once. Never in the sitemap or the search
//! index, which list articles.

use measured_core::diag::{Diagnostic, Diagnostics, Place};
use measured_core::html::escape;
use measured_core::output::Output;

use super::RenderInputs;

/// Adds a redirect page for every alias of the site; an alias whose file the site already
/// writes (a feed, a theme file, an article's asset) is an error naming the article.
pub fn add_redirects(inputs: &RenderInputs, output: &mut Output) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for r in &inputs.site.redirects {
        let page = &inputs.site.pages[r.to];
        let file = r.file();
        // The file itself, or a folder on its way that is a file of the site.
        let taken = std::iter::once(file.as_str())
            .chain(file.match_indices('/').map(|(i, _)| &file[..i]))
            .find(|f| output.contains(f));
        if let Some(taken) = taken {
            diags.push(
                Diagnostic::new(
                    match page.doc.front.aliases_line {
                        Some(line) => Place::at(&page.doc.path, line, 1),
                        None => Place::file(&page.doc.path),
                    },
                    format!(
                        "the alias {} would replace the file /{taken} the site writes",
                        r.from
                    ),
                )
                .with_hint("remove the alias, or rename the file"),
            );
            continue;
        }
        output.insert(file, page_html(inputs, r.to).into_bytes());
    }
    diags.into_result(())
}

/// The redirect page to page `to`.
fn page_html(inputs: &RenderInputs, to: usize) -> String {
    let page = &inputs.site.pages[to];
    let lang = &page.doc.lang;
    redirect_html(&Redirect {
        lang: lang.code(),
        title: &page.doc.front.title,
        canonical: &inputs.config.absolute(&page.url),
        href: &inputs.config.href(&page.url),
        moved: inputs.strings[lang].get("moved_to"),
    })
}

/// What a redirect page says.
pub(super) struct Redirect<'a> {
    pub(super) lang: &'a str,
    /// The title of the page it leads to.
    pub(super) title: &'a str,
    /// That page's address, for search engines.
    pub(super) canonical: &'a str,
    /// That page's path as a browser follows it on this site (`/blog/x/` under a path): the
    /// same site answers, in preview (`serve`) as deployed.
    pub(super) href: &'a str,
    /// "This article has moved to".
    pub(super) moved: &'a str,
}

/// A page that leads to another at once: a canonical link for search engines, a refresh to
/// the site's own path of it for browsers, and a link for the rest.
pub(super) fn redirect_html(r: &Redirect<'_>) -> String {
    let (title, canonical, href, moved) = (
        escape(r.title),
        escape(r.canonical),
        escape(r.href),
        escape(r.moved),
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"{code}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<link rel=\"canonical\" href=\"{canonical}\">\n\
         <meta name=\"robots\" content=\"noindex\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={href}\">\n</head>\n\
         <body>\n<p>{moved} <a href=\"{href}\">{title}</a></p>\n</body>\n</html>\n",
        code = r.lang,
    )
}
