//! URL segments from folder names and `slug:`, tag slugs and heading ids: a suggested segment
//! is always valid, an accepted one holds only the allowed characters, and nothing panics.
#![no_main]

use std::path::Path;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use measured::config::SiteConfig;
use measured::urls::{segment_problem, suggestion};

/// A site with no `[tags]` table: every tag's slug is made from its name.
static CONFIG: LazyLock<SiteConfig> = LazyLock::new(|| {
    let toml = "base_url = \"https://example.org\"\ndefault_language = \"vi\"\n[languages.vi]\ntitle = \"A\"\n";
    measured::config::parse(Path::new("."), Path::new("site.toml"), toml)
        .expect("a minimal site.toml")
});

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
    let tag = measured::site::tag_slug(&CONFIG, s);
    assert!(!tag.contains(['/', '?', '#', ' ']), "{s:?} → {tag:?}");
    let id = measured::markdown::slug_id(s);
    assert!(!id.contains(['"', '<', '>', ' ']), "{s:?} → {id:?}");
});
