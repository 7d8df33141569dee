//! The experiments' Cargo workspace: which crates are experiments (binary crates named after
//! their folder), their source files, and the hashes that decide whether a result is stale.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::machine::Machine;
use crate::diag::{Diagnostic, Diagnostics, Place};

/// An experiment crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrateInfo {
    pub name: String,
    pub dir: PathBuf,
    /// Source files of the crate itself, relative to `dir`, sorted.
    pub files: Vec<PathBuf>,
    /// Hash of the crate, its path dependencies (the harness…) and the workspace manifest.
    pub source_hash: String,
}

/// Finds every experiment in the workspace at `dir`: a folder with a Cargo.toml whose package
/// is named after the folder and that has `src/main.rs`. Library crates (the harness) are not
/// experiments but count in the hash of the experiments that depend on them.
pub fn discover(dir: &Path) -> Result<BTreeMap<String, CrateInfo>, Diagnostics> {
    let manifest = dir.join("Cargo.toml");
    let workspace_text = std::fs::read_to_string(&manifest).map_err(|e| {
        Diagnostic::new(Place::file(&manifest), format!("cannot read the experiments' workspace: {e}"))
            .with_hint("experiments/ must be a Cargo workspace: experiments/Cargo.toml with [workspace] members")
    })?;
    let workspace: toml::Value = toml::from_str(&workspace_text).map_err(|e| {
        Diagnostic::new(
            Place::file(&manifest),
            format!("invalid Cargo.toml: {}", e.message()),
        )
    })?;
    let mut diags = Diagnostics::default();
    let mut crates = BTreeMap::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| crate::diag::io_error(dir, "list the experiments", &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("Cargo.toml").is_file() && p.join("src/main.rs").is_file())
        .collect();
    entries.sort();
    for crate_dir in entries {
        let folder = crate_dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        match package_name(&crate_dir) {
            Ok(name) if name == crate::experiments::MACHINE => diags.push(
                Diagnostic::new(
                    Place::file(crate_dir.join("Cargo.toml")),
                    format!("an experiment may not be named `{name}`"),
                )
                .with_hint("{{ machine.cores }} and the like name the measuring machine: rename the experiment"),
            ),
            Ok(name) if name == crate::experiments::CLAIM => diags.push(
                Diagnostic::new(
                    Place::file(crate_dir.join("Cargo.toml")),
                    format!("an experiment may not be named `{name}`"),
                )
                .with_hint("{{ claim.id }} marks the sentence a claim supports: rename the experiment"),
            ),
            Ok(name) if name == folder => {
                let files = source_files(&crate_dir);
                let mut hasher = blake3::Hasher::new();
                hasher.update(workspace_text.as_bytes());
                let mut seen = BTreeSet::new();
                hash_crate(&crate_dir, &workspace, dir, &mut hasher, &mut seen);
                let source_hash = hasher.finalize().to_hex().to_string();
                crates.insert(
                    name.clone(),
                    CrateInfo {
                        name,
                        dir: crate_dir,
                        files,
                        source_hash,
                    },
                );
            }
            Ok(name) => diags.push(
                Diagnostic::new(
                    Place::file(crate_dir.join("Cargo.toml")),
                    format!("package `{name}` lives in folder `{folder}`"),
                )
                .with_hint("an experiment's package is named after its folder: rename one of them"),
            ),
            Err(d) => diags.push(d),
        }
    }
    diags.into_result(crates)
}

/// The library crates of the workspace (the harness, shared models): not experiments, but
/// their code runs inside experiments, so articles may quote it and the site publishes it.
pub fn libraries(dir: &Path) -> BTreeMap<String, CrateInfo> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    let mut libs = BTreeMap::new();
    for crate_dir in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let is_lib =
            crate_dir.join("src/lib.rs").is_file() && !crate_dir.join("src/main.rs").is_file();
        let Ok(name) = package_name(&crate_dir) else {
            continue;
        };
        if is_lib {
            let files = source_files(&crate_dir);
            let mut hasher = blake3::Hasher::new();
            for rel in &files {
                hasher.update(&std::fs::read(crate_dir.join(rel)).unwrap_or_default());
            }
            let source_hash = hasher.finalize().to_hex().to_string();
            libs.insert(
                name.clone(),
                CrateInfo {
                    name,
                    dir: crate_dir,
                    files,
                    source_hash,
                },
            );
        }
    }
    libs
}

fn package_name(crate_dir: &Path) -> Result<String, Diagnostic> {
    let path = crate_dir.join("Cargo.toml");
    let text =
        std::fs::read_to_string(&path).map_err(|e| crate::diag::io_error(&path, "read", &e))?;
    let value: toml::Value = toml::from_str(&text).map_err(|e| {
        Diagnostic::new(
            Place::file(&path),
            format!("invalid Cargo.toml: {}", e.message()),
        )
    })?;
    value
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| Diagnostic::new(Place::file(&path), "Cargo.toml has no [package] name"))
}

