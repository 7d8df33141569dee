//! The pages that answer for an article's old URLs (`aliases:`): a static redirect with a
//! canonical link, a refresh and a visible link, marked `noindex`. Not templated: a theme has
//! nothing to show on a page the reader leaves at once. Never in the sitemap or the search
//! index, which list articles.

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::html::escape;
use crate::output::Output;

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
    let url = escape(&inputs.config.absolute(&page.url));
    let title = escape(&page.doc.front.title);
    let lang = &page.doc.lang;
    let moved = escape(inputs.strings[lang].get("moved_to"));
    format!(
        "<!DOCTYPE html>\n<html lang=\"{code}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<link rel=\"canonical\" href=\"{url}\">\n\
         <meta name=\"robots\" content=\"noindex\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={url}\">\n</head>\n\
         <body>\n<p>{moved} <a href=\"{url}\">{title}</a></p>\n</body>\n</html>\n",
        code = lang.code(),
    )
}
