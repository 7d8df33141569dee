//! The source's static files (Hugo's and Zola's `static/`, every file Jekyll copies as it is),
//! copied into `static/` at the same path whatever their extension (`.pdf`, `.jfif`, `.xlsx`
//! as much as images). A symbolic link is copied only when it leads to a file inside the
//! source; one leading out of it (to a private key, `/etc/shadow`) is skipped with a note. A
//! file that would replace one measured writes (its theme's `style.css`, `atom.xml`) or one
//! hidden from the build (`.htaccess`) is skipped with a note too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::srcconfig::SourceConfig;
use super::{Generator, Note, Planned};
use crate::diag::Diagnostics;

/// The files measured writes at the root of every site (the theme's static files come from
/// [`crate::theme`]).
const WRITTEN: &[&str] = &[
    "index.html",
    "404.html",
    "atom.xml",
    "sitemap.xml",
    "robots.txt",
    "highlight.css",
];

/// The static files to write, and their site paths (`/images/a.png`).
pub struct Statics {
    pub files: Vec<Planned>,
    pub paths: BTreeSet<String>,
}

/// Every static file of the source; what is skipped is noted in `notes`.
pub fn collect(
    generator: Generator,
    src: &Path,
    config: &SourceConfig,
    notes: &mut Vec<Note>,
) -> Result<Statics, Diagnostics> {
    let dir = match generator {
        Generator::Jekyll => src.to_path_buf(),
        _ => src.join("static"),
    };
    let mut out = Statics {
        files: Vec::new(),
        paths: BTreeSet::new(),
    };
    if !dir.is_dir() {
        return Ok(out);
    }
    let src_real = std::fs::canonicalize(src)
        .map_err(|e| crate::diag::io_error(src, "find the folder", &e))?;
    let theme = crate::theme::load(Path::new("/nonexistent-measured-root"))?;
    let mut diags = Diagnostics::default();
    let walk = WalkDir::new(&dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let rel = e.path().strip_prefix(&dir).unwrap_or(e.path());
            generator != Generator::Jekyll
                || rel.as_os_str().is_empty()
                || !super::jekyll::left_out(rel, &config.exclude)
        });
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().unwrap_or(&dir).to_path_buf();
                notes.push(Note::file(
                    &path,
                    format!("cannot be read ({e}): not copied"),
                ));
                continue;
            }
        };
        let path = entry.path();
        let rel = path.strip_prefix(&dir).unwrap_or(path);
        let site_path = rel
            .iter()
            .map(|c| c.to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let bytes = if entry.path_is_symlink() {
            match linked(path, &src_real) {
                Ok(bytes) => bytes,
                Err(why) => {
                    notes.push(Note::file(path, why));
                    continue;
                }
            }
        } else if entry.file_type().is_file() {
            match std::fs::read(path) {
                Ok(b) => b,
                Err(e) => {
                    diags.push(crate::diag::io_error(path, "read the static file", &e));
                    continue;
                }
            }
        } else {
            continue;
        };
        let markdown = site_path.ends_with(".md") || site_path.ends_with(".markdown");
        if generator == Generator::Jekyll && markdown && super::jekyll::has_front_matter(&bytes) {
            // A Jekyll page: imported into pages/.
            continue;
        }
        if let Some(why) = skipped(generator, &site_path, &bytes, &theme.statics) {
            notes.push(Note::file(path, why));
            continue;
        }
        out.paths.insert(format!("/{site_path}"));
        out.files.push(Planned {
            dest: PathBuf::from("static").join(rel),
            bytes,
            from: path.strip_prefix(src).unwrap_or(path).to_path_buf(),
            appends: false,
        });
    }
    diags.into_result(out)
}

/// Adds the files of Hugo's and Zola's sections (`content/posts/banner.png` beside
/// `posts/_index.md`, `files` relative to `content/`), published at their path, as static files
/// there; one that a static file takes already is left to it.
pub fn add_section_files(
    src: &Path,
    files: &[PathBuf],
    out: &mut Statics,
) -> Result<(), Diagnostics> {
    let mut diags = Diagnostics::default();
    for rel in files {
        let path = src.join("content").join(rel);
        let site_path = format!("/{}", rel.to_string_lossy().replace('\\', "/"));
        if out.paths.contains(&site_path) {
            continue;
        }
        match std::fs::read(&path) {
            Ok(bytes) => {
                out.paths.insert(site_path);
                out.files.push(Planned {
                    dest: PathBuf::from("static").join(rel),
                    bytes,
                    from: PathBuf::from("content").join(rel),
                    appends: false,
                });
            }
            Err(e) => diags.push(crate::diag::io_error(&path, "read the file", &e)),
        }
    }
    diags.into_result(())
}

/// The bytes of the file a symbolic link leads to, if it is a file inside the source
/// (`src_real`, resolved); else why it is not copied.
fn linked(path: &Path, src_real: &Path) -> Result<Vec<u8>, String> {
    let target = std::fs::canonicalize(path)
        .map_err(|_| "a symbolic link that leads nowhere: not copied".to_string())?;
    if !target.starts_with(src_real) {
        return Err(format!(
            "a symbolic link leading out of the source (to {}): not copied, since it would publish a file that is not the blog's; copy the file itself into static/ if it belongs to the site",
            target.display()
        ));
    }
    if !target.is_file() {
        return Err(
            "a symbolic link to a folder: not copied; copy the folder's files by hand".into(),
        );
    }
    std::fs::read(&target).map_err(|e| format!("a symbolic link whose file cannot be read ({e})"))
}

/// Why the static file at `site_path` is not copied, if it is not.
fn skipped(
    generator: Generator,
    site_path: &str,
    bytes: &[u8],
    theme: &std::collections::BTreeMap<String, crate::theme::StaticSource>,
) -> Option<String> {
    if generator == Generator::Jekyll && super::jekyll::has_front_matter(bytes) {
        return Some(
            "a file Jekyll renders through its templates (it has front matter): not copied; \
             measured writes its own pages, feed and sitemap"
                .to_string(),
        );
    }
    if site_path.split('/').any(|c| c.starts_with('.')) {
        return Some(
            "a hidden file, which the build does not publish: not copied; configure it on the server"
                .into(),
        );
    }
    if theme.contains_key(site_path) || WRITTEN.contains(&site_path) {
        return Some(format!(
            "/{site_path} is a file measured writes itself: not copied; if a page links it, copy it under another name and change the link"
        ));
    }
    if site_path.split('/').next() == Some(crate::search::DIR) {
        return Some(format!(
            "/{}/ is where measured writes its search index: not copied; if a page links it, copy it elsewhere in static/ and change the link",
            crate::search::DIR
        ));
    }
    None
}
