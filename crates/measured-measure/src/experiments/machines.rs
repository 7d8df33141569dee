//! Other machines' results, side by side with this one's: `machines/<machine>/<experiment>.json`,
//! committed like `frozen/`. `measured results import` adds results files there after checking
//! every one of them (nothing is written unless all pass); a build reads those of the
//! experiments its pages use, and sets aside, with a warning, any measured from a source that
//! has changed since.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::results_file::{self, MAX_BYTES, ResultsFile};
use super::{CrateInfo, Provenance, Record, workspace};
use measured_content::config::{SiteConfig, machine_id_problem};
use measured_core::diag::{Diagnostic, Diagnostics, Place};

/// One results file an import added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub machine: String,
    pub experiment: String,
    /// Where it is kept: `machines/<machine>/<experiment>.json`.
    pub path: PathBuf,
    /// Whether it replaced the machine's earlier results of that experiment.
    pub replaced: bool,
}

/// Checks every file of `files` (see [`results_file::parse`]; its source must be the current
/// one), then adds each to `machines/` as machine `as_name`, or the machine its provenance
/// names. Nothing is written unless every file passes.
pub fn import(
    config: &SiteConfig,
    files: &[PathBuf],
    as_name: Option<&str>,
) -> Result<Vec<Imported>, Diagnostics> {
    let read = files.iter().map(|f| (f.clone(), read_capped(f))).collect();
    import_read(config, read, as_name)
}

