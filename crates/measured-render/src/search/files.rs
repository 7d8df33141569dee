//! The files of one language's index, from its pages: an entry, chunks of words and bundles of
//! the pages' fragments; `static/search.js` reads them.
//!
//! - `index.json`: `{"version":2,"pages":N,"set":S,"chunks":[[first,last,file],…],
//!   "bundles":[n0,n1,…]}`: which chunk holds which range of words (sorted), the folder of the
//!   fragments, and how many consecutive pages each bundle holds.
//! - `c/<hash>.json` (named by content, so a browser never mixes two versions):
//!   `{"<folded word>":{"<spelling>":[page,score,page,score,…],…},…}` for a range of words.
//!   A score is the word's BM25 weight in that page × 100, headings weighing more; a query
//!   sums them over its words.
//! - `f/<S>/<bundle>.json`: `[{"url":…,"title":…,"text":…},…]`, the fragments of the pages
//!   of bundle `b` (pages `n0 + … + n(b-1)` on), loaded for the results shown (their excerpts
//!   are cut from the text). A bundle rather than a file per page: a file costs a build far
//!   more than its bytes, and a site of 10,000 pages would write 10,000 of them. `S` is the
//!   hash of every bundle, so page numbers and texts of one version never meet another's.

use std::collections::BTreeMap;
use std::fmt::Write;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;

use super::Files;
use super::page::Page;
use super::words;

/// About how many bytes of postings a chunk holds (a word with more stays whole).
const CHUNK_BYTES: usize = 32 * 1024;
/// At most how many bytes of fragments a bundle holds (a larger page has one of its own): about
/// 20 KB of prose once a static host compresses it, so the benchmark's pages of 9 KB of text
/// share a file by seven (docs/performance.md, ninth round).
const BUNDLE_BYTES: usize = 64 * 1024;
/// A site's texts fill at least this many bundles before bundles grow to [`BUNDLE_BYTES`], and
/// a bundle may hold [`MIN_BUNDLE_BYTES`] whatever the site: a small site, whose files cost a
/// build little, keeps small bundles, so a result does not bring its neighbours' texts.
const BUNDLES: usize = 64;
const MIN_BUNDLE_BYTES: usize = 16 * 1024;
/// BM25's saturation of repeated words and its length normalisation.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The index files of `pages` (in the order their numbers follow), paths under `dir`.
pub fn build(dir: &str, pages: &[Page]) -> Files {
    let mut files = Files::new();
    let mut chunks = Vec::new();
    for (first, last, body) in chunk(&postings(pages)) {
        let name = format!("c/{}.json", &blake3::hash(body.as_bytes()).to_hex()[..12]);
        files.push((format!("{dir}/{name}"), body.into_bytes()));
        chunks.push((first, last, name));
    }
    let (set, bundles) = bundles(pages);
    let sizes: Vec<usize> = bundles.iter().map(|(n, _)| *n).collect();
    for (b, (_, body)) in bundles.into_iter().enumerate() {
        files.push((format!("{dir}/f/{set}/{b}.json"), body));
    }
    let entry = serde_json::json!({
        "version": 2,
        "pages": pages.len(),
        "set": set,
        "chunks": chunks,
        "bundles": sizes,
    });
    files.push((format!("{dir}/index.json"), entry.to_string().into_bytes()));
    files
}

/// What the search box shows of a result.
#[derive(Serialize)]
struct Fragment<'a> {
    url: &'a str,
    title: &'a str,
    text: &'a str,
}

