//! URL segments from folder names and `slug:`, tag slugs and heading ids: a suggested segment
//! is always valid, an accepted one holds only the allowed characters, and nothing panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use measured::urls::{segment_problem, suggestion};

fuzz_target!(|s: &str| {
    assert_eq!(segment_problem(&suggestion(s)), None, "{s:?}");
    if segment_problem(s).is_none() {
        assert!(!s.is_empty() && !s.starts_with('.'), "{s:?}");
        assert!(
            s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
            "{s:?}"
        );
    }
    let tag = measured::site::tag_slug(s);
    assert!(!tag.contains(['/', '?', '#', ' ']), "{s:?} → {tag:?}");
    let id = measured::markdown::slug_id(s);
    assert!(!id.contains(['"', '<', '>', ' ']), "{s:?} → {id:?}");
});
