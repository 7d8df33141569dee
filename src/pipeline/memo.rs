//! What a session keeps between builds. A memoised stage reads `cache.get_or(key, || stage(…))`,
//! its key computed next to it: [`Cache`] holds a stage's last value, [`PerKey`] the values a
//! stage made per item (a body per article). [`Memo`] holds those caches, and the few things
//! they cannot express.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use rayon::prelude::*;

use crate::config::SiteConfig;
use crate::content::DocMemo;
use crate::experiments::Measurements;
use crate::experiments::machine::Machine;
use crate::highlight::Highlighter;
use crate::inject::ExtraPage;
use crate::markdown::Rendered;
use crate::render::PageMemo;

use super::Built;
use super::last::LastBuild;
use super::search::SearchMemo;

/// A memoised stage's last value and the key of the inputs it was made from.
pub(super) struct Cache<K, V> {
    last: Option<(K, V)>,
}

impl<K, V> Default for Cache<K, V> {
    fn default() -> Self {
        Cache { last: None }
    }
}

impl<K: PartialEq, V: Clone> Cache<K, V> {
    /// The value of inputs whose key is `key`: the last one when it was made from them, else
    /// `stage`'s, kept in its place.
    pub(super) fn get_or(&mut self, key: K, stage: impl FnOnce() -> V) -> V {
        match self.try_get_or(key, || Ok::<V, std::convert::Infallible>(stage())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    /// [`Cache::get_or`] for a stage that can fail: a failure keeps nothing.
    pub(super) fn try_get_or<E>(
        &mut self,
        key: K,
        stage: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        let value = match self.last.take() {
            Some((k, value)) if k == key => value,
            _ => stage()?,
        };
        self.last = Some((key, value.clone()));
        Ok(value)
    }

    /// Forgets the last value.
    pub(super) fn clear(&mut self) {
        self.last = None;
    }
}

/// The values a memoised stage made per item, by the key of each item's inputs: a build reuses
/// the value of a key it meets again, and keeps the values of the keys it met.
pub(super) struct PerKey<V> {
    values: HashMap<blake3::Hash, V>,
}

impl<V> Default for PerKey<V> {
    fn default() -> Self {
        PerKey {
            values: HashMap::new(),
        }
    }
}

impl<V: Clone> PerKey<V> {
    /// The value of the inputs whose key is `key`: the kept one, else `stage`'s (not kept:
    /// [`PerKey::keep`] says what stays).
    pub(super) fn get_or(&self, key: &blake3::Hash, stage: impl FnOnce() -> V) -> V {
        self.values.get(key).cloned().unwrap_or_else(stage)
    }

    /// [`PerKey::get_or`] for a stage that can fail.
    pub(super) fn try_get_or<E>(
        &self,
        key: &blake3::Hash,
        stage: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        match self.values.get(key) {
            Some(value) => Ok(value.clone()),
            None => stage(),
        }
    }

    /// Keeps these values, and no other.
    pub(super) fn retain(&mut self, values: impl IntoIterator<Item = (blake3::Hash, V)>) {
        self.values = values.into_iter().collect();
    }

    /// Keeps one more value.
    pub(super) fn insert(&mut self, key: blake3::Hash, value: V) {
        self.values.insert(key, value);
    }

    pub(super) fn clear(&mut self) {
        self.values.clear();
    }
}

impl<V: Clone + Send + Sync> PerKey<V> {
    /// The value of each of `items`, on all cores ([`PerKey::get_or`]); keeps exactly these.
    pub(super) fn par_map<T: Sync>(
        &mut self,
        items: &[T],
        key: impl Fn(&T) -> blake3::Hash + Sync,
        stage: impl Fn(&T) -> V + Sync,
    ) -> Vec<V> {
        let found: Vec<(blake3::Hash, V)> = items
            .par_iter()
            .map(|item| {
                let key = key(item);
                let value = self.get_or(&key, || stage(item));
                (key, value)
            })
            .collect();
        self.retain(found.iter().cloned());
        found.into_iter().map(|(_, value)| value).collect()
    }
}

/// The two highlight themes (light, dark) of the configuration.
pub(super) type Themes = (String, String);

/// The highlight themes of `config`.
pub(super) fn themes(config: &SiteConfig) -> Themes {
    (
        config.highlight_light.clone(),
        config.highlight_dark.clone(),
    )
}

/// What a session keeps between builds.
#[derive(Default)]
pub(super) struct Memo {
    /// Parsed articles by file stamp (the content stage's own memo: by file, not by key).
    pub(super) docs: DocMemo,
    /// The fingerprint of the configuration and theme that `pages` and `bodies` were made
    /// with: pages and bodies of another are forgotten ([`Memo::use_theme`]).
    pub(super) theme: Option<blake3::Hash>,
    /// Rendered pages by output path, reused by the render stage when their context hashes the
    /// same (the render stage's own memo: a context's hash is known inside it only).
    pub(super) pages: PageMemo,
    /// Article bodies rendered from Markdown.
    pub(super) bodies: PerKey<Arc<Rendered>>,
    /// The experiments each article refers to.
    pub(super) refs: PerKey<BTreeSet<String>>,
    /// Each article's `results.json`.
    pub(super) results_files: PerKey<Arc<[u8]>>,
    /// The machine description, read once a session.
    pub(super) machine: Cache<(), Machine>,
    /// The experiment stage's result (without `ran`: what this build ran is its own).
    pub(super) measurements: Cache<blake3::Hash, Arc<Measurements>>,
    /// The highlighter and its cache of highlighted blocks.
    pub(super) highlighter: Cache<Themes, Arc<Highlighter>>,
    /// The social cards drawn or read by this session, by the cache folder they are saved in.
    pub(super) cards: Cache<std::path::PathBuf, Arc<crate::card::CardCache>>,
    pub(super) stylesheet: Cache<Themes, String>,
    /// The experiments' source pages.
    pub(super) source_pages: Cache<blake3::Hash, Arc<Vec<ExtraPage>>>,
    /// Every page's related pages.
    pub(super) related: Cache<blake3::Hash, Arc<Vec<Vec<usize>>>>,
    /// The search indexes and the articles they were made from.
    pub(super) search: SearchMemo,
    /// The last build, and the stamp of its inputs (`None` after a build that changed bodies
    /// only, [`super::Session::build_after`], which stamps no file).
    pub(super) last: Option<(Option<blake3::Hash>, Built)>,
    /// What the last build was made from, while every build since succeeded.
    pub(super) last_build: Option<LastBuild>,
}

impl Memo {
    /// Forgets the pages and bodies made with another configuration or theme than the one of
    /// `fingerprint`.
    pub(super) fn use_theme(&mut self, fingerprint: blake3::Hash) {
        if self.theme != Some(fingerprint) {
            self.pages.clear();
            self.bodies.clear();
            self.theme = Some(fingerprint);
        }
    }
}

/// Everything besides a page's own data that its HTML depends on: configuration, templates
/// and UI strings.
pub(super) fn theme_fingerprint(config: &SiteConfig, theme: &crate::theme::Theme) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(
        std::fs::read(config.root.join("site.toml"))
            .unwrap_or_default()
            .as_slice(),
    );
    for (name, t) in &theme.templates {
        h.update(name.as_bytes());
        h.update(t.text.as_bytes());
    }
    h.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_runs_its_stage_only_for_a_new_key() {
        let mut cache: Cache<u32, String> = Cache::default();
        assert_eq!(cache.get_or(1, || "one".into()), "one");
        assert_eq!(cache.get_or(1, || panic!("run again")), "one");
        assert_eq!(cache.get_or(2, || "two".into()), "two");
        assert_eq!(cache.get_or(1, || "one again".into()), "one again");
        let failed: Result<String, ()> = cache.try_get_or(3, || Err(()));
        assert!(failed.is_err());
        assert_eq!(cache.get_or(1, || "kept nothing".into()), "kept nothing");
    }

    #[test]
    fn per_key_values_are_reused_and_only_those_met_are_kept() {
        let key = |n: &u32| blake3::hash(&n.to_le_bytes());
        let mut cache: PerKey<String> = PerKey::default();
        let made = std::sync::atomic::AtomicUsize::new(0);
        let stage = |n: &u32| {
            made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            n.to_string()
        };
        assert_eq!(cache.par_map(&[1, 2, 3], key, stage), ["1", "2", "3"]);
        assert_eq!(cache.par_map(&[3, 1, 4], key, stage), ["3", "1", "4"]);
        assert_eq!(made.into_inner(), 4, "3 and 1 were reused");
        assert_eq!(cache.get_or(&key(&2), || "gone".into()), "gone");
        assert_eq!(cache.get_or(&key(&4), || "made".into()), "4");
    }
}