/// The fragments of `pages` in bundles of consecutive pages of at most [`bundle_bytes`] each:
/// (pages in the bundle, JSON array of their fragments); and the set key naming them all,
/// the hash of every bundle, so a browser never mixes the bundles of two versions.
fn bundles(pages: &[Page]) -> (String, Vec<(usize, Vec<u8>)>) {
    let fragments: Vec<Vec<u8>> = pages
        .par_iter()
        .map(|page| {
            let fragment = Fragment {
                url: &page.url,
                title: &page.title,
                text: &page.text,
            };
            serde_json::to_vec(&fragment).expect("strings serialise")
        })
        .collect();
    let bound = bundle_bytes(fragments.iter().map(Vec::len).sum());
    let mut bundles: Vec<(usize, Vec<u8>)> = Vec::new();
    for fragment in fragments {
        match bundles.last_mut() {
            Some((n, body)) if body.len() + fragment.len() < bound => {
                *n += 1;
                body.push(b',');
                body.extend_from_slice(&fragment);
            }
            _ => bundles.push((1, [b"[".as_slice(), &fragment].concat())),
        }
    }
    bundles.iter_mut().for_each(|(_, body)| body.push(b']'));
    let hashes: Vec<blake3::Hash> = bundles.par_iter().map(|(_, b)| blake3::hash(b)).collect();
    let mut set = blake3::Hasher::new();
    hashes.iter().for_each(|h| {
        set.update(h.as_bytes());
    });
    (set.finalize().to_hex()[..10].to_string(), bundles)
}

/// How many bytes a bundle may hold when the fragments come to `total` bytes.
fn bundle_bytes(total: usize) -> usize {
    (total / BUNDLES).clamp(MIN_BUNDLE_BYTES, BUNDLE_BYTES)
}

/// Folded word → spelling → (page, score), pages in increasing order.
type Postings = BTreeMap<String, BTreeMap<String, Vec<(u32, u32)>>>;

/// A spelling and the (page, weighted count) of each page it is in.
type Found = (String, Vec<(u32, u32)>);

/// Every word of every page with its score in that page.
fn postings(pages: &[Page]) -> Postings {
    // (page, weighted count) per word as written, pages in order; each form seen once.
    let mut ids: FxHashMap<&str, usize> = FxHashMap::default();
    let mut forms: Vec<(&str, Vec<(u32, u32)>)> = Vec::new();
    for (page, p) in pages.iter().enumerate() {
        for (word, count) in p.written() {
            let id = *ids.entry(word).or_insert_with(|| {
                forms.push((word, Vec::new()));
                forms.len() - 1
            });
            forms[id].1.push((page as u32, count));
        }
    }
    // Each form spelled once (`Kết` and `kết` are `kết`), the pages of a spelling's forms
    // merged.
    let mut spelled: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
    let (mut spelling, mut scratch) = (String::new(), String::new());
    for (word, found) in forms {
        spelling.clear();
        words::push_spelling(&mut spelling, word, &mut scratch);
        match spelled.get_mut(spelling.as_str()) {
            Some(pages) => *pages = merge(pages, &found),
            None => {
                spelled.insert(spelling.clone(), found);
            }
        }
    }
    let mut grouped: BTreeMap<String, Vec<Found>> = BTreeMap::new();
    for (spelling, found) in spelled {
        grouped
            .entry(words::fold(&spelling))
            .or_default()
            .push((spelling, found));
    }
    let n = pages.len() as f64;
    let average = pages.iter().map(|p| f64::from(p.len)).sum::<f64>() / n.max(1.0);
    let norms: Vec<f64> = pages
        .iter()
        .map(|p| K1 * (1.0 - B + B * f64::from(p.len) / average.max(1.0)))
        .collect();
    let mut seen = Vec::new();
    grouped
        .into_iter()
        .map(|(key, spellings)| {
            // Pages with any spelling of the word.
            let df = if spellings.len() == 1 {
                spellings[0].1.len()
            } else {
                seen.clear();
                seen.extend(
                    spellings
                        .iter()
                        .flat_map(|(_, f)| f.iter().map(|(id, _)| *id)),
                );
                seen.sort_unstable();
                seen.dedup();
                seen.len()
            } as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            let spellings = spellings
                .into_iter()
                .map(|(spelling, found)| {
                    let scored = found
                        .into_iter()
                        .map(|(id, count)| {
                            let tf = f64::from(count);
                            let score = idf * tf * (K1 + 1.0) / (tf + norms[id as usize]);
                            (id, ((score * 100.0).round() as u32).max(1))
                        })
                        .collect();
                    (spelling, scored)
                })
                .collect();
            (key, spellings)
        })
        .collect()
}

