//! TOML front matter (between `+++` lines, as Hugo and Zola write it), read into the same
//! value the YAML parser gives, so that one check of keys and types serves both. A TOML
//! date-time (`date = 2025-06-04T17:04:06+07:00`) becomes its RFC 3339 text.

use serde_yaml::{Mapping, Value};

/// The TOML `text` as a YAML value, or the parser's message and the byte offset it points at.
pub fn to_value(text: &str) -> Result<Value, (String, Option<usize>)> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| (e.message().to_string(), e.span().map(|s| s.start)))?;
    Ok(table_value(table))
}

fn table_value(table: toml::Table) -> Value {
    let mut map = Mapping::new();
    for (k, v) in table {
        map.insert(Value::String(k), value(v));
    }
    Value::Mapping(map)
}

fn value(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::Number(i.into()),
        toml::Value::Float(f) => Value::Number(f.into()),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Sequence(items.into_iter().map(value).collect()),
        toml::Value::Table(t) => table_value(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_reads_as_the_yaml_value_with_dates_as_text() {
        let v = to_value("title = \"A\"\ndate = 2025-06-04T17:04:06+07:00\ntags = [\"x\"]\ndraft = true\n[claims]\nfast = \"a.b > 1\"\n").unwrap();
        let yaml: Value = serde_yaml::from_str(
            "title: A\ndate: \"2025-06-04T17:04:06+07:00\"\ntags: [x]\ndraft: true\nclaims:\n  fast: a.b > 1\n",
        )
        .unwrap();
        assert_eq!(v, yaml);
    }

    #[test]
    fn a_toml_error_has_its_offset() {
        let (message, at) = to_value("title = \"A\"\ndate = \n").unwrap_err();
        assert!(!message.is_empty());
        assert!(at.is_some_and(|o| o >= 12), "{at:?}");
    }
}
