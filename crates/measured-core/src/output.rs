//! The built site: output paths (relative, `/`-separated) → bytes. `serve` serves it from
//! memory; `build` writes it, most of it while it renders (a [`Store`]), keeping of each file
//! written only what the checks of the finished site read.
//!
//! A persistent map (`imbl`): a copy costs nothing and shares every file and most of the tree
//! with the original, so a rebuild that changes a few pages of a large site copies a few
//! paths, not the whole site, and two versions compare by their differences only.

use std::sync::Arc;

use crate::diag::Diagnostic;

/// The files of a built site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    /// The files held in memory.
    pub files: imbl::OrdMap<String, Arc<[u8]>>,
    /// The files already written to a [`Store`], each with the ids it carries (an HTML page's;
    /// none for other files), which is all the checks read of them.
    pub written: imbl::OrdMap<String, Ids>,
}

/// The values of a page's `id` attributes, in order, repeats included.
pub type Ids = Arc<[Box<str>]>;

/// Where a build that writes its files as it renders them puts them (the staging folder of
/// the write stage), from many rendering threads at once.
pub trait Store: Sync {
    /// Writes `bytes` as the output file `path`.
    fn put(&self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic>;
}

/// An output file as rendering hands it on: held, or written, with what the checks read of it.
#[derive(Debug)]
pub enum Placed {
    Held(Arc<[u8]>),
    Written(Ids),
}

/// Writes the file `path` to `store` if there is one (on the caller's thread), else holds it.
pub fn place(
    store: Option<&dyn Store>,
    path: &str,
    bytes: Arc<[u8]>,
) -> Result<Placed, Diagnostic> {
    let Some(store) = store else {
        return Ok(Placed::Held(bytes));
    };
    store.put(path, &bytes)?;
    let ids = if path.ends_with(".html") {
        id_ranges(&bytes)
            .map(|r| Box::from(&*String::from_utf8_lossy(&bytes[r])))
            .collect()
    } else {
        Arc::from([])
    };
    Ok(Placed::Written(ids))
}

/// Where the values of the `id="…"` attributes of an HTML page are (an `id` after whitespace,
/// not the end of `data-id`), read from its bytes: a written page is scanned once, in the
/// rendering loop, without checking the whole page's UTF-8. Each range lies between ASCII
/// quotes, so it cuts a text at character boundaries.
fn id_ranges(html: &[u8]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    memchr::memmem::find_iter(html, b"id=\"").filter_map(move |at| {
        if !html[..at].last()?.is_ascii_whitespace() {
            return None;
        }
        let start = at + 4;
        memchr::memchr(b'"', &html[start..]).map(|len| start..start + len)
    })
}

/// The values of the `id="…"` attributes of an HTML text ([`id_ranges`]).
pub fn ids(html: &str) -> impl Iterator<Item = &str> {
    id_ranges(html.as_bytes()).map(move |r| &html[r])
}

impl Output {
    /// Holds `bytes` at `path` (in the place of a file written there before).
    pub fn insert(&mut self, path: String, bytes: Vec<u8>) {
        self.insert_shared(path, Arc::from(bytes));
    }

    /// Holds bytes shared with a memo (no copy).
    pub fn insert_shared(&mut self, path: String, bytes: Arc<[u8]>) {
        self.written.remove(&path);
        self.files.insert(path, bytes);
    }

    /// Adds a file as [`place`] handed it on.
    pub fn insert_placed(&mut self, path: String, placed: Placed) {
        match placed {
            Placed::Held(bytes) => self.insert_shared(path, bytes),
            Placed::Written(ids) => {
                self.files.remove(&path);
                self.written.insert(path, ids);
            }
        }
    }

    /// The bytes of a file held in memory.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(|b| &b[..])
    }

