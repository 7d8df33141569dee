//! `aliases:`: the old URLs of an article, each answered by a redirect page. Checked when the
//! site is assembled: an alias taken twice, by a page or by a listing is an error naming both.

use std::collections::BTreeMap;

use super::Page;
use super::reserved::Reserved;
use crate::content::Alias;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// An old URL and the page it now leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The site path of the old URL: `/posts/x/` or `/2016/x.html`.
    pub from: String,
    /// The page (an index into `Site::pages`).
    pub to: usize,
}

impl Redirect {
    /// The output file that answers for the old URL.
    pub fn file(&self) -> String {
        let rel = self.from.trim_start_matches('/');
        if rel.ends_with('/') {
            format!("{rel}index.html")
        } else {
            rel.to_string()
        }
    }
}

/// Every alias of `pages` as a redirect; `reserved` are the URLs the site writes itself.
pub fn redirects(pages: &[Page], reserved: &Reserved) -> Result<Vec<Redirect>, Diagnostics> {
    let mut diags = Diagnostics::default();
    let by_url: BTreeMap<&str, &Page> = pages.iter().map(|p| (p.url.as_str(), p)).collect();
    let mut taken: BTreeMap<&str, (&Page, &Alias)> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, p) in pages.iter().enumerate() {
        for alias in &p.doc.front.aliases {
            let from = alias.path.as_str();
            let clash = if let Some(other) = by_url.get(from) {
                Some(format!(
                    "the alias {from} is the URL of the page {}",
                    other.doc.path.display()
                ))
            } else if let Some(what) = reserved.taken(from) {
                Some(format!("the alias {from} is taken by {what}"))
            } else {
                match taken.insert(from, (p, alias)) {
                    Some((other, first)) if other.doc.path == p.doc.path => Some(format!(
                        "the aliases `{}` (line {}) and `{}` (line {}) are the same URL {from}",
                        first.written.trim(),
                        first.line,
                        alias.written.trim(),
                        alias.line
                    )),
                    Some((other, first)) => Some(format!(
                        "two articles claim the alias {from}: {}:{} and {}:{}",
                        other.doc.path.display(),
                        first.line,
                        p.doc.path.display(),
                        alias.line
                    )),
                    None => None,
                }
            };
            match clash {
                Some(message) => diags.push(
                    Diagnostic::new(Place::at(&p.doc.path, alias.line, 1), message).with_hint(
                        "remove the alias from one of them: an old URL leads to one page",
                    ),
                ),
                None => out.push(Redirect {
                    from: from.to_string(),
                    to: i,
                }),
            }
        }
    }
    diags.into_result(out)
}
