//! The experiments' workspace as a tar archive for a host: every file but build output
//! (`target/` folders) and the `results.json` files a reproduce command leaves, each with its
//! modification time, so that the host's cargo rebuilds only what changed since its last copy.

use std::path::Path;

use walkdir::WalkDir;

/// The archive of the workspace at `dir`, and how many files it holds.
pub fn workspace(dir: &Path) -> std::io::Result<(Vec<u8>, usize)> {
    let mut builder = tar::Builder::new(Vec::new());
    let mut files = 0;
    let walk = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !(e.file_type().is_dir() && name == "target")
        });
    for entry in walk {
        let entry = entry.map_err(std::io::Error::other)?;
        let Ok(rel) = entry.path().strip_prefix(dir) else {
            continue;
        };
        if rel.as_os_str().is_empty() || rel.file_name().is_some_and(|n| n == "results.json") {
            continue;
        }
        let meta = std::fs::metadata(entry.path())?;
        let mut header = tar::Header::new_gnu();
        header.set_metadata_in_mode(&meta, tar::HeaderMode::Complete);
        // Owned by whoever extracts it, whatever the owner here.
        header.set_uid(0);
        header.set_gid(0);
        if meta.is_dir() {
            header.set_size(0);
            builder.append_data(&mut header, rel, std::io::empty())?;
        } else if meta.is_file() {
            let file = std::fs::File::open(entry.path())?;
            builder.append_data(&mut header, rel, file)?;
            files += 1;
        }
    }
    Ok((builder.into_inner()?, files))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_archive_holds_the_sources_with_their_times_and_no_build_output() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for (rel, text) in [
            ("Cargo.toml", "[workspace]\n"),
            ("a/src/main.rs", "fn main() {}\n"),
            ("a/results.json", "{}"),
            (".cargo/config.toml", "[build]\n"),
            ("target/release/a", "binary"),
            ("a/target/x", "binary"),
        ] {
            std::fs::create_dir_all(d.join(rel).parent().unwrap()).unwrap();
            std::fs::write(d.join(rel), text).unwrap();
        }
        let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let main = std::fs::File::options()
            .write(true)
            .open(d.join("a/src/main.rs"))
            .unwrap();
        main.set_modified(old).unwrap();
        let (bytes, files) = super::workspace(d).unwrap();
        assert_eq!(files, 3);
        let mut archive = tar::Archive::new(&bytes[..]);
        let mut entries: Vec<(String, u64)> = archive
            .entries()
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.header().entry_type().is_file())
            .map(|e| {
                let path = e.path().unwrap().to_string_lossy().into_owned();
                (path, e.header().mtime().unwrap())
            })
            .collect();
        entries.sort();
        let names: Vec<&str> = entries.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(names, [".cargo/config.toml", "Cargo.toml", "a/src/main.rs"]);
        assert_eq!(entries[2].1, 1_700_000_000);
    }
}
