//! Markers: `{{ claim.id }}` written after the sentence a claim supports, in every language of
//! the article. Checked once the bodies are rendered: a marker must name a claim of its
//! article, and every claim must be marked in each of the article's languages, so a reader of
//! either language sees the same sentences checked.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::ArticleClaims;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// The first segment of a marker: `{{ claim.handshake-cost }}`; the experiment stage refuses
/// an experiment of that name.
pub use measured_core::reference::CLAIM;

/// A marker written in a body: the claim id it names, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub id: String,
    pub place: Place,
}

/// `claim.id` → `id`, for an expression written between `{{ }}` (filters aside).
pub fn marked_id(expr: &str) -> Option<&str> {
    measured_core::reference::Reference::parse(expr).claim_id()
}

/// One page of an article as the marker check reads it.
pub struct PageMarks<'a> {
    pub path: &'a Path,
    pub marks: &'a [Mark],
}

/// The marker errors of one article: claims marked in some of its pages but not in others,
/// and claims marked in none. (A marker naming no claim is an error where it is rendered.)
pub fn check(claims: Option<&ArticleClaims>, pages: &[PageMarks<'_>]) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    let Some(article) = claims else {
        return Ok(());
    };
    let declared: BTreeSet<&str> = article.claims.iter().map(|c| c.entry.id.as_str()).collect();
    // Per claim: where it is marked first in each page that marks it.
    let mut marked: BTreeMap<&str, Vec<(&Path, &Place)>> = BTreeMap::new();
    for page in pages {
        let mut seen = BTreeSet::new();
        for m in page.marks {
            if declared.contains(m.id.as_str()) && seen.insert(m.id.as_str()) {
                marked
                    .entry(m.id.as_str())
                    .or_default()
                    .push((page.path, &m.place));
            }
        }
    }
    for claim in &article.claims {
        let id = claim.entry.id.as_str();
        let e = &claim.entry;
        let indent = e.source_line.len() - e.source_line.trim_start().len();
        let place = Place::at(&article.path, e.line, 1 + indent);
        match marked.get(id) {
            None => diags.push(
                Diagnostic::new(
                    place,
                    format!("claim `{id}` is not marked in any sentence of the article"),
                )
                .with_snippet(claim.entry.source_line.clone())
                .with_hint(format!(
                    "write {{{{ claim.{id} }}}} after the sentence it supports, in every language; \
                     a claim that no sentence rests on should be removed"
                )),
            ),
            Some(found) if found.len() < pages.len() => {
                let (first_path, first_place) = found[0];
                for page in pages
                    .iter()
                    .filter(|p| !found.iter().any(|(f, _)| *f == p.path))
                {
                    diags.push(
                        Diagnostic::new(
                            Place::file(page.path),
                            format!(
                                "claim `{id}` is marked in {} (line {}) but not in this translation",
                                display(first_path),
                                first_place.line.unwrap_or(1)
                            ),
                        )
                        .with_hint(format!(
                            "write {{{{ claim.{id} }}}} after the sentence that says the same, so \
                             readers of every language see it checked"
                        )),
                    );
                }
            }
            Some(_) => {}
        }
    }
    diags.into_result(())
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// The injected references one page has and another page of the article lacks.
pub struct Parity {
    pub path: PathBuf,
    pub lacks: Vec<String>,
    /// The page that has them.
    pub other: PathBuf,
}

/// Value parity of an article's pages: for each pair, what one injects that the other does
/// not (references as written, filters aside).
pub fn parity(pages: &[(&Path, &BTreeSet<String>)]) -> Vec<Parity> {
    let mut out = Vec::new();
    for (i, (path, has)) in pages.iter().enumerate() {
        for (j, (other, other_has)) in pages.iter().enumerate() {
            if i == j {
                continue;
            }
            let lacks: Vec<String> = other_has.difference(has).cloned().collect();
            if !lacks.is_empty() {
                out.push(Parity {
                    path: path.to_path_buf(),
                    lacks,
                    other: other.to_path_buf(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{Claim, Entry, parse};

    fn article(ids: &[&str]) -> ArticleClaims {
        ArticleClaims {
            dir: "a".into(),
            path: "content/a/index.vi.md".into(),
            claims: ids
                .iter()
                .enumerate()
                .map(|(i, id)| Claim {
                    entry: Entry {
                        id: id.to_string(),
                        text: "x.y > 1".into(),
                        line: 5 + i,
                        col: 3,
                        source_line: format!("  {id}: x.y > 1"),
                    },
                    expr: parse("x.y > 1").unwrap(),
                })
                .collect(),
        }
    }

    /// The vi and en pages of an article, with their marks.
    fn pages<'a>(vi: &'a [Mark], en: &'a [Mark]) -> [PageMarks<'a>; 2] {
        [
            PageMarks {
                path: Path::new("vi.md"),
                marks: vi,
            },
            PageMarks {
                path: Path::new("en.md"),
                marks: en,
            },
        ]
    }

    fn mark(id: &str, line: usize) -> Mark {
        Mark {
            id: id.into(),
            place: Place::at("p", line, 1),
        }
    }

    #[test]
    fn marked_ids_are_read_from_claim_references_only() {
        assert_eq!(marked_id(" claim.handshake-cost "), Some("handshake-cost"));
        assert_eq!(marked_id("claim . x"), Some("x"));
        assert_eq!(marked_id("tcp.claim"), None);
        assert_eq!(marked_id("claims.x"), None);
    }

    #[test]
    fn a_claim_marked_in_every_language_passes() {
        let a = article(&["one", "two"]);
        let vi = [mark("one", 10), mark("two", 12), mark("one", 20)];
        let en = [mark("two", 9), mark("one", 11)];
        let pages = pages(&vi, &en);
        assert!(check(Some(&a), &pages).is_ok());
    }

    #[test]
    fn a_claim_missing_in_one_language_names_that_file_and_the_other_place() {
        let a = article(&["one"]);
        let vi = [mark("one", 10)];
        let pages = pages(&vi, &[]);
        let d = check(Some(&a), &pages).unwrap_err();
        assert_eq!(d.0.len(), 1);
        assert_eq!(d.0[0].place.path, Path::new("en.md"));
        assert!(
            d.0[0]
                .message
                .contains("`one` is marked in vi.md (line 10)"),
            "{}",
            d.0[0].message
        );
    }

    #[test]
    fn a_claim_marked_nowhere_is_an_error_at_its_declaration() {
        let a = article(&["one", "two"]);
        let vi = [mark("one", 10)];
        let en = [mark("one", 10)];
        let pages = pages(&vi, &en);
        let d = check(Some(&a), &pages).unwrap_err();
        assert_eq!(d.0.len(), 1);
        assert_eq!(d.0[0].place.line, Some(6));
        assert!(d.0[0].message.contains("`two` is not marked"));
    }

    #[test]
    fn parity_lists_what_each_page_lacks() {
        let vi: BTreeSet<String> = ["a.x", "a.y"].map(String::from).into();
        let en: BTreeSet<String> = ["a.x", "a.z"].map(String::from).into();
        let p = parity(&[(Path::new("vi.md"), &vi), (Path::new("en.md"), &en)]);
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].path.as_path(), p[0].lacks.as_slice()),
            (Path::new("vi.md"), &["a.z".to_string()][..])
        );
        assert_eq!(
            (p[1].path.as_path(), p[1].lacks.as_slice()),
            (Path::new("en.md"), &["a.y".to_string()][..])
        );
    }
}
