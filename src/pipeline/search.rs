//! The search stage of a session: which languages' articles changed since their index was
//! made, the job of indexing them (now, or later on `serve`'s own thread), and the indexes
//! kept while their articles stay the same. The index itself is [`crate::search`]'s.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::diag::Diagnostics;
use crate::markdown::Rendered;
use crate::output::Output;
use crate::site::Site;

use super::{SearchWhen, Session};

/// Indexing that a build left to do: the languages whose articles changed, each with the
/// identity of its articles (two equal jobs index the same articles) and the articles.
#[derive(Debug, Clone)]
pub struct SearchJob {
    langs: Vec<(String, blake3::Hash, Vec<Arc<SearchArticle>>)>,
}

impl PartialEq for SearchJob {
    fn eq(&self, other: &Self) -> bool {
        self.langs.len() == other.langs.len()
            && self
                .langs
                .iter()
                .zip(&other.langs)
                .all(|((l, k, _), (m, j, _))| l == m && k == j)
    }
}

impl Eq for SearchJob {}

impl SearchJob {
    /// Makes the index of each of the job's languages.
    pub fn run(&self) -> Result<SearchIndex, Diagnostics> {
        let sources: Vec<(&str, Vec<crate::search::Source<'_>>)> = self
            .langs
            .iter()
            .map(|(lang, _, articles)| {
                let sources = articles.iter().map(|a| a.source()).collect();
                (lang.as_str(), sources)
            })
            .collect();
        let langs: Vec<(&str, &[crate::search::Source<'_>])> = sources
            .iter()
            .map(|(lang, sources)| (*lang, sources.as_slice()))
            .collect();
        let mut made = crate::search::index_langs(&langs)?;
        Ok(SearchIndex {
            langs: self
                .langs
                .iter()
                .map(|(lang, key, _)| {
                    let files = made
                        .remove(lang)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(p, b)| (p, Arc::from(b)))
                        .collect();
                    (lang.clone(), *key, files)
                })
                .collect(),
        })
    }

    /// The languages to index.
    pub fn langs(&self) -> impl Iterator<Item = &str> {
        self.langs.iter().map(|(l, _, _)| l.as_str())
    }
}

/// An article as the search index reads it.
#[derive(Debug)]
pub(super) struct SearchArticle {
    /// Its index in the site's pages.
    page: usize,
    url: String,
    title: String,
    tags: Vec<String>,
    description: String,
    body: Arc<Rendered>,
    /// The identity of what the index reads of it (URL, title, tags, description, body).
    mark: [u8; 32],
}

impl SearchArticle {
    /// Page `i` of `site`, whose body (with key `body_key`, [`body_key`]) is `body`.
    pub(super) fn new(
        i: usize,
        site: &Site,
        body_key: blake3::Hash,
        body: Arc<Rendered>,
    ) -> SearchArticle {
        let p = &site.pages[i];
        let front = &p.doc.front;
        let mut h = blake3::Hasher::new();
        let description = front.description.clone().unwrap_or_default();
        for part in [&p.url, &front.title, &description]
            .into_iter()
            .chain(&front.tags)
        {
            h.update(part.as_bytes());
            h.update(b"\0");
        }
        h.update(body_key.as_bytes());
        SearchArticle {
            page: i,
            url: p.url.clone(),
            title: front.title.clone(),
            tags: front.tags.clone(),
            description,
            body,
            mark: *h.finalize().as_bytes(),
        }
    }

    fn source(&self) -> crate::search::Source<'_> {
        crate::search::Source {
            url: &self.url,
            title: &self.title,
            tags: &self.tags,
            description: &self.description,
            body: &self.body.text,
        }
    }
}

/// The search indexes a [`SearchJob`] made, by language.
#[derive(Debug, Clone)]
pub struct SearchIndex {
    langs: Vec<(String, blake3::Hash, SearchFiles)>,
}

impl SearchIndex {
    /// Every file of the indexes, paths under the output.
    pub fn files(&self) -> SearchFiles {
        self.langs
            .iter()
            .flat_map(|(_, _, files)| files.iter().cloned())
            .collect()
    }
}

/// The search index's files, shared with the outputs.
pub type SearchFiles = Vec<(String, Arc<[u8]>)>;

/// What a session keeps of the search stage.
#[derive(Default)]
pub(super) struct SearchMemo {
    /// The index of each language and the identity of the articles it was made from.
    pub(super) indexes: BTreeMap<String, (blake3::Hash, SearchFiles)>,
    /// The articles of each language in the last build, as the index reads them.
    pub(super) pages: BTreeMap<String, SearchPages>,
}

/// A language's articles as the search index reads them, and the identity of all of them.
#[derive(Debug, Default)]
pub(super) struct SearchPages {
    articles: Vec<Arc<SearchArticle>>,
    /// The exclusive or of every article's [`SearchArticle::mark`]: an edit replaces one
    /// article's mark without going through the others.
    key: [u8; 32],
}

impl SearchPages {
    fn add(&mut self, article: SearchArticle) {
        xor(&mut self.key, &article.mark);
        self.articles.push(Arc::new(article));
    }

