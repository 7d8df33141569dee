//! The `{{ }}` values of an article body: Markdown rendering with hooks that parse each
//! value's filter and format a number with it, as the real injector does; and the scan for
//! the experiments a body refers to. Any body renders or fails with diagnostics, never panics.
#![no_main]

use std::path::Path;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use measured::format::{self, Filter};
use measured::highlight::Highlighter;
use measured::lang::Lang;
use measured::markdown::{self, BlockKind, HookError, Hooks, Input, Labels};
use measured::theme::ThemeIds;

static HIGHLIGHTER: LazyLock<Highlighter> = LazyLock::new(Highlighter::default);

struct Numbers;

impl Hooks for Numbers {
    fn inline(&self, expr: &str, lang: &Lang) -> Result<String, HookError> {
        let (reference, filter) = expr.split_once('|').unwrap_or((expr, "auto"));
        let filter = Filter::parse(filter).map_err(HookError::new)?;
        // A number drawn from the reference, so the formatting sees many magnitudes.
        let bits = reference
            .bytes()
            .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b));
        let x = f64::from_bits(bits);
        let shown = format::number(x, false, filter, lang);
        let exact = format::integer(i128::from(bits as i64), filter, lang);
        Ok(format!("<data>{}{}</data>", shown, exact))
    }

    fn block(&self, _: BlockKind, args: &str, _: &str, _: &Lang) -> Result<String, HookError> {
        Err(HookError::new(format!("no experiment `{args}`")))
    }
}

fuzz_target!(|body: &str| {
    let _ = markdown::experiment_refs(body);
    let lang = Lang::parse("en").expect("en is a language");
    let rendered = markdown::render(&Input {
        path: Path::new("content/a/index.en.md"),
        body,
        body_line: 4,
        lang: &lang,
        highlighter: &HIGHLIGHTER,
        lines: None,
        hooks: &Numbers,
        labels: &Labels::default(),
        theme_ids: &ThemeIds::default(),
    });
    if let Err(diags) = rendered {
        assert!(diags.0.iter().all(|d| d.place.line.is_some_and(|l| l >= 4)));
    }
});
