//! The annotated listing of an encoded product (each byte with what it means, in both of the
//! blog's languages) and the bytes each field takes in Protobuf and in JSON.

use crate::{FIELDS, get_key, get_varint};
use harness::bytes::hex;
use orders::Product;
use serde::Serialize;

/// Bytes one field takes in each encoding.
#[derive(Debug, Default, Clone, Serialize)]
pub struct FieldBytes {
    pub number: u32,
    pub name: &'static str,
    pub proto_type: &'static str,
    pub wire_type: u8,
    /// Key bytes (one per element for a repeated field).
    pub key: usize,
    /// Length prefixes.
    pub len: usize,
    /// The value itself: varint bytes or string bytes.
    pub payload: usize,
    pub proto: usize,
    pub hex: String,
    /// The (first) key byte(s) of the field.
    pub key_hex: String,
    /// `"name":` in JSON, quotes and colon included.
    pub json_name: usize,
    /// The value's JSON text.
    pub json_value: usize,
    /// The comma after it (none after the last field).
    pub json_comma: usize,
    pub json: usize,
}

/// The fields of the product's schema, with nothing counted yet.
pub fn empty_fields() -> Vec<FieldBytes> {
    FIELDS
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| FieldBytes {
            number: i as u32 + 1,
            name,
            proto_type: ty,
            ..FieldBytes::default()
        })
        .collect()
}

/// One line of the annotated listing: where, which bytes, and what they mean.
pub struct Line {
    pub offset: usize,
    pub bytes: Vec<u8>,
    pub vi: String,
    pub en: String,
}

/// `92` → `1·0010010`: the continuation bit, then the 7 payload bits.
pub fn groups(bytes: &[u8]) -> String {
    let parts: Vec<String> = bytes
        .iter()
        .map(|b| format!("{}·{:07b}", b >> 7, b & 0x7f))
        .collect();
    parts.join(" ")
}

/// The 7-bit groups of a varint, highest first: the number in binary.
pub fn bits(bytes: &[u8], sep: &str) -> String {
    let mut rev: Vec<String> = bytes.iter().map(|x| format!("{:07b}", x & 0x7f)).collect();
    rev.reverse();
    rev.join(sep)
}

fn line(offset: usize, bytes: &[u8], vi: String, en: String) -> Line {
    Line {
        offset,
        bytes: bytes.to_vec(),
        vi,
        en,
    }
}

/// The line of a key.
fn key_line(buf: &[u8], start: usize, end: usize, field: u32, wire: u8) -> Line {
    let (name, _) = FIELDS[field as usize - 1];
    let wire_name = if wire == 0 { "VARINT" } else { "LEN" };
    let how = format!("[{field}<<3 | {wire} = {}]", buf[start]);
    line(
        start,
        &buf[start..end],
        format!("key: trường {field} ({name}), wire type {wire} {wire_name}  {how}"),
        format!("key: field {field} ({name}), wire type {wire} {wire_name}  {how}"),
    )
}

/// The line of a varint value.
fn varint_line(start: usize, b: &[u8], field: u32, v: u64) -> Line {
    let shown = match field {
        4 => format!("{v} = true"),
        _ => v.to_string(),
    };
    if b.len() == 1 {
        let text = format!("varint {shown}  ({})", groups(b));
        return line(start, b, text.clone(), text);
    }
    let (g, r) = (groups(b), bits(b, "_"));
    line(
        start,
        b,
        format!("varint {shown}  ({g}: nhóm thấp đi trước, nên {r} = {v})"),
        format!("varint {shown}  ({g}: low group first, so {r} = {v})"),
    )
}

/// One line per character of a string value.
fn char_lines(buf: &[u8], pos: usize, s: &str, lines: &mut Vec<Line>) {
    for (i, ch) in s.char_indices() {
        let n = ch.len_utf8();
        let bytes = &buf[pos + i..pos + i + n];
        if n == 1 {
            lines.push(line(pos + i, bytes, format!("'{ch}'"), format!("'{ch}'")));
        } else {
            let cp = format!("U+{:04X}", ch as u32);
            lines.push(line(
                pos + i,
                bytes,
                format!("'{ch}'  ({cp}, {n} byte UTF-8)"),
                format!("'{ch}'  ({cp}, {n} bytes of UTF-8)"),
            ));
        }
    }
}

/// Walks the encoded product with the decoder's primitives and explains each byte; counts
/// the bytes of each field on the way.
pub fn annotate(buf: &[u8], fields: &mut [FieldBytes]) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    let mut pos = 0;
    while pos < buf.len() {
        let start = pos;
        let (field, wire) = get_key(buf, &mut pos)?;
        lines.push(key_line(buf, start, pos, field, wire));
        let f = &mut fields[field as usize - 1];
        if f.key == 0 {
            f.key_hex = hex(&buf[start..pos]);
        }
        f.key += pos - start;
        f.wire_type = wire;
        let vstart = pos;
        if wire == 0 {
            let v = get_varint(buf, &mut pos)?;
            lines.push(varint_line(vstart, &buf[vstart..pos], field, v));
            f.payload += pos - vstart;
        } else {
            let len = get_varint(buf, &mut pos)? as usize;
            lines.push(line(
                vstart,
                &buf[vstart..pos],
                format!("độ dài {len}: {len} byte tiếp theo là giá trị"),
                format!("length {len}: the next {len} bytes are the value"),
            ));
            f.len += pos - vstart;
            let s = std::str::from_utf8(&buf[pos..pos + len]).map_err(|e| e.to_string())?;
            char_lines(buf, pos, s, &mut lines);
            pos += len;
            f.payload += len;
        }
        f.proto += pos - start;
        if !f.hex.is_empty() {
            f.hex.push_str(" | ");
        }
        f.hex.push_str(&hex(&buf[start..pos]));
    }
    Ok(lines)
}

/// Counts the JSON bytes of each field of `{"id":1042,"name":"…",…}`; returns the braces'.
pub fn json_fields(p: &Product, fields: &mut [FieldBytes]) -> usize {
    let values = [
        serde_json::to_string(&p.id).unwrap(),
        serde_json::to_string(&p.name).unwrap(),
        serde_json::to_string(&p.price_cents).unwrap(),
        serde_json::to_string(&p.in_stock).unwrap(),
        serde_json::to_string(&p.tags).unwrap(),
    ];
    for (i, (f, v)) in fields.iter_mut().zip(values).enumerate() {
        f.json_name = f.name.len() + 3; // "name":
        f.json_value = v.len();
        f.json_comma = usize::from(i + 1 < FIELDS.len());
        f.json = f.json_name + f.json_value + f.json_comma;
    }
    2 // { and }
}
