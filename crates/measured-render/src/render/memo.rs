//! The page memo: a session's next build renders a page again only when its template context
//! hashes differently from the previous build's. Hashing a context costs more than rendering it,
//! so a build that no other follows (`measured build`) hashes nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tera::Value;

use measured_core::diag::Diagnostic;

/// Pages rendered by an earlier build of the same session: output path → (hash of the
/// template's inputs, bytes). A page whose inputs hash the same is not rendered again.
pub type PageMemo = HashMap<String, (blake3::Hash, Arc<[u8]>)>;

/// The pages of the previous build to reuse, and those of this build, kept for the next.
pub(super) struct Reuse<'a> {
    previous: &'a PageMemo,
    fresh: Mutex<PageMemo>,
}

impl<'a> Reuse<'a> {
    pub(super) fn new(previous: &'a PageMemo) -> Self {
        Reuse {
            previous,
            fresh: Mutex::new(PageMemo::new()),
        }
    }

    /// The bytes of `path`: the previous build's when `template`, `context` and the page's
    /// `site` values hash as they did, else `render`'s; kept for the next build either way.
    /// The UI strings (`t`) are not in the key: they change only with the theme, which empties
    /// the memo; `site` is, since whether a language has tags (its header's link) changes
    /// with the articles.
    pub(super) fn get_or(
        &self,
        path: &str,
        template: &str,
        context: &Value,
        site: Option<&Value>,
        render: impl FnOnce() -> Result<Arc<[u8]>, Diagnostic>,
    ) -> Result<Arc<[u8]>, Diagnostic> {
        let key = page_key(template, context, site);
        let bytes = match self.previous.get(path) {
            Some((k, bytes)) if *k == key => bytes.clone(),
            _ => render()?,
        };
        self.fresh
            .lock()
            .expect("page memo")
            .insert(path.to_string(), (key, bytes.clone()));
        Ok(bytes)
    }

    /// The pages of this build, for the next.
    pub(super) fn into_fresh(self) -> PageMemo {
        self.fresh.into_inner().unwrap_or_default()
    }
}

/// The identity of a page: its template and its context.
fn page_key(template: &str, context: &Value, site: Option<&Value>) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(template.as_bytes());
    hash_value(&mut hasher, context);
    if let Some(site) = site {
        hash_value(&mut hasher, site);
    }
    hasher.finalize()
}

/// Feeds a template value into a hasher, the same way for the same value: maps in key order
/// (Tera's own maps iterate in no fixed order), every item tagged with its kind and length so
/// that two different values never feed the same bytes. Strings go in raw: no copy, no escaping.
fn hash_value(h: &mut blake3::Hasher, value: &Value) {
    use tera::value::ValueKind;
    let kind = value.kind();
    h.update(value.name().as_bytes());
    match kind {
        ValueKind::String => {
            let s = value.as_str().unwrap_or_default();
            h.update(&[u8::from(value.is_safe())]);
            h.update(&(s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        }
        ValueKind::Bytes => {
            let b = value.as_bytes().unwrap_or_default();
            h.update(&(b.len() as u64).to_le_bytes());
            h.update(b);
        }
        ValueKind::Array => {
            let items = value.as_array().unwrap_or_default();
            h.update(&(items.len() as u64).to_le_bytes());
            for item in items {
                hash_value(h, item);
            }
        }
        ValueKind::Map => {
            let mut entries: Vec<_> = value.as_map().into_iter().flatten().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            h.update(&(entries.len() as u64).to_le_bytes());
            for (key, item) in entries {
                let key = key.to_string();
                h.update(&(key.len() as u64).to_le_bytes());
                h.update(key.as_bytes());
                hash_value(h, item);
            }
        }
        // Numbers, booleans, none: short, and their display is exact.
        _ => {
            let text = value.to_string();
            h.update(&(text.len() as u64).to_le_bytes());
            h.update(text.as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(value: &serde_json::Value) -> blake3::Hash {
        page_key("t.html", &Value::from_serializable(value), None)
    }

    #[test]
    fn equal_contexts_hash_the_same_and_different_ones_differently() {
        let a = serde_json::json!({ "meta": { "title": "A", "n": 1 }, "items": ["x", "y"] });
        assert_eq!(key(&a), key(&a.clone()));
        for other in [
            serde_json::json!({ "meta": { "title": "B", "n": 1 }, "items": ["x", "y"] }),
            serde_json::json!({ "meta": { "title": "A", "n": 2 }, "items": ["x", "y"] }),
            serde_json::json!({ "meta": { "title": "A", "n": 1 }, "items": ["xy"] }),
            serde_json::json!({ "meta": { "title": "A", "n": 1 }, "items": ["x", "y"], "more": null }),
        ] {
            assert_ne!(key(&a), key(&other), "{other}");
        }
        assert_ne!(
            page_key("t.html", &Value::from_serializable(&a), None),
            page_key("u.html", &Value::from_serializable(&a), None)
        );
    }

    #[test]
    fn a_page_is_rendered_again_only_when_its_context_or_site_changed() {
        let context = Value::from_serializable(&serde_json::json!({ "title": "A" }));
        let site = Value::from_serializable(&serde_json::json!({ "tags_url": null }));
        let empty = PageMemo::new();
        let first = Reuse::new(&empty);
        let rendered = first
            .get_or("a.html", "t.html", &context, Some(&site), || {
                Ok(Arc::from(&b"one"[..]))
            })
            .unwrap();
        assert_eq!(&*rendered, b"one");
        let previous = first.into_fresh();
        let second = Reuse::new(&previous);
        let kept = second
            .get_or("a.html", "t.html", &context, Some(&site), || {
                panic!("rendered again")
            })
            .unwrap();
        assert_eq!(&*kept, b"one");
        let changed = Value::from_serializable(&serde_json::json!({ "title": "B" }));
        let again = second
            .get_or("a.html", "t.html", &changed, Some(&site), || {
                Ok(Arc::from(&b"two"[..]))
            })
            .unwrap();
        assert_eq!(&*again, b"two");
        // A language's first tag links its tag index from the header of every page.
        let tagged = Value::from_serializable(&serde_json::json!({ "tags_url": "/tags/" }));
        let third = Reuse::new(&previous);
        let linked = third
            .get_or("a.html", "t.html", &context, Some(&tagged), || {
                Ok(Arc::from(&b"three"[..]))
            })
            .unwrap();
        assert_eq!(&*linked, b"three");
    }
}