/// [`import`] of files already read, each named by the place its errors are reported at (a
/// file, or where `run --on` measured it).
pub fn import_read(
    config: &SiteConfig,
    files: Vec<(PathBuf, Result<Vec<u8>, Diagnostic>)>,
    as_name: Option<&str>,
) -> Result<Vec<Imported>, Diagnostics> {
    if let Some(problem) = as_name.and_then(machine_id_problem) {
        return Err(Diagnostic::new(
            Place::file(&config.machines.dir),
            format!("--as: {problem}"),
        )
        .with_hint("name the machine like `laptop-m2` or `ci-one-core`")
        .into());
    }
    let crates = workspace::discover(&config.experiments.dir)?;
    let mut diags = Diagnostics::default();
    let mut planned: Vec<(Imported, Vec<u8>)> = Vec::new();
    for (file, bytes) in &files {
        let checked = bytes.as_ref().map_err(Clone::clone).and_then(|bytes| {
            let r = results_file::parse(file, bytes, &crates)?;
            results_file::check_current(file, &r, &crates)?;
            Ok(r)
        });
        let r = match checked {
            Ok(r) => r,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let machine = as_name.map_or_else(|| machine_id(r.provenance()), str::to_string);
        let path = config
            .machines
            .dir
            .join(&machine)
            .join(format!("{}.json", r.experiment));
        if let Some((other, _)) = planned.iter().find(|(i, _)| i.path == path) {
            diags.push(
                Diagnostic::new(
                    Place::file(file),
                    format!(
                        "results of `{}` on machine `{machine}` again (also in the file imported as {})",
                        r.experiment,
                        other.path.display()
                    ),
                )
                .with_hint("import one file per experiment and machine, or give each machine its name with --as"),
            );
            continue;
        }
        let imported = Imported {
            machine,
            experiment: r.experiment.clone(),
            replaced: path.exists(),
            path,
        };
        planned.push((imported, r.to_json()));
    }
    diags.into_result(())?;
    let mut done = Vec::new();
    for (imported, bytes) in planned {
        measured_core::atomic::file(&imported.path, &bytes).map_err(|e| {
            measured_core::diag::io_error(&imported.path, "write the imported results", &e)
        })?;
        done.push(imported);
    }
    Ok(done)
}

/// A readable machine id from a provenance: its CPU and cores (`amd-epyc-7b13-x2`).
pub fn machine_id(p: &Provenance) -> String {
    let slug = slug::slugify(format!("{} x{}", p.cpu, p.cores));
    let mut id: String = slug.chars().take(64).collect();
    while id.ends_with('-') {
        id.pop();
    }
    if id.is_empty() {
        "machine".to_string()
    } else {
        id
    }
}

/// The bytes of the results file at `path`, read at most one byte past [`MAX_BYTES`] whatever
/// its metadata says (a `/proc` file says 0), and only from a regular file: a FIFO, a device
/// (`/dev/zero`) or a process substitution could block or never end.
fn read_capped(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let read_error = |e: std::io::Error| measured_core::diag::io_error(path, "read", &e);
    // Non-blocking: opening a FIFO no one writes to would wait for a writer.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(read_error)?;
    let meta = file.metadata().map_err(read_error)?;
    if !meta.is_file() {
        return Err(Diagnostic::new(
            Place::file(path),
            format!("not a regular file (it is {}): a results file is read from a file", kind_of(&meta)),
        )
        .with_hint("save the results in a file first (`measured measure NAME --out FILE` writes one), then import that file"));
    }
    let too_big = |len: u64| {
        Diagnostic::new(
            Place::file(path),
            format!("the file has {len} bytes, more than a results file may ({MAX_BYTES})"),
        )
        .with_hint("a results file holds one experiment's runs: measure that experiment alone")
    };
    if meta.len() > MAX_BYTES as u64 {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() > MAX_BYTES {
        return Err(Diagnostic::new(
            Place::file(path),
            format!("the file has more than {MAX_BYTES} bytes, more than a results file may"),
        )
        .with_hint("a results file holds one experiment's runs: measure that experiment alone"));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for a message.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a pipe (a FIFO, or a shell's process substitution)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// The imported machines' results a build uses.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// By machine, then experiment: the records of current results files.
    pub machines: BTreeMap<String, BTreeMap<String, Record>>,
    /// One per stale file (its experiment's source changed since): not shown.
    pub warnings: Vec<Diagnostic>,
}

/// Reads the results files of `machines/` for the experiments `wanted`. A file that does not
/// pass the import's checks is an error (it is committed: fix or remove it); a stale one a
/// warning.
pub fn load(
    config: &SiteConfig,
    crates: &BTreeMap<String, CrateInfo>,
    wanted: &BTreeSet<String>,
) -> Result<Loaded, Diagnostics> {
    let mut loaded = Loaded::default();
    let dir = &config.machines.dir;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(loaded);
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut diags = Diagnostics::default();
    for folder in folders {
        let id = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(problem) = machine_id_problem(&id) {
            diags.push(
                Diagnostic::new(Place::file(&folder), format!("machine folder: {problem}"))
                    .with_hint("rename the folder (and [machines] primary, if it names it)"),
            );
            continue;
        }
        for name in wanted {
            let path = folder.join(format!("{name}.json"));
            if !path.is_file() {
                continue;
            }
            match read_capped(&path).and_then(|b| results_file::parse(&path, &b, crates)) {
                Ok(file) => match results_file::check_current(&path, &file, crates) {
                    Ok(()) => {
                        let record = file.record(&format!("machine:{id}"));
                        loaded
                            .machines
                            .entry(id.clone())
                            .or_default()
                            .insert(name.clone(), record);
                    }
                    Err(stale) => loaded.warnings.push(stale_warning(&id, &file, stale)),
                },
                Err(d) => diags.push(d),
            }
        }
    }
    diags.into_result(loaded)
}

fn stale_warning(id: &str, file: &ResultsFile, why: Diagnostic) -> Diagnostic {
    let mut d = why;
    d.message = format!(
        "the results of `{}` on machine `{id}` are stale and not shown: {}",
        file.experiment, d.message
    );
    d
}

#[cfg(test)]
mod tests {
    use crate::experiments::Provenance;

    #[test]
    fn a_machine_id_is_a_slug_of_cpu_and_cores() {
        let p = Provenance {
            experiment: "e".into(),
            source_hash: "s".into(),
            lock_hash: "l".into(),
            rustc: "rustc 1.0".into(),
            cpu: "AMD EPYC 7B13 64-Core Processor".into(),
            cores: 1,
            kernel: "6.1".into(),
            memory: None,
            measured_at: "2026-01-01T00:00:00Z".into(),
            load_before: [0.0; 3],
            load_after: [0.0; 3],
            duration_secs: 1.0,
            quick: false,
            command: "c".into(),
            online_cores: None,
            affinity: None,
        };
        assert_eq!(super::machine_id(&p), "amd-epyc-7b13-64-core-processor-x1");
        let long = Provenance {
            cpu: "A".repeat(100),
            ..p
        };
        assert_eq!(super::machine_id(&long).len(), 64);
    }
}
