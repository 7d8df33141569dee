//! Where the bytes go: every byte of a JSON text and of a protobuf message
//! sorted into field names (keys or tags), structure (punctuation or length
//! prefixes), text values, numbers, and JSON's `"field":null` for absent
//! values. The walkers are checked to account for every byte.

use prost::encoding::decode_varint;
use serde::Serialize;
use serde_json::Value;

/// Bytes per category; `total()` equals the encoded length.
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct Breakdown {
    /// JSON: `"key":` (quotes and colon included). Protobuf: the tags.
    pub names: usize,
    /// JSON: `{ } [ ] ,`. Protobuf: length prefixes of strings and sub-messages.
    pub structure: usize,
    /// String values. JSON: with their quotes and escapes.
    pub text: usize,
    /// Numbers (and the enum, which protobuf writes as a number); JSON `true`/`false`.
    pub numbers: usize,
    /// JSON only: `"key":null` for a field that has no value.
    pub nulls: usize,
}

impl Breakdown {
    pub fn total(&self) -> usize {
        self.names + self.structure + self.text + self.numbers + self.nulls
    }
}

fn quoted_len(s: &str) -> usize {
    serde_json::to_string(s).expect("a str serializes").len()
}

/// A compact JSON value (as `serde_json::to_vec` writes it), byte by byte.
// ANCHOR: json_anatomy
pub fn json(v: &Value, b: &mut Breakdown) {
    match v {
        Value::Object(fields) => {
            b.structure += 2 + fields.len().saturating_sub(1); // { } and commas
            for (key, value) in fields {
                if value.is_null() {
                    b.nulls += quoted_len(key) + 1 + "null".len();
                } else {
                    b.names += quoted_len(key) + 1; // "key":
                    json(value, b);
                }
            }
        }
        Value::Array(xs) => {
            b.structure += 2 + xs.len().saturating_sub(1); // [ ] and commas
            xs.iter().for_each(|x| json(x, b));
        }
        Value::String(s) => b.text += quoted_len(s),
        Value::Number(_) | Value::Bool(_) => b.numbers += v.to_string().len(),
        Value::Null => b.nulls += "null".len(),
    }
}
// ANCHOR_END: json_anatomy

/// The message types of `orders::pb`, and which fields hold a sub-message
/// (every other length-delimited field of this schema is a string).
#[derive(Debug, Clone, Copy)]
pub enum Msg {
    Order,
    Customer,
    Address,
    LineItem,
}

fn sub_message(m: Msg, field: u64) -> Option<Msg> {
    match (m, field) {
        (Msg::Order, 2) => Some(Msg::Customer),
        (Msg::Order, 3) => Some(Msg::LineItem),
        (Msg::Customer, 4) => Some(Msg::Address),
        _ => None,
    }
}

/// Bytes read by one varint.
fn varint_len(buf: &mut &[u8]) -> (u64, usize) {
    let before = buf.len();
    let v = decode_varint(buf).expect("valid varint");
    (v, before - buf.len())
}

/// A protobuf message of type `m`, byte by byte.
// ANCHOR: pb_anatomy
pub fn protobuf(mut buf: &[u8], m: Msg, b: &mut Breakdown) {
    while !buf.is_empty() {
        let (key, n) = varint_len(&mut buf);
        b.names += n; // tag = field number << 3 | wire type
        match key & 7 {
            0 => b.numbers += varint_len(&mut buf).1,
            2 => {
                let (len, n) = varint_len(&mut buf);
                b.structure += n; // the length prefix
                let (payload, rest) = buf.split_at(len as usize);
                match sub_message(m, key >> 3) {
                    Some(child) => protobuf(payload, child, b),
                    None => b.text += payload.len(), // UTF-8, as is
                }
                buf = rest;
            }
            w => panic!("wire type {w} is not used by this schema"),
        }
    }
}
// ANCHOR_END: pb_anatomy
