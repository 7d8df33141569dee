//! Headings: each gets an id (its own `{#id}`, else a unique slug of its text) and an anchor
//! link; levels 2 and 3 make the table of contents. The ids on the page (headings' and
//! footnotes') are collected for the link check.

use std::collections::BTreeSet;

use crate::html::escape;

use super::TocEntry;

/// The ids on the page and the table of contents, as the pass meets them.
#[derive(Default)]
pub(super) struct Headings {
    pub(super) toc: Vec<TocEntry>,
    /// The ids besides the table of contents' (other headings, footnotes).
    pub(super) ids: BTreeSet<String>,
}

impl Headings {
    /// A footnote's definition: its label is an id on the page.
    pub(super) fn footnote(&mut self, label: &str) {
        self.ids.insert(label.to_string());
    }

    /// Records a heading of `level` whose text is `text` and whose own id is `explicit`;
    /// returns its id, and whether an earlier heading or footnote has that id already.
    pub(super) fn add(&mut self, level: u8, explicit: Option<&str>, text: &str) -> (String, bool) {
        let id = match explicit {
            Some(id) => id.to_string(),
            None => self.unique_id(&slug_id(text)),
        };
        let taken = self.taken(&id);
        if (2..=3).contains(&level) {
            self.toc.push(TocEntry {
                level,
                id: id.clone(),
                text: text.to_string(),
            });
        } else {
            self.ids.insert(id.clone());
        }
        (id, taken)
    }

    /// Every id on the page, and the table of contents.
    pub(super) fn finish(mut self) -> (BTreeSet<String>, Vec<TocEntry>) {
        self.ids.extend(self.toc.iter().map(|t| t.id.clone()));
        (self.ids, self.toc)
    }

    fn taken(&self, id: &str) -> bool {
        self.ids.contains(id) || self.toc.iter().any(|t| t.id == id)
    }

    /// `base`, or `base-1`, `base-2`… the first no other heading has.
    fn unique_id(&self, base: &str) -> String {
        if !self.taken(base) {
            return base.to_string();
        }
        (1..)
            .map(|i| format!("{base}-{i}"))
            .find(|id| !self.taken(id))
            .expect("an unused id")
    }
}

/// A heading id from its text: lowercase, diacritics removed, words joined by `-`.
pub fn slug_id(text: &str) -> String {
    let s = slug::slugify(text);
    if s.is_empty() {
        "section".to_string()
    } else {
        s
    }
}

/// The HTML of a heading of `level` with id `id`, its inner HTML `inner_html` and text `text`,
/// and an anchor link labelled by `label` (`{heading}`: the text).
pub(super) fn html(level: u8, id: &str, inner_html: &str, text: &str, label: &str) -> String {
    let label = escape(&label.replace("{heading}", text));
    let id = escape(id);
    format!(
        "<h{level} id=\"{id}\">{inner_html} <a class=\"anchor\" href=\"#{id}\" aria-label=\"{label}\">#</a></h{level}>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_an_explicit_duplicate_is_reported() {
        let mut h = Headings::default();
        h.footnote("bat-tay");
        assert_eq!(h.add(2, None, "Bắt tay"), ("bat-tay-1".to_string(), false));
        assert_eq!(h.add(4, None, "Bắt tay"), ("bat-tay-2".to_string(), false));
        assert_eq!(
            h.add(3, Some("bat-tay"), "Khác"),
            ("bat-tay".to_string(), true)
        );
        assert_eq!(h.add(2, None, "!!"), ("section".to_string(), false));
        let (ids, toc) = h.finish();
        let toc: Vec<&str> = toc.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(toc, ["bat-tay-1", "bat-tay", "section"]);
        assert_eq!(
            ids.into_iter().collect::<Vec<_>>(),
            ["bat-tay", "bat-tay-1", "bat-tay-2", "section"]
        );
    }
}
