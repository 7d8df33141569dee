//! A parsed front matter as a tree that keeps every entry of a map, repeated keys included:
//! serde_yaml's own `Value` refuses a repeated key outright, which would hide every other
//! problem of the file and the claims stage's own report of a repeated claim id.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_yaml::{Mapping, Value};

/// A YAML (or TOML) value whose maps keep their entries in order, repeats included.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar(Value),
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The value serde reads (a repeated key of a nested map: the last one).
    pub fn into_value(self) -> Value {
        match self {
            Node::Scalar(v) => v,
            Node::Seq(items) => Value::Sequence(items.into_iter().map(Node::into_value).collect()),
            Node::Map(entries) => {
                let mut map = Mapping::new();
                for (k, v) in entries {
                    map.insert(Value::String(k), v.into_value());
                }
                Value::Mapping(map)
            }
        }
    }

    /// The tree of a value (which has no repeated keys).
    pub fn of_value(v: Value) -> Node {
        match v {
            Value::Sequence(items) => Node::Seq(items.into_iter().map(Node::of_value).collect()),
            Value::Mapping(map) => Node::Map(
                map.into_iter()
                    .map(|(k, v)| (text_of(&k), Node::of_value(v)))
                    .collect(),
            ),
            Value::Tagged(t) => Node::of_value(t.value),
            v => Node::Scalar(v),
        }
    }

    /// A scalar as text (`2` and `true` too); `None` for null, lists and maps.
    pub fn scalar_text(&self) -> Option<String> {
        match self {
            Node::Scalar(Value::String(s)) => Some(s.clone()),
            Node::Scalar(Value::Number(n)) => Some(n.to_string()),
            Node::Scalar(Value::Bool(b)) => Some(b.to_string()),
            _ => None,
        }
    }
}

/// A map key as text.
fn text_of(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

impl<'de> serde::Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Number(v.into())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Number(v.into())))
    }

    // A whole number past 64 bits (`part: 99999999999999999999`): kept as its digits, for the
    // key's own check to say what is wrong with it.
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Node, E> {
        Ok(Node::Scalar(Value::String(v.to_string())))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Node, E> {
        Ok(Node::Scalar(Value::String(v.to_string())))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Number(v.into())))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Scalar(Value::String(v.to_string())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<Node, Node>()? {
            let key = match k {
                Node::Scalar(s) => text_of(&s),
                other => text_of(&other.into_value()),
            };
            entries.push((key, v));
        }
        Ok(Node::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_kept_in_order() {
        let n: Node = serde_yaml::from_str("a: 1\nb:\n  x: p\n  x: q\n").unwrap();
        let Node::Map(entries) = n else { panic!() };
        assert_eq!(entries[0].0, "a");
        let Node::Map(inner) = &entries[1].1 else {
            panic!()
        };
        let keys: Vec<&str> = inner.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["x", "x"]);
    }
}
