//! Cards kept between builds, as the highlight cache keeps highlighted code: one PNG a card in
//! `.measured/cards/<key>.png`, the key a hash of what the card shows ([`Card::key`]). A warm
//! build reads the file instead of laying out and rasterising again; a card no build of this
//! session used is removed when the build is done, so the folder does not grow forever.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::Card;

/// The cards of a session: in memory once read or drawn, and on disk for the next build.
#[derive(Debug, Default)]
pub struct CardCache {
    dir: Option<PathBuf>,
    /// Cards read or drawn by this session, by key.
    cards: Mutex<HashMap<String, Arc<[u8]>>>,
    /// Keys the session's builds used: the ones `prune` keeps.
    used: Mutex<HashSet<String>>,
    /// Cards rasterised since this cache was made (not found in memory or on disk).
    drawn: AtomicUsize,
}

impl CardCache {
    /// A cache whose files live in `dir` (made when the first card is saved).
    pub fn in_dir(dir: &Path) -> CardCache {
        CardCache {
            dir: Some(dir.to_path_buf()),
            ..CardCache::default()
        }
    }

    /// The PNG of `card`: remembered, read from the cache folder, or drawn (and saved there).
    pub fn png(&self, card: &Card) -> Result<Arc<[u8]>, String> {
        let key = card.key();
        self.used.lock().expect("card cache").insert(key.clone());
        if let Some(png) = self.cards.lock().expect("card cache").get(&key) {
            return Ok(png.clone());
        }
        let file = self.dir.as_ref().map(|d| d.join(format!("{key}.png")));
        let png: Arc<[u8]> = match file.as_ref().and_then(|f| std::fs::read(f).ok()) {
            Some(bytes) if bytes.starts_with(b"\x89PNG") => Arc::from(bytes),
            _ => {
                let bytes = card.png()?;
                self.drawn.fetch_add(1, Ordering::Relaxed);
                if let Some(file) = &file {
                    // A card that cannot be saved only costs time in the next build.
                    let _ = std::fs::create_dir_all(file.parent().expect("in a folder"))
                        .and_then(|()| measured_core::atomic::file(file, &bytes));
                }
                Arc::from(bytes)
            }
        };
        self.cards
            .lock()
            .expect("card cache")
            .insert(key, png.clone());
        Ok(png)
    }

    /// How many cards were rasterised since this cache was made.
    pub fn drawn(&self) -> usize {
        self.drawn.load(Ordering::Relaxed)
    }

    /// Removes the cache folder's cards that no build of this session used.
    pub fn prune(&self) -> std::io::Result<()> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        let used = self.used.lock().expect("card cache");
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Some(key) = name.strip_suffix(".png") else {
                continue;
            };
            if !used.contains(key) {
                std::fs::remove_file(entry.path())?;
            }
        }
        Ok(())
    }
}
