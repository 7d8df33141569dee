//! The site's sources, in one list: the files and folders under its root that the author writes
//! and measured never writes into. Every rule about them reads this list: `--output` may neither
//! be, hold nor lie inside a source (`write::guard`), `measure --out` writes no file into one,
//! and a folder `site.toml` moves (`[experiments] dir`, `frozen_dir`, `[machines] dir`) may not
//! overlap another source or the output. A new source folder is added here, once.

use std::path::{Component, Path, PathBuf};

use super::SiteConfig;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

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

/// Whether the symbolic link `link` leads to a place within one of `bounds` (canonical paths):
/// the site's links may be followed there, and nowhere else.
pub fn leads_inside(link: &Path, bounds: &[PathBuf]) -> bool {
    std::fs::canonicalize(link).is_ok_and(|target| bounds.iter().any(|b| target.starts_with(b)))
}

/// The error of a symbolic link of the sources that leads out of the site: measured reads and
/// publishes nothing from there.
pub fn outside_link(link: &Path) -> Diagnostic {
    let target = std::fs::read_link(link)
        .map(|t| t.display().to_string())
        .unwrap_or_default();
    Diagnostic::new(
        Place::file(link),
        format!("a symbolic link to {target}, outside the site"),
    )
    .with_hint(
        "copy what it points to into the site, or point it inside the site: measured publishes \
         nothing from outside the site, and the preview does not watch it",
    )
}

impl SiteConfig {
    /// The folders this site moves or keeps where [`MOVABLE`] says, in its order.
    pub fn moved(&self) -> [&Path; 3] {
        [
            &self.experiments.dir,
            &self.experiments.frozen_dir,
            &self.machines.dir,
        ]
    }

    /// Every source of the site: the fixed ones and the folders it may move.
    pub fn sources(&self) -> Vec<PathBuf> {
        FIXED
            .iter()
            .map(|s| self.root.join(s))
            .chain(self.moved().into_iter().map(Path::to_path_buf))
            .collect()
    }
}

/// A message at the line of `key` in `[table]` (or at the table, or the file).
pub(super) fn at_table_key(
    path: &Path,
    text: &str,
    table: &str,
    key: &str,
    msg: String,
) -> Diagnostic {
    let lines: Vec<&str> = text.lines().collect();
    let header = format!("[{table}]");
    let line = lines.iter().position(|l| l.trim() == header).map(|h| {
        lines[h + 1..]
            .iter()
            .take_while(|l| !l.trim_start().starts_with('['))
            .position(|l| {
                l.trim_start()
                    .strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
            })
            .map_or(h, |i| h + 1 + i)
            + 1
    });
    match line {
        Some(l) => Diagnostic::new(Place::at(path, l, 1), msg).with_line_of(text, l),
        None => super::at_key(path, text, key, msg),
    }
}

/// A folder `site.toml` moves (`set`: as written) may not be, hold or lie inside another
/// source or the output ([`moved_problem`]): `frozen_dir = "content"` would let `measured
/// freeze` write into the articles.
pub(super) fn check_moved(
    root: &Path,
    moved: [&PathBuf; 3],
    set: [Option<PathBuf>; 3],
    err: &dyn Fn(&str, &str, String) -> Diagnostic,
    diags: &mut Diagnostics,
) {
    let moved: Vec<PathBuf> = moved.into_iter().cloned().collect();
    for (i, m) in MOVABLE.iter().enumerate() {
        let Some(written) = &set[i] else {
            continue;
        };
        let Some(problem) = moved_problem(root, i, &moved) else {
            continue;
        };
        diags.push(
            err(
                m.table,
                m.key,
                format!(
                    "[{}] {} = {:?} {problem}",
                    m.table,
                    m.key,
                    written.display().to_string()
                ),
            )
            .with_hint(format!(
                "give it a folder of its own under the site root, such as \"{}\": apart from \
                 the other sources ({}) and the output ({}/)",
                m.default,
                FIXED.join(", "),
                OUTPUT
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "base_url = \"https://example.org/\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"Đo thật\"\n[languages.en]\ntitle = \"Measured\"\n";

    fn parse_str(text: &str) -> Result<SiteConfig, Diagnostics> {
        super::super::parse(Path::new("/site"), Path::new("/site/site.toml"), text)
    }

    #[test]
    fn a_moved_folder_over_another_source_or_the_output_is_refused_at_its_line() {
        for (table, key, value, why) in [
            (
                "experiments",
                "frozen_dir",
                "content",
                "is the site's source content",
            ),
            (
                "experiments",
                "frozen_dir",
                "pages/x",
                "lies inside the site's source pages",
            ),
            ("experiments", "dir", ".", "holds the whole site"),
            (
                "experiments",
                "dir",
                "frozen",
                "is the site's source frozen",
            ),
            ("machines", "dir", "public", "is the output folder public"),
            (
                "machines",
                "dir",
                "static/../templates",
                "is the site's source templates",
            ),
            (
                "experiments",
                "frozen_dir",
                ".measured/f",
                "lies inside the site's source .measured",
            ),
        ] {
            let filler = if table == "machines" {
                "primary = \"box\""
            } else {
                "runs = 3"
            };
            let text = format!("{MINIMAL}[{table}]\n{filler}\n{key} = {value:?}\n");
            let e = parse_str(&text).unwrap_err().to_string();
            let want = format!("site.toml:9:1: error: [{table}] {key} = {value:?} {why}");
            assert!(e.contains(&want), "{want}\n{e}");
            assert!(e.contains("give it a folder of its own"), "{e}");
        }
        let c = parse_str(&format!(
            "{MINIMAL}[experiments]\nfrozen_dir = \"results\"\n"
        ))
        .unwrap();
        assert!(c.sources().contains(&PathBuf::from("/site/results")));
        assert!(c.sources().contains(&PathBuf::from("/site/pages")));
    }

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
