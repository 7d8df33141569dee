//! The results file: one JSON object built with dotted keys, written to the
//! path in `MEASURED_RESULTS` for the site generator to read.

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::{Map, Value};
use std::fmt::{self, Display};

/// The experiment's results: one JSON object.
///
/// ```
/// let mut r = harness::Results::new();
/// r.set("sizes.json", 412);
/// r.set("sizes.protobuf", 188);
/// assert_eq!(r.get("sizes.json").unwrap(), 412);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Results {
    root: Map<String, Value>,
}

impl Results {
    pub fn new() -> Results {
        Results::default()
    }

    /// Sets `key` to `value`. Dots in `key` create nested objects
    /// (`"decode.json"` → `{"decode": {"json": …}}`); setting an existing key
    /// replaces its value. Panics with the key's name if `value` holds a NaN
    /// or infinite number (JSON cannot hold them), if `value` fails to
    /// serialize, or if a prefix of `key` already holds a non-object.
    pub fn set(&mut self, key: &str, value: impl Serialize) {
        if let Err(e) = value.serialize(FiniteCheck::new(key)) {
            panic!("harness: Results::set(\"{key}\"): {e}");
        }
        let mut v = serde_json::to_value(&value)
            .unwrap_or_else(|e| panic!("harness: Results::set(\"{key}\"): cannot serialize: {e}"));
        mark_comparisons(key, &mut v);
        let parts: Vec<&str> = key.split('.').collect();
        assert!(
            parts.iter().all(|p| !p.is_empty()),
            "harness: Results::set(\"{key}\"): empty key segment"
        );
        let (last, prefix) = parts.split_last().unwrap();
        let mut obj = &mut self.root;
        for (i, p) in prefix.iter().enumerate() {
            let entry = obj
                .entry(p.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            obj = match entry {
                Value::Object(m) => m,
                other => panic!(
                    "harness: Results::set(\"{key}\"): \"{}\" already holds a non-object ({other})",
                    parts[..=i].join(".")
                ),
            };
        }
        obj.insert(last.to_string(), v);
    }

    /// The value at a dotted key, if set.
    pub fn get(&self, key: &str) -> Option<&Value> {
        let mut parts = key.split('.');
        let mut v = self.root.get(parts.next()?)?;
        for p in parts {
            // An array's elements by index: `sweep.3.bytes`.
            v = match v {
                Value::Array(items) => items.get(p.parse::<usize>().ok()?)?,
                _ => v.as_object()?.get(p)?,
            };
        }
        Some(v)
    }

    /// The whole object as it would be written (without `_harness`).
    pub fn to_value(&self) -> Value {
        Value::Object(self.root.clone())
    }

    /// The final JSON text: the object plus
    /// `"_harness": {"quick": bool, "version": "…"}`.
    pub fn to_json(&self) -> String {
        let mut root = self.root.clone();
        root.insert(
            "_harness".into(),
            serde_json::json!({"quick": crate::quick(), "version": crate::VERSION}),
        );
        serde_json::to_string_pretty(&Value::Object(root)).expect("JSON value serializes")
    }

    /// Writes the results to the file named by `MEASURED_RESULTS`, or
    /// pretty-prints them to stderr when it is unset. Panics if the file
    /// cannot be written.
    pub fn write(&self) {
        let text = self.to_json();
        match std::env::var_os("MEASURED_RESULTS") {
            Some(path) if !path.is_empty() => {
                std::fs::write(&path, text + "\n")
                    .unwrap_or_else(|e| panic!("harness: cannot write results to {path:?}: {e}"));
            }
            _ => eprintln!("{text}"),
        }
    }
}

/// Marks the ratio of every [`crate::Comparison`] inside `v` (set at `key`) as derived from its
/// two sides, so that the site generator computes the published ratio from the combined
/// sides, as it does for [`Results::ratio`].
fn mark_comparisons(key: &str, v: &mut Value) {
    let Value::Object(map) = v else {
        return;
    };
    let is = |v: Option<&Value>, kind: &str| {
        v.and_then(|v| v.get("type")).and_then(Value::as_str) == Some(kind)
    };
    if is(map.get("a"), "timing") && is(map.get("b"), "timing") && is(map.get("ratio"), "ratio") {
        if let Some(Value::Object(ratio)) = map.get_mut("ratio") {
            ratio.entry("derived").or_insert_with(|| {
                serde_json::json!({"op": "ratio", "of": [format!("{key}.a"), format!("{key}.b")]})
            });
        }
    }
    for (k, child) in map.iter_mut() {
        mark_comparisons(&format!("{key}.{k}"), child);
    }
}

// --- A serializer that only checks that every number is finite -----------

#[derive(Debug)]
struct CheckError(String);

impl Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckError {}

impl ser::Error for CheckError {
    fn custom<T: Display>(msg: T) -> Self {
        CheckError(msg.to_string())
    }
}

/// Walks a value as serde would serialize it, tracking the path, and fails on
/// the first non-finite float.
struct FiniteCheck {
    path: String,
}

impl FiniteCheck {
    fn new(path: &str) -> FiniteCheck {
        FiniteCheck { path: path.into() }
    }

