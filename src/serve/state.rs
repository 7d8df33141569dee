//! What the server shows at one moment: the last good site, the standing build error, and the
//! version counters that tell an open page what changed since it was loaded. Kept apart from
//! HTTP and the rebuild loop so that the "what changed" rules are plain functions with tests.

use std::fmt;
use std::sync::Arc;

use imbl::ordmap::DiffItem;

use crate::diag::Diagnostics;
use crate::output::Output;

/// Counters bumped by each rebuild that changes something a page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    /// Differs between two runs of `serve`, so a page from an earlier run reloads.
    pub instance: u64,
    /// Bumped when any output file other than a stylesheet changes.
    pub pages: u64,
    /// Bumped when only stylesheets change.
    pub styles: u64,
    /// Bumped when the standing build error appears, changes or goes away.
    pub error: u64,
}

impl Version {
    /// Parses the token written by `Display` (`instance.pages.styles.error`).
    pub fn parse(token: &str) -> Option<Version> {
        let mut parts = token.split('.').map(|p| p.parse::<u64>().ok());
        let version = Version {
            instance: parts.next()??,
            pages: parts.next()??,
            styles: parts.next()??,
            error: parts.next()??,
        };
        parts.next().is_none().then_some(version)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Version {
            instance,
            pages,
            styles,
            error,
        } = self;
        write!(f, "{instance}.{pages}.{styles}.{error}")
    }
}

/// What a successful rebuild changed in the output, as a browser sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The output is byte for byte the same.
    Nothing,
    /// Only `.css` files differ: swapping the stylesheets is enough.
    Styles,
    /// Something else differs (a page, a feed, an image, a file added or removed).
    Pages,
}

/// Whether an output file belongs to the search index, which the search box loads when it
/// opens: a new index never needs an open page to reload.
fn is_search(path: &str) -> bool {
    path.strip_prefix(crate::search::DIR)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Compares two outputs file by file (the search index aside), through their differences
/// only (the parts of the two maps they share are not visited).
pub fn diff(old: &Output, new: &Output) -> Change {
    let mut styles = false;
    for item in old.files.diff(&new.files) {
        let (path, updated) = match item {
            DiffItem::Update { old, new } if old.1 == new.1 => continue,
            DiffItem::Update { old, .. } => (old.0, true),
            DiffItem::Add(path, _) | DiffItem::Remove(path, _) => (path, false),
        };
        if is_search(path) {
            continue;
        }
        if path.ends_with(".css") && updated {
            styles = true;
        } else {
            return Change::Pages;
        }
    }
    if styles {
        Change::Styles
    } else {
        Change::Nothing
    }
}

/// The site being served and the error standing over it.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub version: Version,
    /// The last site that built; `None` while the very first build has not succeeded.
    pub site: Option<Arc<Output>>,
    /// The diagnostics of the last build, when it failed.
    pub error: Option<Arc<Diagnostics>>,
    /// The path the site is published under (`/blog`, the path of its `base_url`), which the
    /// preview serves it under too; empty for a site at the root of its host.
    pub base: Arc<str>,
}

impl Snapshot {
    /// Before any build: nothing to serve, no error.
    pub fn empty(instance: u64) -> Snapshot {
        Snapshot {
            version: Version {
                instance,
                pages: 0,
                styles: 0,
                error: 0,
            },
            site: None,
            error: None,
            base: Arc::from(""),
        }
    }

    /// The snapshot after a build that produced `output`, and what changed for the browser
    /// (`None` when nothing did: no need to publish it). Search index files of the served site
    /// that `output` lacks stay: a page open since an earlier index may still ask for them.
    pub fn succeeded(&self, mut output: Output) -> Option<(Snapshot, Change)> {
        if let Some(old) = &self.site {
            let gone: Vec<(String, Arc<[u8]>)> = old
                .files
                .diff(&output.files)
                .filter_map(|item| match item {
                    DiffItem::Remove(path, bytes) if is_search(path) => {
                        Some((path.clone(), bytes.clone()))
                    }
                    _ => None,
                })
                .collect();
            for (path, bytes) in gone {
                output.files.insert(path, bytes);
            }
        }
        let change = match &self.site {
            Some(old) => diff(old, &output),
            None => Change::Pages,
        };
        let mut version = self.version;
        match change {
            Change::Nothing => {}
            Change::Styles => version.styles += 1,
            Change::Pages => version.pages += 1,
        }
        if self.error.is_some() {
            version.error += 1;
        }
        if version == self.version {
            return None;
        }
        let site = match change {
            Change::Nothing => self.site.clone(),
            Change::Styles | Change::Pages => Some(Arc::new(output)),
        };
        Some((
            Snapshot {
                version,
                site,
                error: None,
                base: self.base.clone(),
            },
            change,
        ))
    }

