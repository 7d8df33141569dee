//! Claims as written in a file's front matter: a map from a short id to an expression, each
//! entry with the line and column it is written at. Only the shape is read here (and the old
//! list form kept so that its error can show the map form); ids and expressions are checked by
//! the claims stage, which reports every malformed claim of the site at once.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// `claims:` as the YAML parser reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawClaims {
    /// `id: expression` entries, in file order (repeated ids kept, to be reported).
    Map(Vec<(String, String)>),
    /// The old form, a list of expressions: an error whose hint shows the map form.
    List(Vec<String>),
}

impl<'de> serde::Deserialize<'de> for RawClaims {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawClaimsVisitor)
    }
}

struct RawClaimsVisitor;

const EXPECTED: &str = "a map from a claim's id to its expression, e.g. `faster: a.ratio > 2`";

impl<'de> Visitor<'de> for RawClaimsVisitor {
    type Value = RawClaims;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawClaims, A::Error> {
        let mut entries = Vec::new();
        while let Some((id, Expression(text))) = map.next_entry::<String, Expression>()? {
            entries.push((id, text));
        }
        Ok(RawClaims::Map(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawClaims, A::Error> {
        let mut items = Vec::new();
        while let Some(Expression(text)) = seq.next_element::<Expression>()? {
            items.push(text);
        }
        Ok(RawClaims::List(items))
    }
}

/// A claim's expression: text, or a number or boolean YAML read as a scalar (kept as text, so
/// that the expression parser explains what is missing).
struct Expression(String);

impl<'de> serde::Deserialize<'de> for Expression {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = Expression;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a claim such as `a.ratio > 2`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Expression, E> {
                Ok(Expression(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Expression, E> {
                Ok(Expression(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Expression, E> {
                Ok(Expression(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Expression, E> {
                Ok(Expression(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Expression, E> {
                Ok(Expression(v.to_string()))
            }
        }
        d.deserialize_any(Text)
    }
}

/// The claims one file declares, with where each is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// 1-based line of the `claims:` key.
    pub line: usize,
    pub form: Form,
    pub entries: Vec<Entry>,
}

/// How `claims:` was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Map,
    /// The old list form (entries have empty ids).
    List,
}

/// One claim as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: String,
    pub text: String,
    /// 1-based line of the file.
    pub line: usize,
    /// 1-based column (in characters) where the expression starts on that line.
    pub col: usize,
    /// The line as written, for error messages.
    pub source_line: String,
}

/// Places the entries of `raw` in the front matter `yaml`, which starts at line `yaml_line`
/// of the file and has its `claims:` key at `key_line`: each entry is looked for on the lines
/// after the previous one.
pub fn locate(yaml: &str, yaml_line: usize, key_line: usize, raw: RawClaims) -> Written {
    let lines: Vec<&str> = yaml.lines().collect();
    let mut next = key_line.saturating_sub(yaml_line) + 1;
    let (form, items): (Form, Vec<(String, String)>) = match raw {
        RawClaims::Map(entries) => (Form::Map, entries),
        RawClaims::List(items) => (
            Form::List,
            items.into_iter().map(|t| (String::new(), t)).collect(),
        ),
    };
    let entries = items
        .into_iter()
        .map(|(id, text)| {
            let found = (next..lines.len()).find(|&i| starts_entry(lines[i], form, &id));
            let i = found.unwrap_or(next.min(lines.len().saturating_sub(1)));
            next = found.map_or(next, |i| i + 1);
            let source_line = lines.get(i).copied().unwrap_or_default();
            let col = source_line
                .find(text.as_str())
                .map_or(1, |at| source_line[..at].chars().count() + 1);
            Entry {
                id,
                text,
                line: yaml_line + i,
                col,
                source_line: source_line.to_string(),
            }
        })
        .collect();
    Written {
        line: key_line,
        form,
        entries,
    }
}

/// Whether a YAML line starts the entry `id` (a map key, maybe quoted) or a list item.
fn starts_entry(line: &str, form: Form, id: &str) -> bool {
    let line = line.trim_start();
    match form {
        Form::List => line.starts_with("- "),
        Form::Map => [id.to_string(), format!("\"{id}\""), format!("'{id}'")]
            .iter()
            .any(|key| {
                // `id: …` in YAML, `id = …` in TOML.
                line.strip_prefix(key.as_str())
                    .is_some_and(|rest| rest.trim_start().starts_with([':', '=']))
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `claims` read by the front-matter parser from a file whose YAML is `title`, `date`, then
    /// `yaml` (so line 2 of `yaml` is line 5 of the file).
    fn raw(yaml: &str) -> RawClaims {
        let text = format!("---\ntitle: A\ndate: 2026-01-01\n{yaml}---\n");
        let path = std::path::Path::new("a.md");
        let split = crate::frontmatter::split(path, &text).unwrap();
        crate::frontmatter::parse(path, &split)
            .unwrap()
            .claims
            .unwrap()
    }

    #[test]
    fn the_map_form_keeps_order_repeats_and_places() {
        let yaml =
            "claims:\n  faster: a.x > 2 # why\n  \"same\": a.y ~= a.z ± 10%\n  faster: a.x < 9\n";
        let r = raw(yaml);
        assert_eq!(
            r,
            RawClaims::Map(vec![
                ("faster".into(), "a.x > 2".into()),
                ("same".into(), "a.y ~= a.z ± 10%".into()),
                ("faster".into(), "a.x < 9".into()),
            ])
        );
        let w = locate(yaml, 4, 4, r);
        assert_eq!(w.form, Form::Map);
        let places: Vec<(usize, usize)> = w.entries.iter().map(|e| (e.line, e.col)).collect();
        assert_eq!(places, [(5, 11), (6, 11), (7, 11)]);
        assert_eq!(w.entries[1].source_line, "  \"same\": a.y ~= a.z ± 10%");
    }

    #[test]
    fn the_list_form_is_read_to_be_reported() {
        let yaml = "claims:\n  - a.x > 2\n  - 3\n";
        let w = locate(yaml, 4, 4, raw(yaml));
        assert_eq!(w.form, Form::List);
        assert_eq!(w.entries[1].text, "3");
        assert_eq!(w.entries[1].line, 6);
    }
}