    /// Whether the site has a file at `path`, held or written.
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path) || self.written.contains_key(path)
    }

    /// `f` of the ids of the file at `path` (none for a file that is not HTML), if the site has
    /// it.
    pub fn with_ids<R>(
        &self,
        path: &str,
        f: impl FnOnce(&mut dyn Iterator<Item = &str>) -> R,
    ) -> Option<R> {
        if let Some(ids) = self.written.get(path) {
            return Some(f(&mut ids.iter().map(|id| &**id)));
        }
        let bytes = self.files.get(path)?;
        if !path.ends_with(".html") {
            return Some(f(&mut std::iter::empty()));
        }
        Some(f(&mut ids(&String::from_utf8_lossy(bytes))))
    }

    /// The paths of every HTML file, held or written.
    pub fn html_paths(&self) -> impl Iterator<Item = &String> {
        self.files
            .keys()
            .chain(self.written.keys())
            .filter(|p| p.ends_with(".html"))
    }

    /// The text of a file held in memory (tests and checks).
    pub fn text(&self, path: &str) -> Option<String> {
        self.get(path)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// Removes every file under the folder `dir` (a path ending in `/`).
    pub fn remove_under(&mut self, dir: &str) {
        let under: Vec<String> = self
            .files
            .range(dir.to_string()..)
            .take_while(|(path, _)| path.starts_with(dir))
            .map(|(path, _)| path.clone())
            .collect();
        for path in under {
            self.files.remove(&path);
        }
        let written: Vec<String> = self
            .written
            .range(dir.to_string()..)
            .take_while(|(path, _)| path.starts_with(dir))
            .map(|(path, _)| path.clone())
            .collect();
        for path in written {
            self.written.remove(&path);
        }
    }

    /// How many files the site has, held or written.
    pub fn len(&self) -> usize {
        self.files.len() + self.written.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A store that records what it was given.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<(String, Vec<u8>)>>);

    impl Store for Recorder {
        fn put(&self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
            self.0.lock().unwrap().push((path.into(), bytes.into()));
            Ok(())
        }
    }

    #[test]
    fn a_written_file_keeps_its_ids_and_not_its_bytes() {
        let store = Recorder::default();
        let html: Arc<[u8]> =
            Arc::from(b"<h2 id=\"a\">x</h2><p data-id=\"b\" id=\"a\">".as_slice());
        let mut output = Output::default();
        let placed = place(Some(&store), "x/index.html", html.clone()).unwrap();
        output.insert_placed("x/index.html".into(), placed);
        let placed = place(Some(&store), "x/data.json", Arc::from(b"{}".as_slice())).unwrap();
        output.insert_placed("x/data.json".into(), placed);
        assert_eq!(
            *store.0.lock().unwrap(),
            [
                ("x/index.html".to_string(), html.to_vec()),
                ("x/data.json".to_string(), b"{}".to_vec())
            ]
        );
        assert_eq!(output.get("x/index.html"), None, "the bytes are not held");
        assert!(output.contains("x/index.html") && output.contains("x/data.json"));
        let ids = output.with_ids("x/index.html", |ids| ids.collect::<Vec<_>>().join(" "));
        assert_eq!(ids.as_deref(), Some("a a"));
        assert_eq!(output.html_paths().collect::<Vec<_>>(), ["x/index.html"]);
        assert_eq!(output.len(), 2);
        // A file held later in the same place replaces the written one, as a later insert does.
        output.insert("x/data.json".into(), b"[]".to_vec());
        assert_eq!(
            (output.len(), output.get("x/data.json")),
            (2, Some(&b"[]"[..]))
        );
    }

    #[test]
    fn ids_read_from_bytes_are_the_ids_read_from_text() {
        let html = "id=\"start\"><h2 id=\"Kết-nối\">x</h2><p data-id=\"b\"\nid=\"c\">\
                    <a\tid=\"d\" href=\"#\">id=\"no\"</a><i id=\"unclosed";
        let from_text: Vec<&str> = ids(html).collect();
        let from_bytes: Vec<String> = id_ranges(html.as_bytes())
            .map(|r| String::from_utf8(html.as_bytes()[r].to_vec()).unwrap())
            .collect();
        assert_eq!(from_text, ["Kết-nối", "c", "d"]);
        assert_eq!(from_bytes, from_text);
    }

    #[test]
    fn without_a_store_files_are_held_and_read_the_same() {
        let mut output = Output::default();
        let html: Arc<[u8]> =
            Arc::from(b"<h2 id=\"a\">x</h2><p data-id=\"b\" id=\"a\">".as_slice());
        output.insert_placed(
            "i.html".into(),
            place(None, "i.html", html.clone()).unwrap(),
        );
        assert_eq!(output.get("i.html"), Some(&html[..]));
        let ids = output.with_ids("i.html", |ids| ids.collect::<Vec<_>>().join(" "));
        assert_eq!(ids.as_deref(), Some("a a"));
        assert_eq!(output.with_ids("nope.html", |ids| ids.count()), None);
    }
}
