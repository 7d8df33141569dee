//! Looking values up in experiments' results: `<experiment>.<json.path>` → a JSON value, with
//! errors that suggest the closest existing name; and reading a value as a number (a timing
//! summary is its median, a ratio its value).

use serde_json::Value;

use crate::experiments::{Measurement, Measurements};
use measured_core::format::Filter;
use measured_core::lang::Lang;
use measured_core::reference::{HookError, Reference};

pub use measured_core::reference::{MACHINE, type_name};

/// What kind of number a value is, which picks its default filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Plain,
    /// A harness timing summary (`"type": "timing"`, nanoseconds): shows its median.
    Timing,
    /// A harness ratio (`"type": "ratio"`): shows its value.
    Ratio,
    /// A harness share (`"type": "share"`, a part of a whole): shows its value as a percentage.
    Share,
}

impl Kind {
    pub fn default_filter(self) -> Filter {
        match self {
            Kind::Plain => Filter::Auto,
            Kind::Timing => Filter::Duration,
            Kind::Ratio => Filter::Ratio,
            Kind::Share => Filter::Percent,
        }
    }
}

/// A number read from results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    pub value: f64,
    /// The exact value of an integer of the JSON (`value` loses digits past 2^53).
    pub int: Option<i128>,
    pub kind: Kind,
}

impl Number {
    /// The number as a reader sees it: `filter` for `lang`, an integer exactly.
    pub fn show(&self, filter: Filter, lang: &Lang) -> String {
        match self.int {
            Some(i) => measured_core::format::integer(i, filter, lang),
            None => measured_core::format::number(self.value, false, filter, lang),
        }
    }

    /// The number as a machine reads it (`<data value>`): an integer exactly, other numbers in
    /// the shortest form that reads back the same (with an exponent when very large or small).
    pub fn raw(&self) -> String {
        let v = self.value;
        match self.int {
            Some(i) => i.to_string(),
            None if v == 0.0 => "0".into(),
            None if v.is_finite() && (1e-6..1e15).contains(&v.abs()) => v.to_string(),
            None => format!("{v:e}"),
        }
    }
}

/// The number a JSON value stands for, if any.
pub fn number(v: &Value) -> Option<Number> {
    match v {
        Value::Number(n) => {
            let int = n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from));
            n.as_f64().map(|value| Number {
                value,
                int,
                kind: Kind::Plain,
            })
        }
        Value::Object(map) => match map.get("type").and_then(Value::as_str) {
            Some("timing") => map
                .get("median")
                .and_then(Value::as_f64)
                .map(|value| Number {
                    value,
                    int: None,
                    kind: Kind::Timing,
                }),
            Some(kind @ ("ratio" | "share" | "number")) => map
                .get("value")
                .and_then(Value::as_f64)
                .map(|value| Number {
                    value,
                    int: None,
                    kind: match kind {
                        "ratio" => Kind::Ratio,
                        "share" => Kind::Share,
                        _ => Kind::Plain,
                    },
                }),
            _ => None,
        },
        _ => None,
    }
}

/// The value at a dotted `path` inside `root` (array elements by index).
pub fn at<'v>(root: &'v Value, path: &str) -> Result<&'v Value, HookError> {
    check_dots(path)?;
    let mut cur = root;
    let mut walked = String::new();
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        let next = match cur {
            Value::Object(map) => map.get(seg).ok_or_else(|| {
                let keys: Vec<&str> = map.keys().map(String::as_str).collect();
                let suggestion = measured_core::diag::closest(seg, keys.iter().copied())
                    .map(|c| format!("did you mean `{}`?", join(&walked, c)))
                    .unwrap_or_else(|| format!("the keys here are: {}", keys.join(", ")));
                HookError::new(format!(
                    "no `{seg}` in {}",
                    if walked.is_empty() {
                        "the results"
                    } else {
                        &walked
                    }
                ))
                .hint(suggestion)
            })?,
            Value::Array(items) => {
                let i: usize = seg.parse().map_err(|_| {
                    HookError::new(format!(
                        "`{walked}` is a list: index it with a number, not `{seg}`"
                    ))
                })?;
                items.get(i).ok_or_else(|| {
                    HookError::new(format!(
                        "`{walked}` has {} elements, no index {i}",
                        items.len()
                    ))
                })?
            }
            _ => {
                return Err(HookError::new(format!(
                    "`{walked}` is a {}, it has no `{seg}`",
                    type_name(cur)
                )));
            }
        };
        walked = join(&walked, seg);
        cur = next;
    }
    Ok(cur)
}

