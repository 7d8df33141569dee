//! Watching the site's sources: a notify debouncer on `content/`, `pages/`, `templates/`,
//! `static/`, `machines/`, `site.toml` and each experiment (never `experiments/target`, `.measured/` or
//! `public/`), and the rules that turn file events into a [`Changes`] worth a rebuild or into
//! nothing.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{
    DebounceEventHandler, DebouncedEvent, Debouncer, RecommendedCache, new_debouncer,
};

/// How long a path must stay quiet before its events are delivered.
pub const DEBOUNCE: Duration = Duration::from_millis(25);

/// How often the debouncer looks for quiet paths (its default, a quarter of [`DEBOUNCE`],
/// adds up to 12 ms to every save).
const TICK: Duration = Duration::from_millis(5);

/// The source folders watched recursively (experiments are watched one by one).
const TREES: [&str; 5] = ["content", "pages", "templates", "static", "machines"];

/// What part of the site a changed file belongs to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Config,
    Content,
    Templates,
    Static,
    /// An experiment's source, by folder name.
    Experiment(String),
    /// Imported machines' results (`machines/`).
    Machines,
    /// The watcher lost events: anything may have changed.
    Unknown,
}

/// The relevant changes of one or more batches of events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    pub kinds: BTreeSet<Kind>,
    /// Changed paths relative to the root.
    pub paths: BTreeSet<PathBuf>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn merge(&mut self, other: Changes) {
        self.kinds.extend(other.kinds);
        self.paths.extend(other.paths);
    }
}

/// The kind of source `rel` (relative to the site root) is, or `None` when a change to it
/// must not rebuild: output, caches, build folders and editors' temporary files.
pub fn classify(rel: &Path) -> Option<Kind> {
    let parts: Vec<&str> = rel
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if parts.iter().any(|name| is_editor_temp(name)) {
        return None;
    }
    match parts[..] {
        ["site.toml"] => Some(Kind::Config),
        ["content", ..] | ["pages", ..] => Some(Kind::Content),
        ["templates", ..] => Some(Kind::Templates),
        ["static", ..] => Some(Kind::Static),
        ["machines", ..] => Some(Kind::Machines),
        ["experiments", "target", ..] => None,
        ["experiments", name, ..] => Some(Kind::Experiment(name.to_string())),
        _ => None,
    }
}

/// Editors' swap, backup and lock files (`.#x`, `x~`, `.x.swp`, `#x#`, vim's `4913`) and other
/// hidden files.
pub fn is_editor_temp(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || (name.starts_with('#') && name.ends_with('#'))
        || name == "4913"
        || [".swp", ".swo", ".swx", ".tmp", ".crdownload"]
            .iter()
            .any(|ext| name.ends_with(ext))
}

/// The relevant changes in a batch of debounced events under `root`.
pub fn changes(root: &Path, events: &[DebouncedEvent]) -> Changes {
    let mut out = Changes::default();
    for event in events {
        if event.need_rescan() {
            out.kinds.insert(Kind::Unknown);
            continue;
        }
        if matches!(event.kind, EventKind::Access(_)) {
            continue;
        }
        for path in &event.paths {
            let Ok(rel) = path.strip_prefix(root) else {
                continue;
            };
            if let Some(kind) = classify(rel) {
                out.kinds.insert(kind);
                out.paths.insert(rel.to_path_buf());
            }
        }
    }
    out
}

/// The debouncer and the folders it watches; [`Watcher::refresh`] follows folders that appear
/// or disappear (a new experiment, a `static/` created after start).
pub struct Watcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    root: PathBuf,
    watched: BTreeSet<PathBuf>,
}

impl Watcher {
    /// Starts watching `root` (an absolute, canonical path); events go to `handler`.
    pub fn new(root: &Path, handler: impl DebounceEventHandler) -> notify::Result<Watcher> {
        let mut debouncer = new_debouncer(DEBOUNCE, Some(TICK), handler)?;
        debouncer.watch(root, RecursiveMode::NonRecursive)?;
        let mut watcher = Watcher {
            debouncer,
            root: root.to_path_buf(),
            watched: BTreeSet::new(),
        };
        watcher.refresh(&Changes::default())?;
        Ok(watcher)
    }

    /// Watches the source folders that exist now and were not watched, and forgets those that
    /// are gone or were replaced (named in `changes`).
    pub fn refresh(&mut self, changes: &Changes) -> notify::Result<()> {
        let wanted = self.wanted();
        let stale: Vec<PathBuf> = self
            .watched
            .iter()
            .filter(|dir| {
                !wanted.iter().any(|(w, _)| w == *dir)
                    || dir
                        .strip_prefix(&self.root)
                        .is_ok_and(|rel| changes.paths.contains(rel))
            })
            .cloned()
            .collect();
        for dir in stale {
            // A folder that is gone took its watch along: failing to remove it is expected.
            let _ = self.debouncer.unwatch(&dir);
            self.watched.remove(&dir);
        }
        for (dir, mode) in wanted {
            if !self.watched.contains(&dir) {
                self.debouncer.watch(&dir, mode)?;
                self.watched.insert(dir);
            }
        }
        Ok(())
    }

    /// The folders to watch and how: the trees, `experiments/` itself (for new experiments)
    /// and each experiment but `target`.
    fn wanted(&self) -> Vec<(PathBuf, RecursiveMode)> {
        let mut out: Vec<(PathBuf, RecursiveMode)> = TREES
            .iter()
            .map(|t| self.root.join(t))
            .filter(|p| p.is_dir())
            .map(|p| (p, RecursiveMode::Recursive))
            .collect();
        let experiments = self.root.join("experiments");
        if experiments.is_dir() {
            out.push((experiments.clone(), RecursiveMode::NonRecursive));
            let entries = std::fs::read_dir(&experiments).into_iter().flatten();
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name != "target" && !is_editor_temp(&name) && entry.path().is_dir() {
                    out.push((entry.path(), RecursiveMode::Recursive));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_classified() {
        let cases = [
            ("site.toml", Some(Kind::Config)),
            ("content/a/index.vi.md", Some(Kind::Content)),
            ("content/a/photo.png", Some(Kind::Content)),
            ("pages/about/index.vi.md", Some(Kind::Content)),
            ("templates/base.html", Some(Kind::Templates)),
            ("static/style.css", Some(Kind::Static)),
            (
                "experiments/varint/src/main.rs",
                Some(Kind::Experiment("varint".into())),
            ),
            ("experiments/target/release/varint", None),
            ("machines/big-box/varint.json", Some(Kind::Machines)),
            ("public/index.html", None),
            (".measured/highlight.json", None),
            ("target/debug/measured", None),
            ("README.md", None),
            ("content/a/.#index.vi.md", None),
            ("content/a/index.vi.md~", None),
            ("content/a/.index.vi.md.swp", None),
            ("content/a/4913", None),
            ("content/a/#index.vi.md#", None),
        ];
        for (path, want) in cases {
            assert_eq!(classify(Path::new(path)), want, "{path}");
        }
    }
}
