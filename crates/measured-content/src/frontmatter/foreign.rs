//! Another generator's front matter (for `measured import`), read into plain JSON values, and
//! measured's YAML front matter written from them. Here so that serde_yaml stays inside the
//! front-matter module.

use serde_json::{Map, Value};

use super::{Format, Split};

/// The keys and values of a split file's front matter, whatever generator wrote it; TOML
/// dates become their text as written (`2025-06-04T17:04:06+07:00`). The error is the
/// parser's message without its place.
pub fn read(split: &Split<'_>) -> Result<Map<String, Value>, String> {
    let value = match split.format {
        Format::Yaml if split.text.trim().is_empty() => Value::Object(Map::new()),
        Format::Yaml => serde_yaml::from_str::<Value>(split.text).map_err(|e| e.to_string())?,
        Format::Toml => from_toml(
            toml::from_str::<toml::Value>(split.text).map_err(|e| e.message().to_string())?,
        ),
    };
    match value {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(Map::new()),
        _ => Err("the front matter is not a map of keys to values".into()),
    }
}

/// The format of another generator's configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigFormat {
    Toml,
    Yaml,
    Json,
}

/// The keys and values of another generator's configuration file (`hugo.toml`, Zola's
/// `config.toml`, Jekyll's `_config.yml`), as plain JSON values. The error is the parser's
/// message.
pub fn read_config(text: &str, format: ConfigFormat) -> Result<Map<String, Value>, String> {
    let value = match format {
        ConfigFormat::Toml => {
            from_toml(toml::from_str::<toml::Value>(text).map_err(|e| e.message().to_string())?)
        }
        ConfigFormat::Yaml if text.trim().is_empty() => Value::Object(Map::new()),
        ConfigFormat::Yaml => serde_yaml::from_str::<Value>(text).map_err(|e| e.to_string())?,
        ConfigFormat::Json => serde_json::from_str::<Value>(text).map_err(|e| e.to_string())?,
    };
    match value {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(Map::new()),
        _ => Err("the configuration is not a map of keys to values".into()),
    }
}

fn from_toml(value: toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(from_toml).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.into_iter().map(|(k, v)| (k, from_toml(v))).collect())
        }
    }
}

/// A YAML front matter (between `---` lines) holding `entries` in their order.
pub fn write_yaml(entries: &[(&str, Value)]) -> String {
    let mut map = serde_yaml::Mapping::new();
    for (key, value) in entries {
        let value = serde_yaml::to_value(value).unwrap_or(serde_yaml::Value::Null);
        map.insert(serde_yaml::Value::String((*key).to_string()), value);
    }
    let text = serde_yaml::to_string(&map).unwrap_or_default();
    format!("---\n{text}---\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn toml_dates_keep_their_text_and_yaml_round_trips() {
        let text = "+++\ntitle = \"A\"\ndate = 2025-06-04T17:04:06+07:00\n[taxonomies]\ntags = [\"x\"]\n+++\nbody\n";
        let split = super::super::split(Path::new("a.md"), text).unwrap();
        let map = read(&split).unwrap();
        assert_eq!(map["date"], "2025-06-04T17:04:06+07:00");
        assert_eq!(map["taxonomies"]["tags"][0], "x");
        let yaml = write_yaml(&[("title", Value::from("A: b")), ("draft", Value::Bool(true))]);
        assert_eq!(yaml, "---\ntitle: 'A: b'\ndraft: true\n---\n");
    }
}
