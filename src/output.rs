//! The built site in memory: output paths (relative, `/`-separated) → bytes. `build` writes it
//! to disk, `serve` serves it from memory.
//!
//! A persistent map (`imbl`): a copy costs nothing and shares every file and most of the tree
//! with the original, so a rebuild that changes a few pages of a large site copies a few
//! paths, not the whole site, and two versions compare by their differences only.

use std::sync::Arc;

/// The files of a built site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    pub files: imbl::OrdMap<String, Arc<[u8]>>,
}

impl Output {
    pub fn insert(&mut self, path: String, bytes: Vec<u8>) {
        self.files.insert(path, Arc::from(bytes));
    }

    /// Inserts bytes shared with a memo (no copy).
    pub fn insert_shared(&mut self, path: String, bytes: Arc<[u8]>) {
        self.files.insert(path, bytes);
    }

    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(|b| &b[..])
    }

    /// The text of an output file (tests and checks).
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
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}