/// Files of a crate that can change its result: everything but build output and hidden files.
fn source_files(crate_dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = WalkDir::new(crate_dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !(name.starts_with('.') || name == "target" || name == "results.json")
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.path().strip_prefix(crate_dir).ok().map(Path::to_path_buf))
        .collect();
    files.sort();
    files
}

fn hash_crate(
    crate_dir: &Path,
    workspace: &toml::Value,
    ws_dir: &Path,
    hasher: &mut blake3::Hasher,
    seen: &mut BTreeSet<PathBuf>,
) {
    let canonical = crate_dir
        .canonicalize()
        .unwrap_or_else(|_| crate_dir.to_path_buf());
    if !seen.insert(canonical) {
        return;
    }
    for rel in source_files(crate_dir) {
        hasher.update(rel.to_string_lossy().as_bytes());
        hasher.update(&[0]);
        hasher.update(&std::fs::read(crate_dir.join(&rel)).unwrap_or_default());
        hasher.update(&[0]);
    }
    for dep in path_dependencies(crate_dir, workspace, ws_dir) {
        hash_crate(&dep, workspace, ws_dir, hasher, seen);
    }
}

/// Folders of the crate's path dependencies, direct or through `workspace = true`.
fn path_dependencies(crate_dir: &Path, workspace: &toml::Value, ws_dir: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap_or_default();
    let Ok(manifest) = toml::from_str::<toml::Value>(&text) else {
        return Vec::new();
    };
    let ws_deps = workspace
        .get("workspace")
        .and_then(|w| w.get("dependencies"));
    let mut out = Vec::new();
    for table in ["dependencies", "build-dependencies"] {
        let Some(deps) = manifest.get(table).and_then(toml::Value::as_table) else {
            continue;
        };
        for (name, spec) in deps {
            if let Some(path) = spec.get("path").and_then(toml::Value::as_str) {
                out.push(crate_dir.join(path));
            } else if spec.get("workspace").and_then(toml::Value::as_bool) == Some(true) {
                if let Some(path) = ws_deps
                    .and_then(|d| d.get(name))
                    .and_then(|d| d.get("path"))
                    .and_then(toml::Value::as_str)
                {
                    out.push(ws_dir.join(path));
                }
            }
        }
    }
    out
}

/// Hash of `experiments/Cargo.lock` (empty when there is none yet).
pub fn lock_hash(dir: &Path) -> String {
    blake3::hash(&std::fs::read(dir.join("Cargo.lock")).unwrap_or_default())
        .to_hex()
        .to_string()
}

/// Everything a stored result depends on, hashed.
pub fn result_key(info: &CrateInfo, lock_hash: &str, machine: &Machine, quick: bool) -> String {
    let mut h = blake3::Hasher::new();
    for part in [
        "measured-result-v2",
        &info.source_hash,
        lock_hash,
        &machine.rustc_verbose,
        &machine.cpu,
        &machine.cores.to_string(),
        &machine.kernel,
        if quick { "quick" } else { "full" },
    ] {
        h.update(part.as_bytes());
        h.update(&[0]);
    }
    h.finalize().to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        write(
            &d.join("Cargo.toml"),
            "[workspace]\nmembers = [\"*\"]\nexclude = [\"target\"]\n",
        );
        write(&d.join("lib/Cargo.toml"), "[package]\nname = \"lib\"\n");
        write(&d.join("lib/src/lib.rs"), "pub fn f() {}\n");
        write(
            &d.join("a/Cargo.toml"),
            "[package]\nname = \"a\"\n[dependencies]\nlib = { path = \"../lib\" }\n",
        );
        write(&d.join("a/src/main.rs"), "fn main() {}\n");
        write(&d.join("b/Cargo.toml"), "[package]\nname = \"b\"\n");
        write(&d.join("b/src/main.rs"), "fn main() {}\n");
        dir
    }

    #[test]
    fn finds_binary_crates_only() {
        let dir = workspace();
        let crates = discover(dir.path()).unwrap();
        assert_eq!(crates.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(
            crates["a"].files,
            [PathBuf::from("Cargo.toml"), PathBuf::from("src/main.rs")]
        );
    }

    #[test]
    fn a_change_in_a_path_dependency_changes_only_its_dependents() {
        let dir = workspace();
        let before = discover(dir.path()).unwrap();
        write(
            &dir.path().join("lib/src/lib.rs"),
            "pub fn f() { let _ = 1; }\n",
        );
        let after = discover(dir.path()).unwrap();
        assert_ne!(before["a"].source_hash, after["a"].source_hash);
        assert_eq!(before["b"].source_hash, after["b"].source_hash);
    }

    #[test]
    fn package_must_be_named_after_its_folder() {
        let dir = workspace();
        write(
            &dir.path().join("b/Cargo.toml"),
            "[package]\nname = \"other\"\n",
        );
        let e = discover(dir.path()).unwrap_err().to_string();
        assert!(e.contains("package `other` lives in folder `b`"), "{e}");
    }
}
