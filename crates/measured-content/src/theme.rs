//! The theme: Tera templates, UI strings and static files built into the binary, overridden
//! file by file by the site's own `templates/` and `static/`. Stylesheets and scripts are
//! minified as they are read ([`minify`]); the ids its templates write are read from them
//! ([`ThemeIds`]).

mod ids;
mod minify;

pub use ids::ThemeIds;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};
use walkdir::WalkDir;

use measured_core::diag::{Diagnostic, Diagnostics, Place};

static BUILTIN_TEMPLATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../templates");
static BUILTIN_STATIC: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../static");

/// A theme file's text and where it came from (for error messages).
#[derive(Debug, Clone)]
pub struct ThemeText {
    pub text: String,
    /// `templates/<name>` in the site, or `<built-in>/templates/<name>`.
    pub origin: PathBuf,
}

/// Where a static file's bytes are.
#[derive(Debug, Clone)]
pub enum StaticSource {
    Builtin(&'static include_dir::File<'static>),
    File(PathBuf),
}

/// The merged theme of a site.
#[derive(Debug, Clone)]
pub struct Theme {
    /// Templates by name (`article.html`, `i18n/vi.toml`, …).
    pub templates: BTreeMap<String, ThemeText>,
    /// Static files by path relative to the output root.
    pub statics: BTreeMap<String, StaticSource>,
}

/// Loads the built-in theme and the site's overrides.
pub fn load(root: &Path) -> Result<Theme, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut templates = BTreeMap::new();
    for file in builtin_files(&BUILTIN_TEMPLATES) {
        let name = file.path().to_string_lossy().to_string();
        let text = String::from_utf8_lossy(file.contents()).to_string();
        templates.insert(
            name.clone(),
            ThemeText {
                text,
                origin: Path::new("<built-in>/templates").join(&name),
            },
        );
    }
    let mut statics = BTreeMap::new();
    for file in builtin_files(&BUILTIN_STATIC) {
        statics.insert(
            file.path().to_string_lossy().to_string(),
            StaticSource::Builtin(file),
        );
    }
    for (rel, path) in site_files(root, &root.join("templates"), &mut diags) {
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                templates.insert(rel, ThemeText { text, origin: path });
            }
            Err(e) => diags.push(Diagnostic::new(
                Place::file(&path),
                format!("cannot read the template: {e}"),
            )),
        }
    }
    for (rel, path) in site_files(root, &root.join("static"), &mut diags) {
        statics.insert(rel, StaticSource::File(path));
    }
    diags.into_result(Theme { templates, statics })
}

fn builtin_files(dir: &'static Dir<'static>) -> Vec<&'static include_dir::File<'static>> {
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        out.extend(d.files());
        stack.extend(d.dirs());
    }
    out
}

/// Files under `dir` as (path relative to `dir` with `/` separators, full path). A symbolic
/// link is followed while it leads inside the site (`root`); one leading out of it, or to
/// nothing, is an error naming it: its target is never read, let alone published.
fn site_files(root: &Path, dir: &Path, diags: &mut Diagnostics) -> Vec<(String, PathBuf)> {
    if !dir.is_dir() {
        return Vec::new();
    }
    let bounds: Vec<PathBuf> = [root, dir]
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    let mut out = Vec::new();
    let mut entries = WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = entries.next() {
        let e = match entry {
            Ok(e) => e,
            Err(e) => {
                diags.push(
                    Diagnostic::new(
                        Place::file(e.path().unwrap_or(dir)),
                        format!("cannot read: {e}"),
                    )
                    .with_hint("fix or remove the file or link"),
                );
                continue;
            }
        };
        let rel = e.path().strip_prefix(dir).unwrap_or(e.path());
        if rel.iter().any(|c| c.to_string_lossy().starts_with('.')) {
            continue;
        }
        if e.path_is_symlink() && !crate::config::paths::leads_inside(e.path(), &bounds) {
            diags.push(crate::config::paths::outside_link(e.path()));
            if e.file_type().is_dir() {
                entries.skip_current_dir();
            }
            continue;
        }
        if e.file_type().is_file() {
            let rel = rel
                .iter()
                .map(|c| c.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((rel, e.path().to_path_buf()));
        }
    }
    out
}

impl StaticSource {
    /// The file's bytes as the site serves them: a stylesheet or a script minified.
    pub fn read(&self) -> std::io::Result<Vec<u8>> {
        let (path, bytes) = match self {
            StaticSource::Builtin(file) => (file.path(), file.contents().to_vec()),
            StaticSource::File(path) => (path.as_path(), std::fs::read(path)?),
        };
        let minify: fn(&str) -> String = match path.extension().and_then(|e| e.to_str()) {
            Some("css") => minify::css,
            Some("js") => minify::js,
            _ => return Ok(bytes),
        };
        Ok(match String::from_utf8(bytes) {
            Ok(text) => minify(&text).into_bytes(),
            Err(e) => e.into_bytes(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_theme_has_templates_strings_and_styles() {
        let dir = tempfile::tempdir().unwrap();
        let theme = load(dir.path()).unwrap();
        for name in [
            "base.html",
            "article.html",
            "list.html",
            "i18n/vi.toml",
            "i18n/en.toml",
        ] {
            assert!(theme.templates.contains_key(name), "missing {name}");
        }
        assert!(theme.statics.contains_key("style.css"));
        assert!(theme.statics.contains_key("favicon.svg"));
    }

    #[test]
    fn stylesheets_and_scripts_are_read_minified_other_files_as_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let theme = load(dir.path()).unwrap();
        let read = |name: &str| String::from_utf8(theme.statics[name].read().unwrap()).unwrap();
        let source = include_str!("../../../static/style.css");
        let css = read("style.css");
        assert!(css.len() < source.len(), "style.css is smaller");
        assert!(!css.contains("/*") && !css.contains("\n "), "{css}");
        assert!(css.contains("@media (prefers-color-scheme:dark)"), "{css}");
        let js = read("theme.js");
        assert!(!js.contains("\n ") && !js.starts_with("//"), "{js}");
        assert_eq!(
            read("favicon.svg"),
            include_str!("../../../static/favicon.svg")
        );
    }

    #[test]
    fn site_files_override_builtin_ones() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("templates")).unwrap();
        std::fs::write(dir.path().join("templates/base.html"), "mine").unwrap();
        std::fs::create_dir_all(dir.path().join("static")).unwrap();
        std::fs::write(dir.path().join("static/style.css"), "body{}").unwrap();
        let theme = load(dir.path()).unwrap();
        assert_eq!(theme.templates["base.html"].text, "mine");
        assert!(matches!(theme.statics["style.css"], StaticSource::File(_)));
    }
}
