//! Footnotes with ids of their own and links back: pulldown-cmark would give a footnote the id
//! of its label (`1`, which a heading or another page part may also hold) and no way back to
//! where it is cited. Here a footnote is `fn-<label>` and each citation `fnref-<label>` (then
//! `-2`, `-3` for later citations of the same note); its definition ends with a `↩` link to
//! the first citation, labelled in the reader's language.

use std::collections::BTreeMap;

use measured_core::html::escape;

/// The footnotes of one page, numbered in the order they are first met.
#[derive(Default)]
pub(super) struct Footnotes {
    /// Label → (number, id without prefix, citations so far).
    notes: BTreeMap<String, (usize, String, usize)>,
}

impl Footnotes {
    fn note(&mut self, label: &str) -> &mut (usize, String, usize) {
        let n = self.notes.len() + 1;
        let taken: Vec<String> = self.notes.values().map(|(_, id, _)| id.clone()).collect();
        self.notes.entry(label.to_string()).or_insert_with(|| {
            let slug = slug::slugify(label);
            let id = if slug.is_empty() || taken.contains(&slug) {
                n.to_string()
            } else {
                slug
            };
            (n, id, 0)
        })
    }

    /// The HTML of a citation of `label`.
    pub(super) fn reference(&mut self, label: &str) -> String {
        let (n, id, cited) = self.note(label);
        *cited += 1;
        let own = if *cited == 1 {
            format!("fnref-{id}")
        } else {
            format!("fnref-{id}-{cited}")
        };
        format!("<sup class=\"footnote-reference\" id=\"{own}\"><a href=\"#fn-{id}\">{n}</a></sup>")
    }

    /// The HTML that opens the definition of `label`, and the id it gives the page.
    pub(super) fn open(&mut self, label: &str) -> (String, String) {
        let (n, id, _) = self.note(label);
        let html = format!(
            "<div class=\"footnote-definition\" id=\"fn-{id}\"><sup class=\"footnote-definition-label\">{n}</sup>"
        );
        (html, format!("fn-{id}"))
    }

    /// The HTML that closes the definition of `label`: the link back to its first citation
    /// (none when nothing cites it), `back` being the label pattern with `{n}`.
    pub(super) fn close(&mut self, label: &str, back: &str) -> String {
        let (n, id, cited) = self.note(label);
        if *cited == 0 {
            return "</div>".into();
        }
        let aria = escape(&back.replace("{n}", &n.to_string()));
        format!(
            " <a href=\"#fnref-{id}\" class=\"footnote-backref\" aria-label=\"{aria}\">↩</a></div>"
        )
    }

    /// The ids of the citations (each a link target on the page).
    pub(super) fn reference_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        for (_, id, cited) in self.notes.values() {
            for k in 1..=*cited {
                ids.push(if k == 1 {
                    format!("fnref-{id}")
                } else {
                    format!("fnref-{id}-{k}")
                });
            }
        }
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_numbered_as_met_with_ids_of_their_own_and_a_way_back() {
        let mut f = Footnotes::default();
        assert_eq!(
            f.reference("ghi chú"),
            "<sup class=\"footnote-reference\" id=\"fnref-ghi-chu\"><a href=\"#fn-ghi-chu\">1</a></sup>"
        );
        assert!(
            f.reference("1")
                .contains("id=\"fnref-1\"><a href=\"#fn-1\">2</a>")
        );
        assert!(f.reference("ghi chú").contains("id=\"fnref-ghi-chu-2\""));
        assert_eq!(f.open("1").1, "fn-1");
        assert_eq!(
            f.close("ghi chú", "Back to reference {n}"),
            " <a href=\"#fnref-ghi-chu\" class=\"footnote-backref\" aria-label=\"Back to reference 1\">↩</a></div>"
        );
        assert_eq!(f.close("never-cited", "x"), "</div>");
        assert_eq!(
            f.reference_ids(),
            ["fnref-1", "fnref-ghi-chu", "fnref-ghi-chu-2"]
        );
    }
}