    fn child(&self, seg: impl Display) -> FiniteCheck {
        FiniteCheck {
            path: format!("{}.{seg}", self.path),
        }
    }

    fn float(&self, v: f64) -> Result<(), CheckError> {
        if v.is_finite() {
            Ok(())
        } else {
            Err(CheckError(format!(
                "non-finite number {v} at \"{}\" (JSON has no NaN or infinity)",
                self.path
            )))
        }
    }
}

/// Compound state: the parent path, the next index or pending map key.
struct Compound {
    parent: FiniteCheck,
    index: usize,
    key: Option<String>,
}

impl Compound {
    fn new(parent: FiniteCheck) -> Compound {
        Compound {
            parent,
            index: 0,
            key: None,
        }
    }

    fn element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), CheckError> {
        let c = self.parent.child(self.index);
        self.index += 1;
        v.serialize(c)
    }
}

type Ok = ();

impl ser::Serializer for FiniteCheck {
    type Ok = Ok;
    type Error = CheckError;
    type SerializeSeq = Compound;
    type SerializeTuple = Compound;
    type SerializeTupleStruct = Compound;
    type SerializeTupleVariant = Compound;
    type SerializeMap = Compound;
    type SerializeStruct = Compound;
    type SerializeStructVariant = Compound;

    fn serialize_bool(self, _: bool) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_i128(self, _: i128) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_u128(self, _: u128) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<Ok, CheckError> {
        self.float(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Ok, CheckError> {
        self.float(v)
    }
    fn serialize_char(self, _: char) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_none(self) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<Ok, CheckError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<Ok, CheckError> {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Ok, CheckError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Ok, CheckError> {
        v.serialize(self.child(variant))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound, CheckError> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound, CheckError> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound, CheckError> {
        Ok(Compound::new(self))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound, CheckError> {
        Ok(Compound::new(self.child(variant)))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound, CheckError> {
        Ok(Compound::new(self))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound, CheckError> {
        Ok(Compound::new(self))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound, CheckError> {
        Ok(Compound::new(self.child(variant)))
    }
}

impl ser::SerializeSeq for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), CheckError> {
        self.element(v)
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

impl ser::SerializeTuple for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), CheckError> {
        self.element(v)
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), CheckError> {
        self.element(v)
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), CheckError> {
        self.element(v)
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

impl ser::SerializeMap for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> Result<(), CheckError> {
        self.key = Some(k.serialize(KeyName).unwrap_or_else(|_| "?".into()));
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), CheckError> {
        let key = self.key.take().unwrap_or_else(|| "?".into());
        v.serialize(self.parent.child(key))
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

impl ser::SerializeStruct for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), CheckError> {
        v.serialize(self.parent.child(name))
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound {
    type Ok = Ok;
    type Error = CheckError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), CheckError> {
        v.serialize(self.parent.child(name))
    }
    fn end(self) -> Result<Ok, CheckError> {
        Ok(())
    }
}

/// Turns a map key into text for the error path (strings, numbers, chars).
struct KeyName;

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = CheckError;
    type SerializeSeq = Impossible<String, CheckError>;
    type SerializeTuple = Impossible<String, CheckError>;
    type SerializeTupleStruct = Impossible<String, CheckError>;
    type SerializeTupleVariant = Impossible<String, CheckError>;
    type SerializeMap = Impossible<String, CheckError>;
    type SerializeStruct = Impossible<String, CheckError>;
    type SerializeStructVariant = Impossible<String, CheckError>;

    fn serialize_bool(self, v: bool) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, v: f32) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_f64(self, v: f64) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_char(self, v: char) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, CheckError> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, CheckError> {
        Err(ser::Error::custom("bytes key"))
    }
    fn serialize_none(self) -> Result<String, CheckError> {
        Err(ser::Error::custom("none key"))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<String, CheckError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, CheckError> {
        Err(ser::Error::custom("unit key"))
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<String, CheckError> {
        Ok(name.to_string())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, CheckError> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, CheckError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, CheckError> {
        Err(ser::Error::custom("compound key"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ratio, Summary};
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn a_comparisons_ratio_is_derived_from_its_two_sides() {
        let t = crate::Summary::from_ns(vec![1.0, 2.0, 3.0]);
        let c = crate::Comparison {
            a: t.clone(),
            b: t.clone(),
            ratio: crate::Ratio::of(&t, &t),
        };
        let mut r = Results::new();
        r.set("x.cmp", &c);
        assert_eq!(
            r.get("x.cmp.ratio.derived").unwrap(),
            &serde_json::json!({"op": "ratio", "of": ["x.cmp.a", "x.cmp.b"]})
        );
    }

    #[test]
    fn get_follows_array_indices() {
        let mut r = Results::new();
        r.set("sweep", serde_json::json!([{"bytes": 1}, {"bytes": 2}]));
        assert_eq!(r.get("sweep.1.bytes").unwrap(), 2);
        assert!(r.get("sweep.2.bytes").is_none());
        assert!(r.get("sweep.x").is_none());
        r.set("a", 1);
        r.set("b", 2);
        r.ratio("sweep_ratio", "sweep.1.bytes", "sweep.0.bytes");
        assert_eq!(r.get("sweep_ratio.value").unwrap(), 2.0);
    }

    #[test]
    fn dotted_keys_nest() {
        let mut r = Results::new();
        r.set("a.b.c", 1);
        r.set("a.b.d", "x");
        r.set("a.e", [1.5, 2.5]);
        r.set("top", true);
        r.set("a.b.c", 2); // replaces
        assert_eq!(
            r.to_value(),
            json!({"a": {"b": {"c": 2, "d": "x"}, "e": [1.5, 2.5]}, "top": true})
        );
        assert_eq!(r.get("a.b.d").unwrap(), "x");
        assert!(r.get("a.zzz").is_none());
        let text: Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(text["_harness"]["version"], crate::VERSION);
        assert!(text["_harness"]["quick"].is_boolean());
    }

    #[test]
    fn timing_and_ratio_values() {
        let mut r = Results::new();
        let s = Summary::from_ns(vec![1.0, 2.0, 3.0]);
        r.set("x.t", &s);
        r.set("x.r", Ratio::of(&s, &s));
        assert_eq!(r.get("x.t.type").unwrap(), "timing");
        assert_eq!(r.get("x.r.value").unwrap(), 1.0);
    }

    #[test]
    #[should_panic(expected = "\"a\" already holds a non-object")]
    fn prefix_conflict_panics() {
        let mut r = Results::new();
        r.set("a", 1);
        r.set("a.b", 2);
    }

    #[test]
    #[should_panic(expected = "non-finite number NaN at \"speed.rows.1.v\"")]
    fn nan_panics_with_path() {
        #[derive(Serialize)]
        struct Row {
            v: f64,
        }
        let mut r = Results::new();
        r.set("speed.rows", vec![Row { v: 1.0 }, Row { v: f64::NAN }]);
    }

    #[test]
    #[should_panic(expected = "non-finite number inf at \"m.k2\"")]
    fn inf_in_map_panics_with_key() {
        let mut m = BTreeMap::new();
        m.insert("k1", 1.0);
        m.insert("k2", f64::INFINITY);
        Results::new().set("m", m);
    }

    #[test]
    fn options_and_enums_pass() {
        #[derive(Serialize)]
        enum E {
            A { x: f64 },
            B(f32),
        }
        let mut r = Results::new();
        r.set("o", (None::<f64>, Some(2.0), E::A { x: 1.0 }, E::B(0.5)));
        assert_eq!(r.get("o").unwrap()[1], 2.0);
    }
}
