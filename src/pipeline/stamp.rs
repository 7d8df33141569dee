//! The identity of a build's inputs without reading them: the path, size, inode and times of
//! every file it reads, like `make`. Equal stamps, equal builds: a session's build whose stamp
//! is the last one's returns the last build.

use std::path::PathBuf;

use crate::config::SiteConfig;

use super::BuildOptions;

/// The folders the experiment stage reads.
fn experiment_trees(config: &SiteConfig) -> [PathBuf; 4] {
    [
        config.experiments.dir.clone(),
        config.cache_dir().join("results"),
        config.experiments.frozen_dir.clone(),
        config.machines.dir.clone(),
    ]
}

/// Identity of every file a build reads (the built-in theme is part of the binary; the
/// experiment stage's files are `experiment_files`) and of the options: equal stamps, equal
/// builds.
pub(super) fn inputs_stamp(
    config: &SiteConfig,
    opts: &BuildOptions,
    experiment_files: blake3::Hash,
) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(format!("{opts:?}").as_bytes());
    let root = &config.root;
    let trees = [
        root.join("site.toml"),
        root.join("content"),
        root.join(crate::standalone::DIR),
        root.join("templates"),
        root.join("static"),
    ];
    stamp_trees(&mut h, &trees);
    h.update(experiment_files.as_bytes());
    h.finalize()
}

/// Identity of the files the experiment stage reads.
pub(super) fn experiment_files_stamp(config: &SiteConfig) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    stamp_trees(&mut h, &experiment_trees(config));
    h.finalize()
}

/// Feeds the path, size and modification time of everything under `trees` (files or folders;
/// an experiments workspace's `target/` aside) to `h`, like `make`.
fn stamp_trees(h: &mut blake3::Hasher, trees: &[PathBuf]) {
    for tree in trees {
        let walk = walkdir::WalkDir::new(tree)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() != 1 || e.file_name() != "target");
        for entry in walk.filter_map(Result::ok) {
            h.update(entry.path().as_os_str().as_encoded_bytes());
            if let Ok(meta) = entry.metadata() {
                use std::os::unix::fs::MetadataExt;
                // The inode too: an editor's save renames a new file over the old one.
                for n in [meta.len(), meta.ino()] {
                    h.update(&n.to_le_bytes());
                }
                for t in [
                    meta.mtime(),
                    meta.mtime_nsec(),
                    meta.ctime(),
                    meta.ctime_nsec(),
                ] {
                    h.update(&t.to_le_bytes());
                }
            }
        }
    }
}
