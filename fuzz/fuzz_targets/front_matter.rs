//! The front-matter splitter and the whole parse of an article file: any text is an article
//! or a diagnostic with a line, never a panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use measured::lang::Lang;

fuzz_target!(|text: &str| {
    let path = Path::new("content/a/index.vi.md");
    if let Ok(split) = measured::frontmatter::split(path, text) {
        let _ = measured::frontmatter::parse(path, &split);
    }
    let lang = Lang::parse("vi").expect("vi is a language");
    if let Err(d) = measured::content::parse_doc(path, "a".into(), lang, text) {
        assert!(d.0.iter().all(|d| d.place.line.is_some()), "{d}");
    }
});
