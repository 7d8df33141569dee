//! The claims parser: any text is a claim or an error at a character of it, never a panic; a
//! parsed claim's operands are the text written at their offsets, and a tolerance is positive.
#![no_main]

use libfuzzer_sys::fuzz_target;
use measured::claims::{self, Cmp, Tolerance, Value};

fuzz_target!(|text: &str| {
    let _ = claims::experiments_of(text);
    match claims::parse(text) {
        Ok(e) => {
            for operand in [&e.lhs, &e.rhs] {
                let written: String = text
                    .chars()
                    .skip(operand.at)
                    .take(operand.text.chars().count())
                    .collect();
                assert_eq!(written, operand.text, "{text:?}");
                match &operand.value {
                    Value::Path { experiment } => {
                        assert!(operand.text.starts_with(&format!("{experiment}.")), "{text:?}");
                    }
                    Value::Number(n) => assert!(n.as_f64().is_finite(), "{text:?}"),
                }
            }
            if let Cmp::Approx(Tolerance::Relative(t) | Tolerance::Absolute(t)) = e.cmp {
                assert!(t > 0.0 && t.is_finite(), "{text:?}");
            }
        }
        Err(e) => assert!(e.at <= text.chars().count(), "{text:?} at {}", e.at),
    }
});