/// Two lists of (page, count) in page order as one, the counts of a page in both summed.
fn merge(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[i].0, a[i].1 + b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The postings as JSON objects of about [`CHUNK_BYTES`] each: (first word, last word, JSON).
fn chunk(postings: &Postings) -> Vec<(String, String, String)> {
    let mut chunks = Vec::new();
    let mut body = String::new();
    let mut first: Option<&str> = None;
    let mut last = "";
    for (key, spellings) in postings {
        body.push(if first.is_none() { '{' } else { ',' });
        first.get_or_insert(key);
        last = key;
        push_json_string(&mut body, key);
        body.push_str(":{");
        for (i, (spelling, found)) in spellings.iter().enumerate() {
            if i > 0 {
                body.push(',');
            }
            push_json_string(&mut body, spelling);
            body.push_str(":[");
            for (j, (id, score)) in found.iter().enumerate() {
                let sep = if j > 0 { "," } else { "" };
                let _ = write!(body, "{sep}{id},{score}");
            }
            body.push(']');
        }
        body.push('}');
        if body.len() >= CHUNK_BYTES {
            body.push('}');
            chunks.push((
                first.take().unwrap_or_default().to_string(),
                last.to_string(),
                std::mem::take(&mut body),
            ));
        }
    }
    if let Some(first) = first {
        body.push('}');
        chunks.push((first.to_string(), last.to_string(), body));
    }
    chunks
}

fn push_json_string(out: &mut String, s: &str) {
    // serde_json's string escaping (quotes, backslashes, control characters), without making
    // a `Value` (a copy of the string) for each of the index's words.
    out.push_str(&serde_json::to_string(s).expect("a string serialises"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Source, Text, page};

    /// Pages of (URL, title, body as HTML).
    fn pages(articles: &[(&str, &str, &str)]) -> Vec<Page> {
        articles
            .iter()
            .map(|(url, title, html)| {
                let mut body = Text::default();
                body.push_html(html);
                page::of_article(&Source {
                    url,
                    title,
                    tags: &[],
                    description: "",
                    body: &body,
                })
            })
            .collect()
    }

    fn json(files: &Files, path: &str) -> serde_json::Value {
        let (_, bytes) = files.iter().find(|(p, _)| p == path).unwrap_or_else(|| {
            panic!(
                "{path} not in {:?}",
                files.iter().map(|(p, _)| p).collect::<Vec<_>>()
            )
        });
        serde_json::from_slice(bytes).unwrap()
    }

    /// The postings of folded word `key`, looked up through the entry as search.js does.
    fn lookup(files: &Files, key: &str) -> serde_json::Value {
        let entry = json(files, "s/index.json");
        for c in entry["chunks"].as_array().unwrap() {
            let (first, last) = (c[0].as_str().unwrap(), c[1].as_str().unwrap());
            if first <= key && key <= last {
                return json(files, &format!("s/{}", c[2].as_str().unwrap()))[key].clone();
            }
        }
        serde_json::Value::Null
    }

    #[test]
    fn words_are_found_under_their_folded_key_with_each_spelling_apart() {
        let pages = pages(&[
            ("/a/", "Kết nối", "<p>kẹt xe</p>"),
            ("/b/", "", "<p>Đường truyền và kết quả</p>"),
        ]);
        let files = build("s", &pages);
        let ket = lookup(&files, "ket");
        assert_eq!(ket["kết"].as_array().unwrap().len(), 4, "{ket}");
        assert_eq!(ket["kết"][0], 0);
        assert_eq!(ket["kết"][2], 1);
        assert_eq!(ket["kẹt"][0], 0);
        assert!(lookup(&files, "duong")["đường"].is_array());
        assert!(lookup(&files, "kết").is_null(), "keys are folded");
    }

    #[test]
    fn the_forms_of_a_spelling_are_one_entry_per_page() {
        let pages = pages(&[
            ("/a/", "", "<p>Kết nối, kết nối, KẾT</p>"),
            ("/b/", "", "<p>kết một hai ba bốn</p>"),
        ]);
        let files = build("s", &pages);
        let ket = lookup(&files, "ket");
        assert_eq!(ket.as_object().unwrap().len(), 1, "{ket}");
        let found = ket["kết"].as_array().unwrap();
        assert_eq!(
            (found.len(), &found[0], &found[2]),
            (4, &0.into(), &1.into())
        );
        assert!(
            found[1].as_u64() > found[3].as_u64(),
            "three times outscores once: {ket}"
        );
    }

    #[test]
    fn lists_of_pages_merge_in_order_summing_counts() {
        assert_eq!(
            merge(&[(0, 1), (2, 5), (7, 1)], &[(1, 1), (2, 2), (9, 3)]),
            [(0, 1), (1, 1), (2, 7), (7, 1), (9, 3)]
        );
    }

    #[test]
    fn a_word_in_the_title_outscores_the_same_word_in_a_paragraph() {
        let pages = pages(&[
            ("/a/", "Handshake", "<p>one two three</p>"),
            ("/b/", "Other", "<p>handshake four five</p>"),
            ("/c/", "Third", "<p>six seven</p>"),
        ]);
        let files = build("s", &pages);
        let found = &lookup(&files, "handshake")["handshake"];
        assert_eq!((found[0].as_u64(), found[2].as_u64()), (Some(0), Some(1)));
        assert!(found[1].as_u64() > found[3].as_u64(), "{found}");
        // A word in every page says less than a rarer one.
        let other = &lookup(&files, "other")["other"];
        assert!(other[1].as_u64() > Some(0));
    }

    /// The fragment of page `id`, found through the entry's bundles as search.js does.
    fn fragment(files: &Files, id: usize) -> serde_json::Value {
        let entry = json(files, "s/index.json");
        let set = entry["set"].as_str().unwrap();
        let mut first = 0;
        for (b, n) in entry["bundles"].as_array().unwrap().iter().enumerate() {
            let n = n.as_u64().unwrap() as usize;
            if id < first + n {
                return json(files, &format!("s/f/{set}/{b}.json"))[id - first].clone();
            }
            first += n;
        }
        panic!("page {id} is in no bundle: {entry}")
    }

    #[test]
    fn fragments_carry_url_title_and_text_under_the_set_of_pages() {
        let pages = pages(&[("/en/x/", "T & U", "<p>body</p>")]);
        let files = build("s", &pages);
        let entry = json(&files, "s/index.json");
        assert_eq!(entry["pages"], 1);
        let fragment = fragment(&files, 0);
        assert_eq!(fragment["url"], "/en/x/");
        assert_eq!(fragment["title"], "T & U");
        assert_eq!(fragment["text"], "T & U body");
        let renamed = build("s", &pages_named(&["/en/y/"]));
        assert_ne!(json(&renamed, "s/index.json")["set"], entry["set"]);
        let edited = build("s", &self::pages(&[("/en/x/", "T & U", "<p>edited</p>")]));
        assert_ne!(
            json(&edited, "s/index.json")["set"],
            entry["set"],
            "another text is another set: a browser never mixes the two"
        );
    }

    /// The bundles of `files` as (path, bytes, pages held), and the entry's count of each.
    fn bundles_of(files: &Files) -> Vec<(&str, usize, usize)> {
        let entry = json(files, "s/index.json");
        let sizes = entry["bundles"].as_array().unwrap();
        let set = entry["set"].as_str().unwrap();
        let found: Vec<(&str, usize, usize)> = files
            .iter()
            .filter(|(p, _)| p.contains("/f/"))
            .map(|(p, bytes)| {
                let held = serde_json::from_slice::<Vec<serde_json::Value>>(bytes).unwrap();
                (p.as_str(), bytes.len(), held.len())
            })
            .collect();
        assert_eq!(found.len(), sizes.len(), "{entry}");
        for (b, (path, _, held)) in found.iter().enumerate() {
            assert_eq!(*path, format!("s/f/{set}/{b}.json"));
            assert_eq!(Some(*held as u64), sizes[b].as_u64(), "{path}");
        }
        found
    }

    /// `n` pages of about 1.4 KB of text each, and a page larger than any bundle at `huge`.
    fn many(n: usize, huge: usize) -> (Vec<String>, Files) {
        let text: String = (0..200).map(|i| format!("từ{i} ")).collect();
        let big: String = (0..20_000).map(|i| format!("w{i} ")).collect();
        let urls: Vec<String> = (0..n).map(|i| format!("/p{i}/")).collect();
        let bodies: Vec<String> = (0..n)
            .map(|i| format!("<p>{}</p>", if i == huge { &big } else { &text }))
            .collect();
        let articles: Vec<(&str, &str, &str)> = urls
            .iter()
            .zip(&bodies)
            .map(|(url, html)| (url.as_str(), "", html.as_str()))
            .collect();
        let files = build("s", &pages(&articles));
        (urls, files)
    }

    #[test]
    fn a_large_site_shares_bundles_of_consecutive_pages_up_to_the_bound() {
        let (urls, files) = many(2000, 1000);
        let bundles = bundles_of(&files);
        assert_eq!(bundles.iter().map(|b| b.2).sum::<usize>(), 2000);
        for (path, bytes, held) in &bundles {
            assert!(
                *bytes <= BUNDLE_BYTES || *held == 1,
                "{path}: {bytes} bytes for {held} pages"
            );
        }
        assert!(
            bundles.len() * 20 < 2000,
            "pages of 1.4 KB share files by more than 20: {} bundles",
            bundles.len()
        );
        for id in [0, 999, 1000, 1001, 1999] {
            assert_eq!(fragment(&files, id)["url"], urls[id], "page {id}");
        }
    }

    #[test]
    fn a_small_site_keeps_small_bundles() {
        let (urls, files) = many(40, 20);
        let bundles = bundles_of(&files);
        for (path, bytes, held) in &bundles {
            assert!(
                *bytes <= MIN_BUNDLE_BYTES || *held == 1,
                "{path}: {bytes} bytes for {held} pages"
            );
        }
        assert!(bundles.len() > 4, "{bundles:?}");
        assert_eq!(fragment(&files, 39)["url"], urls[39]);
    }

    fn pages_named(paths: &[&str]) -> Vec<Page> {
        pages(
            &paths
                .iter()
                .map(|p| (*p, "T & U", "<p>body</p>"))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn large_indexes_split_into_ordered_chunks_named_by_content() {
        let body: String = (0..6000).map(|i| format!("w{i:05} ")).collect();
        let pages = pages(&[("/a/", "", body.as_str())]);
        let files = build("s", &pages);
        let entry = json(&files, "s/index.json");
        let chunks = entry["chunks"].as_array().unwrap();
        assert!(chunks.len() > 2, "{}", chunks.len());
        for pair in chunks.windows(2) {
            assert!(pair[0][1].as_str() < pair[1][0].as_str(), "{pair:?}");
        }
        for c in chunks {
            let name = c[2].as_str().unwrap();
            let (_, bytes) = files
                .iter()
                .find(|(p, _)| *p == format!("s/{name}"))
                .unwrap();
            assert!(name.contains(&blake3::hash(bytes).to_hex()[..12]));
            serde_json::from_slice::<serde_json::Value>(bytes).unwrap();
        }
        assert!(lookup(&files, "w04321")["w04321"].is_array());
    }
}