/// A path's names have one dot between them: `x..v` or `x.v.` is a typo, not `x.v`.
fn check_dots(path: &str) -> Result<(), HookError> {
    if path.is_empty() || path.split('.').all(|s| !s.trim().is_empty()) {
        return Ok(());
    }
    let names: Vec<&str> = path
        .split('.')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    Err(HookError::new(format!(
        "`{path}` has an empty name: two dots together, or a dot at an end"
    ))
    .hint(format!(
        "write one dot between names: `{}`",
        names.join(".")
    )))
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}.{b}")
    }
}

/// Splits `experiment.path` and finds the experiment's measurement.
pub fn measurement<'m>(
    m: &'m Measurements,
    reference: &str,
) -> Result<(&'m Measurement, &'m str, String), HookError> {
    check_dots(reference.trim())?;
    let Reference { name, path, .. } = Reference::parse(reference);
    match m.by_name.get(name) {
        Some(found) => {
            let (key, _) = m.by_name.get_key_value(name).expect("present");
            Ok((found, key.as_str(), path.to_string()))
        }
        None => {
            let names: Vec<&str> = m.crates.keys().map(String::as_str).collect();
            let hint = match measured_core::diag::closest(name, names.iter().copied()) {
                Some(c) => format!("did you mean `{c}`?"),
                None if names.is_empty() => {
                    "there is no experiment in experiments/ yet; to show `{{ … }}` as text, put it in backticks, as code".to_string()
                }
                None => format!("the experiments are: {}", names.join(", ")),
            };
            Err(HookError::new(format!("unknown experiment `{name}` in `{reference}`")).hint(hint))
        }
    }
}

/// The value a full reference `experiment.path` names.
pub fn resolve<'m>(
    m: &'m Measurements,
    reference: &str,
) -> Result<(&'m Measurement, &'m Value), HookError> {
    let (found, name, path) = measurement(m, reference)?;
    let v = at(&found.record.results, &path).map_err(|e| HookError {
        message: format!(
            "{} (experiment `{name}`, reference `{reference}`)",
            e.message
        ),
        hint: e
            .hint
            .map(|h| format!("{h} (paths are relative to `{name}`'s results)")),
    })?;
    Ok((found, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_from_plain_timing_and_ratio_values() {
        assert_eq!(
            number(&json!(3)).unwrap(),
            Number {
                value: 3.0,
                int: Some(3),
                kind: Kind::Plain
            }
        );
        assert_eq!(
            number(&json!({"type": "timing", "median": 391.5}))
                .unwrap()
                .kind,
            Kind::Timing
        );
        assert_eq!(
            number(&json!({"type": "ratio", "value": 2.5}))
                .unwrap()
                .value,
            2.5
        );
        assert!(number(&json!("x")).is_none());
    }

    #[test]
    fn integers_beyond_2_pow_53_stay_exact() {
        let en = Lang::parse("en").unwrap();
        let max = number(&json!(u64::MAX)).unwrap();
        assert_eq!(max.raw(), "18446744073709551615");
        assert_eq!(max.show(Filter::Auto, &en), "18,446,744,073,709,551,615");
        let min = number(&json!(i64::MIN)).unwrap();
        assert_eq!(min.raw(), "-9223372036854775808");
        assert_eq!(min.show(Filter::Int, &en), "-9,223,372,036,854,775,808");
        assert_eq!(number(&json!(1e308)).unwrap().raw(), "1e308");
        assert_eq!(number(&json!(-0.0)).unwrap().raw(), "0");
        assert_eq!(number(&json!(0.61)).unwrap().raw(), "0.61");
    }

    #[test]
    fn paths_walk_objects_and_arrays_and_suggest() {
        let v =
            json!({"sizes": {"json": 440, "cbor": 339}, "sweep": [{"bytes": 1}, {"bytes": 10}]});
        assert_eq!(at(&v, "sizes.json").unwrap(), &json!(440));
        assert_eq!(at(&v, "sweep.1.bytes").unwrap(), &json!(10));
        let e = at(&v, "sizes.jsno").unwrap_err();
        assert_eq!(e.message, "no `jsno` in sizes");
        assert_eq!(e.hint.as_deref(), Some("did you mean `sizes.json`?"));
        assert!(at(&v, "sweep.x").unwrap_err().message.contains("is a list"));
        assert!(
            at(&v, "sweep.5")
                .unwrap_err()
                .message
                .contains("has 2 elements")
        );
    }
}