    /// Puts `article` in the place of the article of the same page; returns whether what the
    /// index reads of it changed (false too when the page is not one of these articles).
    pub(super) fn replace(&mut self, article: SearchArticle) -> bool {
        let Some(old) = self.articles.iter_mut().find(|a| a.page == article.page) else {
            return false;
        };
        if old.mark == article.mark {
            return false;
        }
        xor(&mut self.key, &old.mark);
        xor(&mut self.key, &article.mark);
        *old = Arc::new(article);
        true
    }

    /// The identity of all the articles.
    pub(super) fn key(&self) -> blake3::Hash {
        blake3::Hash::from(self.key)
    }
}

fn xor(key: &mut [u8; 32], mark: &[u8; 32]) {
    key.iter_mut().zip(mark).for_each(|(k, m)| *k ^= m);
}

impl Session {
    /// Adds the search index of each language to `output`: kept from an earlier build while
    /// that language's articles are the same, else made now ([`SearchWhen::Now`]) or returned
    /// as a job, the earlier index standing in meanwhile ([`SearchWhen::Later`]). `bodies` are
    /// the pages' bodies, `body_keys` their keys ([`body_key`]).
    pub(super) fn search_index(
        &mut self,
        output: &mut Output,
        site: &Site,
        body_keys: &[blake3::Hash],
        bodies: &[Arc<Rendered>],
    ) -> Result<Option<SearchJob>, Diagnostics> {
        let mut by_lang: BTreeMap<String, SearchPages> = BTreeMap::new();
        for (i, (key, body)) in body_keys.iter().zip(bodies).enumerate() {
            let lang = site.pages[i].doc.lang.code().to_string();
            by_lang
                .entry(lang)
                .or_default()
                .add(SearchArticle::new(i, site, *key, body.clone()));
        }
        self.memo.search.pages = by_lang;
        let keys: Vec<(String, blake3::Hash)> = self
            .memo
            .search
            .pages
            .iter()
            .map(|(lang, pages)| (lang.clone(), pages.key()))
            .collect();
        // A language without articles any more has no index.
        self.memo
            .search
            .indexes
            .retain(|lang, _| keys.iter().any(|(l, _)| l == lang));
        let pending = self.index_stale(keys)?;
        for (_, files) in self.memo.search.indexes.values() {
            for (path, bytes) in files {
                output.insert_shared(path.clone(), bytes.clone());
            }
        }
        Ok(pending)
    }

    /// Makes now, or leaves to a job, the index of each language of `keys` whose pages are not
    /// those indexed (`keys`: each language's [`SearchPages::key`]).
    pub(super) fn index_stale(
        &mut self,
        keys: Vec<(String, blake3::Hash)>,
    ) -> Result<Option<SearchJob>, Diagnostics> {
        let stale: Vec<(String, blake3::Hash, Vec<Arc<SearchArticle>>)> = keys
            .into_iter()
            .filter(|(lang, key)| {
                self.memo
                    .search
                    .indexes
                    .get(lang)
                    .is_none_or(|(k, _)| k != key)
            })
            .map(|(lang, key)| {
                let articles = self.memo.search.pages[&lang].articles.clone();
                (lang, key, articles)
            })
            .collect();
        let job = (!stale.is_empty()).then_some(SearchJob { langs: stale });
        let pending = match (job, self.opts.search) {
            (Some(job), SearchWhen::Now) => {
                let made = job.run()?;
                self.search_done(made);
                None
            }
            (job, _) => job,
        };
        Ok(pending)
    }

    /// Keeps the indexes a [`SearchJob`] made, for the next builds while their languages'
    /// pages stay the same.
    pub fn search_done(&mut self, index: SearchIndex) {
        // The last build stands for the next ones while nothing changes: give it the index.
        if let Some((_, last)) = &mut self.memo.last {
            for (lang, _, _) in &index.langs {
                let dir = format!("{}/", crate::search::lang_dir(lang));
                last.output.remove_under(&dir);
            }
            for (path, bytes) in index.files() {
                last.output.insert_shared(path, bytes);
            }
            last.search = None;
        }
        for (lang, key, files) in index.langs {
            self.memo.search.indexes.insert(lang, (key, files));
        }
    }
}