    /// The same snapshot with a new search index: its files replace those of the same name,
    /// older ones stay (see [`Snapshot::succeeded`]); no open page reloads for it. `None`
    /// before any site was built.
    pub fn with_search(&self, files: &[(String, Arc<[u8]>)]) -> Option<Snapshot> {
        let mut output = Output::clone(self.site.as_ref()?);
        for (path, bytes) in files {
            output.insert_shared(path.clone(), bytes.clone());
        }
        Some(Snapshot {
            version: self.version,
            site: Some(Arc::new(output)),
            error: self.error.clone(),
            base: self.base.clone(),
        })
    }

    /// The snapshot after a failed build: the same site under the error (`None` when the same
    /// error already stands).
    pub fn failed(&self, diagnostics: Diagnostics) -> Option<Snapshot> {
        if self.error.as_deref() == Some(&diagnostics) {
            return None;
        }
        let mut version = self.version;
        version.error += 1;
        Some(Snapshot {
            version,
            site: self.site.clone(),
            error: Some(Arc::new(diagnostics)),
            base: self.base.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Diagnostic, Place};

    fn output(files: &[(&str, &str)]) -> Output {
        let mut out = Output::default();
        for (path, text) in files {
            out.insert((*path).to_string(), text.as_bytes().to_vec());
        }
        out
    }

    #[test]
    fn diff_tells_styles_from_pages() {
        let old = output(&[("index.html", "a"), ("style.css", "x")]);
        assert_eq!(diff(&old, &old.clone()), Change::Nothing);
        let css = output(&[("index.html", "a"), ("style.css", "y")]);
        assert_eq!(diff(&old, &css), Change::Styles);
        let html = output(&[("index.html", "b"), ("style.css", "y")]);
        assert_eq!(diff(&old, &html), Change::Pages);
        let added_css = output(&[("index.html", "a"), ("style.css", "x"), ("new.css", "")]);
        assert_eq!(
            diff(&old, &added_css),
            Change::Pages,
            "a new stylesheet needs a page that links it"
        );
    }

    #[test]
    fn a_new_search_index_reloads_nothing_and_keeps_older_chunks() {
        let first = Snapshot::empty(1)
            .succeeded(output(&[
                ("index.html", "a"),
                ("search/vi/index.json", "1"),
                ("search/vi/c/a.json", "old"),
            ]))
            .unwrap()
            .0;
        let new_index: Vec<(String, Arc<[u8]>)> = vec![
            ("search/vi/index.json".into(), Arc::from(&b"2"[..])),
            ("search/vi/c/b.json".into(), Arc::from(&b"new"[..])),
        ];
        let indexed = first.with_search(&new_index).unwrap();
        assert_eq!(indexed.version, first.version, "no reload for an index");
        let site = indexed.site.as_ref().unwrap();
        assert_eq!(site.get("search/vi/index.json"), Some(&b"2"[..]));
        assert_eq!(site.get("search/vi/c/a.json"), Some(&b"old"[..]));
        assert_eq!(site.get("search/vi/c/b.json"), Some(&b"new"[..]));
        // A rebuild whose output carries only the newest index: the page changed, the index
        // files it lacks are kept.
        let (next, change) = indexed
            .succeeded(output(&[
                ("index.html", "b"),
                ("search/vi/index.json", "2"),
            ]))
            .unwrap();
        assert_eq!(change, Change::Pages);
        let site = next.site.as_ref().unwrap();
        assert_eq!(site.get("search/vi/c/a.json"), Some(&b"old"[..]));
        assert_eq!(site.get("search/vi/c/b.json"), Some(&b"new"[..]));
        // Only the index differs: nothing to reload.
        let index_only = output(&[("index.html", "b"), ("search/vi/index.json", "3")]);
        assert_eq!(diff(site, &index_only), Change::Nothing);
    }

    #[test]
    fn version_token_round_trips() {
        let v = Version {
            instance: 17,
            pages: 2,
            styles: 0,
            error: 5,
        };
        assert_eq!(v.to_string(), "17.2.0.5");
        assert_eq!(Version::parse("17.2.0.5"), Some(v));
        assert_eq!(Version::parse("17.2.0"), None);
        assert_eq!(Version::parse("17.2.0.5.1"), None);
        assert_eq!(Version::parse("a.b.c.d"), None);
    }

    #[test]
    fn error_keeps_the_site_and_a_fix_clears_it() {
        let first = Snapshot::empty(1)
            .succeeded(output(&[("index.html", "a")]))
            .unwrap()
            .0;
        assert_eq!(first.version.pages, 1);
        let diags = Diagnostics::one(Diagnostic::new(Place::at("a.md", 2, 1), "bad"));
        let broken = first.failed(diags.clone()).unwrap();
        assert!(broken.site.is_some());
        assert_eq!(broken.version.error, 1);
        assert!(
            broken.failed(diags).is_none(),
            "the same error again changes nothing"
        );
        let (fixed, change) = broken.succeeded(output(&[("index.html", "a")])).unwrap();
        assert_eq!(change, Change::Nothing);
        assert!(fixed.error.is_none());
        assert_eq!(fixed.version.error, 2);
        assert_eq!(fixed.version.pages, 1);
        assert!(fixed.succeeded(output(&[("index.html", "a")])).is_none());
    }
}
