//! The experiments' Cargo workspace: which crates are experiments (binary crates named after
//! their folder), their source files, and the hashes that decide whether a result is stale.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::machine::Machine;
use measured_core::diag::{Diagnostic, Diagnostics, Place};

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
        .map_err(|e| measured_core::diag::io_error(dir, "list the experiments", &e))?
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
    let text = std::fs::read_to_string(&path)
        .map_err(|e| measured_core::diag::io_error(&path, "read", &e))?;
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

/// The locked packages of the workspace at `dir` (`Cargo.lock`), to key each experiment's
/// results on the packages of its own dependency graph only.
#[derive(Debug, Clone, Default)]
pub struct Lock {
    /// Each package: name, version, source and checksum, and the packages it depends on
    /// (as the lockfile writes them: `name`, `name version` or `name version (source)`).
    packages: Vec<(String, String, String, String, Vec<String>)>,
}

impl Lock {
    /// Reads `dir/Cargo.lock`; an unreadable or missing one has no packages.
    pub fn read(dir: &Path) -> Lock {
        let text = std::fs::read_to_string(dir.join("Cargo.lock")).unwrap_or_default();
        Lock::parse(&text)
    }

    fn parse(text: &str) -> Lock {
        let value: toml::Value = toml::from_str(text).unwrap_or(toml::Value::Integer(0));
        let field = |p: &toml::Value, k: &str| {
            p.get(k)
                .and_then(toml::Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let packages = value
            .get("package")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .map(|p| {
                let deps = p
                    .get("dependencies")
                    .and_then(toml::Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(toml::Value::as_str)
                    .map(str::to_string)
                    .collect();
                let (name, version) = (field(p, "name"), field(p, "version"));
                (
                    name,
                    version,
                    field(p, "source"),
                    field(p, "checksum"),
                    deps,
                )
            })
            .collect();
        Lock { packages }
    }

    /// The index of the package a lockfile dependency string names.
    fn find(&self, dep: &str) -> Option<usize> {
        let mut words = dep.split_whitespace();
        let name = words.next()?;
        let version = words.next();
        self.packages
            .iter()
            .position(|(n, v, ..)| n == name && version.is_none_or(|want| want == v))
    }

    /// Hash of the locked packages (name, version, source, checksum) that package `name`
    /// depends on, itself included: what a change of the lockfile can change of its results.
    /// Another experiment added to the workspace, or its dependencies, leaves it unchanged.
    pub fn hash_of(&self, name: &str) -> String {
        let mut todo: Vec<usize> = self.find(name).into_iter().collect();
        let mut seen = BTreeSet::new();
        while let Some(i) = todo.pop() {
            if seen.insert(i) {
                todo.extend(self.packages[i].4.iter().filter_map(|d| self.find(d)));
            }
        }
        let mut h = blake3::Hasher::new();
        let mut all: Vec<_> = seen.iter().map(|&i| &self.packages[i]).collect();
        all.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
        for (n, v, s, c, _) in all {
            for part in [n, v, s, c] {
                h.update(part.as_bytes());
                h.update(&[0]);
            }
        }
        h.finalize().to_hex().to_string()
    }
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
    fn an_experiments_lock_hash_covers_its_own_dependencies_only() {
        let lock = |extra: &str| {
            Lock::parse(&format!(
                "version = 4\n[[package]]\nname = \"a\"\nversion = \"0.1.0\"\ndependencies = [\"serde\", \"harness\"]\n\
                 [[package]]\nname = \"harness\"\nversion = \"0.1.0\"\ndependencies = [\"rand 0.9.0\"]\n\
                 [[package]]\nname = \"rand\"\nversion = \"0.9.0\"\nsource = \"registry\"\nchecksum = \"r9\"\n\
                 [[package]]\nname = \"rand\"\nversion = \"0.8.0\"\nsource = \"registry\"\nchecksum = \"r8\"\n\
                 [[package]]\nname = \"serde\"\nversion = \"1.0.0\"\nsource = \"registry\"\nchecksum = \"s1\"\n{extra}"
            ))
        };
        let before = lock("");
        // A new experiment and a package only it uses: nothing of `a` changed.
        let added = lock(
            "[[package]]\nname = \"b\"\nversion = \"0.1.0\"\ndependencies = [\"tokio\", \"rand 0.8.0\"]\n[[package]]\nname = \"tokio\"\nversion = \"1.0.0\"\nsource = \"registry\"\nchecksum = \"t1\"\n",
        );
        assert_eq!(before.hash_of("a"), added.hash_of("a"));
        assert_ne!(added.hash_of("a"), added.hash_of("b"));
        // A dependency of `a` (through the harness) that moves changes `a`'s hash.
        let moved =
            Lock::parse(&before_text().replace("checksum = \"r9\"", "checksum = \"r9-new\""));
        assert_ne!(before.hash_of("a"), moved.hash_of("a"));
        fn before_text() -> String {
            "version = 4\n[[package]]\nname = \"a\"\nversion = \"0.1.0\"\ndependencies = [\"serde\", \"harness\"]\n\
             [[package]]\nname = \"harness\"\nversion = \"0.1.0\"\ndependencies = [\"rand 0.9.0\"]\n\
             [[package]]\nname = \"rand\"\nversion = \"0.9.0\"\nsource = \"registry\"\nchecksum = \"r9\"\n\
             [[package]]\nname = \"rand\"\nversion = \"0.8.0\"\nsource = \"registry\"\nchecksum = \"r8\"\n\
             [[package]]\nname = \"serde\"\nversion = \"1.0.0\"\nsource = \"registry\"\nchecksum = \"s1\"\n"
                .to_string()
        }
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
