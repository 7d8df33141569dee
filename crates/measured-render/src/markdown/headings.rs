//! Headings: each gets an id (its own `{#id}`, else a unique slug of its text) and an anchor
//! link; levels 2 and 3 make the table of contents. The ids on the page (headings' and
//! footnotes') are collected for the link check. A slug never takes an id the theme writes
//! around the body ([`ThemeIds`]): `## Series` is `series-1`, since the series box is `series`.

use std::collections::BTreeSet;

use measured_content::theme::ThemeIds;
use measured_core::html::escape;

use super::TocEntry;

/// Prepended to a slug that has the shape of a family of the theme's ids (`reproduce-…`), which
/// no suffix can leave: `## Reproduce tcp` is `section-reproduce-tcp`.
const OUT_OF_FAMILY: &str = "section-";

/// The ids on the page and the table of contents, as the pass meets them.
pub(super) struct Headings<'t> {
    pub(super) toc: Vec<TocEntry>,
    /// The ids besides the table of contents' (other headings, footnotes).
    pub(super) ids: BTreeSet<String>,
    /// The ids the theme writes on the page around the body.
    theme: &'t ThemeIds,
}

/// Who else has a heading's own `{#id}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Taken {
    /// No one.
    Free,
    /// An earlier heading or footnote.
    OnPage,
    /// The theme, around the body.
    ByTheme,
}

impl<'t> Headings<'t> {
    pub(super) fn new(theme: &'t ThemeIds) -> Self {
        Headings {
            toc: Vec::new(),
            ids: BTreeSet::new(),
            theme,
        }
    }

    /// A footnote's definition: its label is an id on the page.
    pub(super) fn footnote(&mut self, label: &str) {
        self.ids.insert(label.to_string());
    }

    /// Records a heading of `level` whose text is `text` and whose own id is `explicit`;
    /// returns its id, and who else has that id when it is the heading's own.
    pub(super) fn add(&mut self, level: u8, explicit: Option<&str>, text: &str) -> (String, Taken) {
        let (id, taken) = match explicit {
            Some(id) if self.on_page(id) => (id.to_string(), Taken::OnPage),
            Some(id) if self.theme.holds(id) => (id.to_string(), Taken::ByTheme),
            Some(id) => (id.to_string(), Taken::Free),
            None => (self.unique_id(&slug_id(text)), Taken::Free),
        };
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

    fn on_page(&self, id: &str) -> bool {
        self.ids.contains(id) || self.toc.iter().any(|t| t.id == id)
    }

    fn taken(&self, id: &str) -> bool {
        self.on_page(id) || self.theme.holds(id)
    }

    /// `base`, or `base-1`, `base-2`… the first no other heading and no id of the theme has
    /// (the theme's ids count as headings met before). A `base` in a family that only a prefix
    /// makes (`reproduce-…`) first leaves it ([`OUT_OF_FAMILY`]). A theme whose families catch
    /// every candidate (one made `section-{{ x }}` ids) gets the last one tried, which the link
    /// check's duplicate-id check reports if the theme does write it.
    fn unique_id(&self, base: &str) -> String {
        let mut base = base.to_string();
        for _ in 0..3 {
            if !self.theme.in_prefix_family(&base) {
                break;
            }
            base = format!("{OUT_OF_FAMILY}{base}");
        }
        if !self.taken(&base) {
            return base;
        }
        let candidates = (1..=1000).map(|i| format!("{base}-{i}"));
        let mut last = base.clone();
        for id in candidates {
            if !self.taken(&id) {
                return id;
            }
            last = id;
        }
        last
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
        let theme = ThemeIds::default();
        let mut h = Headings::new(&theme);
        h.footnote("bat-tay");
        let free = |id: &str| (id.to_string(), Taken::Free);
        assert_eq!(h.add(2, None, "Bắt tay"), free("bat-tay-1"));
        assert_eq!(h.add(4, None, "Bắt tay"), free("bat-tay-2"));
        assert_eq!(
            h.add(3, Some("bat-tay"), "Khác"),
            ("bat-tay".to_string(), Taken::OnPage)
        );
        assert_eq!(h.add(2, None, "!!"), free("section"));
        let (ids, toc) = h.finish();
        let toc: Vec<&str> = toc.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(toc, ["bat-tay-1", "bat-tay", "section"]);
        assert_eq!(
            ids.into_iter().collect::<Vec<_>>(),
            ["bat-tay", "bat-tay-1", "bat-tay-2", "section"]
        );
    }

    /// The built-in theme's ids.
    fn builtin() -> ThemeIds {
        let dir = tempfile::tempdir().unwrap();
        ThemeIds::of(&measured_content::theme::load(dir.path()).unwrap())
    }

    #[test]
    fn slugs_leave_the_theme_its_ids() {
        let theme = builtin();
        let mut h = Headings::new(&theme);
        let ids: Vec<String> = ["Series", "Series", "Related", "Main", "Search input"]
            .iter()
            .map(|text| h.add(2, None, text).0)
            .collect();
        assert_eq!(
            ids,
            [
                "series-1",
                "series-2",
                "related",
                "main-1",
                "search-input-1"
            ]
        );
        let (id, _) = h.add(2, None, "Reproduce tcp handshake");
        assert_eq!(id, "section-reproduce-tcp-handshake");
        assert_eq!(h.add(2, None, "Reproduce").0, "reproduce");
        assert_eq!(
            h.add(3, Some("series-title"), "x").1,
            Taken::ByTheme,
            "an own id the theme writes is refused"
        );
        assert_eq!(h.add(3, Some("reproduce-x"), "x").1, Taken::ByTheme);
    }
}
