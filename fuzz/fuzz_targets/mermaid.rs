//! Mermaid blocks through `diagram::mermaid`: any text is an SVG or an error (at a line of the
//! block when it names one), and never exhausts the stack. The drawing runs on a thread of
//! 256 KB, several times what a diagram nested as deep as measured accepts takes in release,
//! so that a nesting the bound undercounts overflows here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use measured::diagram::{self, DiagramOptions};

fuzz_target!(|source: &str| {
    // An overflow of the small thread's stack kills the process before libFuzzer can save the
    // input: with MEASURED_FUZZ_LAST set, each input is written there first.
    if let Some(path) = std::env::var_os("MEASURED_FUZZ_LAST") {
        let _ = std::fs::write(path, source);
    }
    let source = source.to_string();
    let drawn = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let opts = DiagramOptions {
                id: "mmd1",
                title: "Diagram",
            };
            match diagram::mermaid(&source, &opts) {
                Ok(drawn) => assert!(drawn.svg.starts_with("<svg class=\"diagram\""), "{}", drawn.svg),
                Err(e) => {
                    if let Some(line) = e.line {
                        assert!(line >= 1 && line <= source.lines().count().max(1), "{e}");
                    }
                }
            }
        })
        .expect("a thread");
    drawn.join().expect("no panic");
});
