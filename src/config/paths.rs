//! The site's sources, in one list: the files and folders under its root that the author writes
//! and measured never writes into. Every rule about them reads this list: `--output` may neither
//! be, hold nor lie inside a source (`write::guard`), `measure --out` writes no file into one,
//! and a folder `site.toml` moves (`[experiments] dir`, `frozen_dir`, `[machines] dir`) may not
//! overlap another source or the output. A new source folder is added here, once.

use std::path::{Component, Path, PathBuf};

pub const SITE_TOML: &str = "site.toml";
pub const CONTENT: &str = "content";
pub const PAGES: &str = "pages";
pub const TEMPLATES: &str = "templates";
pub const STATIC: &str = "static";
/// The cache folder (git-ignored, but the build's own: no output may replace it).
pub const CACHE: &str = ".measured";

/// The sources every site has at the same place under its root.
pub const FIXED: [&str; 6] = [SITE_TOML, CONTENT, PAGES, TEMPLATES, STATIC, CACHE];

/// A source folder `site.toml` may move: its table, its key, and where it is by default.
#[derive(Debug, Clone, Copy)]
pub struct Movable {
    pub table: &'static str,
    pub key: &'static str,
    pub default: &'static str,
}

/// The folders `site.toml` may move, in the order [`super::SiteConfig::moved`] gives them.
pub const MOVABLE: [Movable; 3] = [
    Movable {
        table: "experiments",
        key: "dir",
        default: "experiments",
    },
    Movable {
        table: "experiments",
        key: "frozen_dir",
        default: "frozen",
    },
    Movable {
        table: "machines",
        key: "dir",
        default: "machines",
    },
];

/// The output folder under the root when `--output` does not say.
pub const OUTPUT: &str = "public";

/// How a path lies against another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlap {
    /// The same path.
    Same,
    /// The path lies inside the other.
    Inside,
    /// The path holds the other.
    Holds,
}

/// How `path` lies against `other` (both absolute and normalised), if they overlap.
pub fn overlap(path: &Path, other: &Path) -> Option<Overlap> {
    if path == other {
        Some(Overlap::Same)
    } else if path.starts_with(other) {
        Some(Overlap::Inside)
    } else if other.starts_with(path) {
        Some(Overlap::Holds)
    } else {
        None
    }
}

/// Every source of the site at `root` under its default names.
pub fn default_sources(root: &Path) -> Vec<PathBuf> {
    FIXED
        .iter()
        .chain(MOVABLE.iter().map(|m| &m.default))
        .map(|s| root.join(s))
        .collect()
}

/// `p` made absolute, with `.` and `..` folded without reading the disk (a folder
/// `site.toml` names may not exist yet).
pub fn lexical(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `p` made absolute, with symlinks resolved in the part that exists and `.` and `..` folded
/// in the part that does not exist yet: where a write to `p` would land.
pub fn resolve(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let parts: Vec<Component<'_>> = abs.components().collect();
    let (mut out, rest) = (1..=parts.len())
        .rev()
        .find_map(|k| {
            let prefix: PathBuf = parts[..k].iter().collect();
            std::fs::canonicalize(prefix)
                .ok()
                .map(|real| (real, &parts[k..]))
        })
        .unwrap_or_else(|| (PathBuf::from("/"), &parts[..]));
    for c in rest {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => out.push(name),
            _ => {}
        }
    }
    out
}

/// What is wrong with the folder `key` of `[table]` moved to `dir` under `root`, given the
/// other moved folders (`moved`, by their index in [`MOVABLE`]): it may not be, hold or lie in
/// another source, the root, or the default output.
pub(super) fn moved_problem(root: &Path, index: usize, moved: &[PathBuf]) -> Option<String> {
    let root = lexical(root);
    let dir = lexical(&moved[index]);
    let shown = |p: &Path| {
        p.strip_prefix(&root)
            .map_or_else(|_| p.display().to_string(), |r| format!("{}", r.display()))
    };
    if overlap(&dir, &root).is_some_and(|o| o != Overlap::Inside) {
        return Some("holds the whole site".into());
    }
    let fixed = FIXED.iter().map(|s| (root.join(s), "the site's source"));
    let others = moved
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != index)
        .map(|(_, p)| (lexical(p), "the site's source"));
    let output = std::iter::once((root.join(OUTPUT), "the output folder"));
    for (other, what) in fixed.chain(others).chain(output) {
        let how = match overlap(&dir, &other) {
            Some(Overlap::Same) => "is",
            Some(Overlap::Inside) => "lies inside",
            Some(Overlap::Holds) => "holds",
            None => continue,
        };
        return Some(format!("{how} {what} {}", shown(&other)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_overlap_as_same_inside_or_holding() {
        let p = |s: &str| PathBuf::from(s);
        assert_eq!(
            overlap(&p("/s/content"), &p("/s/content")),
            Some(Overlap::Same)
        );
        assert_eq!(
            overlap(&p("/s/content/x"), &p("/s/content")),
            Some(Overlap::Inside)
        );
        assert_eq!(overlap(&p("/s"), &p("/s/content")), Some(Overlap::Holds));
        assert_eq!(overlap(&p("/s/contents"), &p("/s/content")), None);
        assert_eq!(lexical(&p("/s/./a/../b")), p("/s/b"));
    }

    #[test]
    fn every_source_is_in_the_default_list() {
        let names: Vec<String> = default_sources(Path::new("/s"))
            .iter()
            .map(|p| p.strip_prefix("/s").unwrap().display().to_string())
            .collect();
        for want in [
            "site.toml",
            "content",
            "pages",
            "templates",
            "static",
            "experiments",
            "frozen",
            "machines",
            ".measured",
        ] {
            assert!(names.iter().any(|n| n == want), "{want}: {names:?}");
        }
    }
}
