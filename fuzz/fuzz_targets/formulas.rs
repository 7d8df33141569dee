//! Formulas (`$…$`, `$$…$$`) through `math::to_mathml`: any text is MathML or an error at a
//! line and column inside it, never makes math-core panic (libfuzzer-sys's panic hook aborts
//! even on a panic `to_mathml` catches), and never exhausts the stack. The conversion runs on
//! a thread of 256 KB, a few times what a formula nested as deep as measured accepts takes in
//! release (about 1.7 KB a level), so that a nesting the bound undercounts overflows here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use measured::math::{self, Display};

fuzz_target!(|latex: &str| {
    let latex = latex.to_string();
    let converted = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            for display in [Display::Inline, Display::Block] {
                match math::to_mathml(&latex, display) {
                    Ok(mathml) => {
                        assert!(mathml.starts_with("<math"), "{mathml}");
                        let _ = math::plain_text(&mathml);
                    }
                    Err(e) => {
                        assert!(e.offset <= latex.len(), "{e}");
                        assert!(e.line >= 1 && e.column >= 1, "{e}");
                        assert!(e.line <= latex.matches('\n').count() + 1, "{e}");
                    }
                }
            }
        })
        .expect("a thread");
    converted.join().expect("no panic");
});
