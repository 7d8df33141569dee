//! Protobuf's wire format byte by byte: one `orders::Product` encoded by hand
//! with three primitives (varint, key, length prefix), every byte printed
//! with what it means, decoded back by hand, checked byte for byte against
//! prost, and weighed field by field against the product's JSON.

use harness::Results;
use harness::bytes::hex;
use harness::fmt::Table;
use orders::Product;
use prost::Message;
use serde::Serialize;
use std::fmt::Write as _;

// ANCHOR: wire
/// The wire types this message uses (3 and 4, groups, are deprecated; 1 and
/// 5 are fixed 64- and 32-bit values, for `double`, `fixed64`, `float`...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WireType {
    Varint = 0,
    Len = 2,
}

/// Base-128 varint: 7 bits per byte, least significant group first; the
/// high bit of each byte says "more bytes follow".
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A key (tag): the field number and the wire type in one varint.
fn put_key(out: &mut Vec<u8>, field: u32, wire: WireType) {
    put_varint(out, (u64::from(field) << 3) | wire as u64);
}

/// Length-delimited: key, byte length as a varint, then the bytes.
fn put_bytes(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    put_key(out, field, WireType::Len);
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

fn get_varint(buf: &[u8], pos: &mut usize) -> Result<u64, String> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *buf.get(*pos).ok_or("truncated varint")?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    Err("varint longer than 10 bytes".into())
}

fn get_key(buf: &[u8], pos: &mut usize) -> Result<(u32, u8), String> {
    let k = get_varint(buf, pos)?;
    Ok(((k >> 3) as u32, (k & 7) as u8))
}

fn get_bytes<'a>(buf: &'a [u8], pos: &mut usize) -> Result<&'a [u8], String> {
    let len = get_varint(buf, pos)? as usize;
    let bytes = buf.get(*pos..*pos + len).ok_or("truncated field")?;
    *pos += len;
    Ok(bytes)
}
// ANCHOR_END: wire

// ANCHOR: encode
/// `message Product { uint64 id = 1; string name = 2; int64 price_cents = 3;
/// bool in_stock = 4; repeated string tags = 5; }`
/// proto3 writes nothing for a field that holds its default (0, "", false).
fn encode_product(p: &Product) -> Vec<u8> {
    let mut out = Vec::new();
    if p.id != 0 {
        put_key(&mut out, 1, WireType::Varint);
        put_varint(&mut out, p.id);
    }
    if !p.name.is_empty() {
        put_bytes(&mut out, 2, p.name.as_bytes());
    }
    if p.price_cents != 0 {
        put_key(&mut out, 3, WireType::Varint);
        put_varint(&mut out, p.price_cents as u64); // int64: two's complement
    }
    if p.in_stock {
        put_key(&mut out, 4, WireType::Varint);
        put_varint(&mut out, 1);
    }
    for tag in &p.tags {
        put_bytes(&mut out, 5, tag.as_bytes()); // one key per element
    }
    out
}
// ANCHOR_END: encode

// ANCHOR: decode
/// Fields may come in any order and repeat; an unknown field is skipped by
/// its wire type, which is what lets old code read newer messages.
fn decode_product(buf: &[u8]) -> Result<Product, String> {
    let mut p = Product {
        id: 0,
        name: String::new(),
        price_cents: 0,
        in_stock: false,
        tags: Vec::new(),
    };
    let mut pos = 0;
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|e| e.to_string());
    while pos < buf.len() {
        match get_key(buf, &mut pos)? {
            (1, 0) => p.id = get_varint(buf, &mut pos)?,
            (2, 2) => p.name = text(get_bytes(buf, &mut pos)?)?,
            (3, 0) => p.price_cents = get_varint(buf, &mut pos)? as i64,
            (4, 0) => p.in_stock = get_varint(buf, &mut pos)? != 0,
            (5, 2) => p.tags.push(text(get_bytes(buf, &mut pos)?)?),
            (_, 0) => drop(get_varint(buf, &mut pos)?),
            (_, 2) => drop(get_bytes(buf, &mut pos)?),
            (f, w) => return Err(format!("field {f}: wire type {w} not handled")),
        }
    }
    Ok(p)
}
// ANCHOR_END: decode

const FIELDS: [(&str, &str); 5] = [
    ("id", "uint64"),
    ("name", "string"),
    ("price_cents", "int64"),
    ("in_stock", "bool"),
    ("tags", "repeated string"),
];

/// Bytes one field takes in each encoding.
#[derive(Debug, Default, Clone, Serialize)]
struct FieldBytes {
    number: u32,
    name: &'static str,
    proto_type: &'static str,
    wire_type: u8,
    /// Key bytes (one per element for a repeated field).
    key: usize,
    /// Length prefixes.
    len: usize,
    /// The value itself: varint bytes or string bytes.
    payload: usize,
    proto: usize,
    hex: String,
    /// The (first) key byte(s) of the field.
    key_hex: String,
    /// `"name":` in JSON, quotes and colon included.
    json_name: usize,
    /// The value's JSON text.
    json_value: usize,
    /// The comma after it (none after the last field).
    json_comma: usize,
    json: usize,
}

/// One line of the annotated listing.
struct Line {
    offset: usize,
    bytes: Vec<u8>,
    meaning: String,
}

/// `92` → `1·0010010`: the continuation bit, then the 7 payload bits.
fn groups(bytes: &[u8]) -> String {
    let parts: Vec<String> = bytes
        .iter()
        .map(|b| format!("{}·{:07b}", b >> 7, b & 0x7f))
        .collect();
    parts.join(" ")
}

/// Walks the encoded product with the same primitives and explains each
/// byte; fills the per-field byte counts on the way.
fn annotate(buf: &[u8], fields: &mut [FieldBytes]) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    let mut pos = 0;
    while pos < buf.len() {
        let start = pos;
        let (field, wire) = get_key(buf, &mut pos)?;
        let (name, _) = FIELDS[field as usize - 1];
        let wire_name = if wire == 0 { "VARINT" } else { "LEN" };
        lines.push(Line {
            offset: start,
            bytes: buf[start..pos].to_vec(),
            meaning: format!(
                "key: field {field} ({name}), wire type {wire} {wire_name}  [{field}<<3 | {wire} = {}]",
                buf[start]
            ),
        });
        let f = &mut fields[field as usize - 1];
        if f.key == 0 {
            f.key_hex = hex(&buf[start..pos]);
        }
        f.key += pos - start;
        f.wire_type = wire;
        let vstart = pos;
        if wire == 0 {
            let v = get_varint(buf, &mut pos)?;
            let b = &buf[vstart..pos];
            let shown = match field {
                4 => format!("{v} = true"),
                _ => v.to_string(),
            };
            let meaning = if b.len() == 1 {
                format!("varint {shown}  ({})", groups(b))
            } else {
                let mut rev: Vec<String> = b.iter().map(|x| format!("{:07b}", x & 0x7f)).collect();
                rev.reverse();
                format!(
                    "varint {shown}  ({}: low group first, so {} = {v})",
                    groups(b),
                    rev.join("_")
                )
            };
            lines.push(Line {
                offset: vstart,
                bytes: b.to_vec(),
                meaning,
            });
            f.payload += pos - vstart;
        } else {
            let len = get_varint(buf, &mut pos)? as usize;
            lines.push(Line {
                offset: vstart,
                bytes: buf[vstart..pos].to_vec(),
                meaning: format!("length {len}: the next {len} bytes are the value"),
            });
            f.len += pos - vstart;
            let s = std::str::from_utf8(&buf[pos..pos + len]).map_err(|e| e.to_string())?;
            for (i, ch) in s.char_indices() {
                let n = ch.len_utf8();
                let what = if n == 1 {
                    format!("'{ch}'")
                } else {
                    format!("'{ch}'  (U+{:04X}, {n} bytes of UTF-8)", ch as u32)
                };
                lines.push(Line {
                    offset: pos + i,
                    bytes: buf[pos + i..pos + i + n].to_vec(),
                    meaning: what,
                });
            }
            pos += len;
            f.payload += len;
        }
        let end = pos;
        f.proto += end - start;
        if !f.hex.is_empty() {
            f.hex.push_str(" | ");
        }
        f.hex.push_str(&hex(&buf[start..end]));
    }
    Ok(lines)
}

/// JSON bytes per field of `{"id":1042,"name":"…",…}`.
fn json_fields(p: &Product, fields: &mut [FieldBytes]) -> usize {
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

fn main() {
    let mut results = Results::new();
    let product = orders::sample_product();

    let bytes = encode_product(&product);
    let json = serde_json::to_vec(&product).unwrap();

    // ANCHOR: check
    let by_prost = orders::pb::Product::from(&product).encode_to_vec();
    assert_eq!(bytes, by_prost, "hand encoding == prost's encoding");
    let back = decode_product(&bytes).unwrap();
    assert_eq!(back, product, "hand decoding gives the product back");
    let via_prost = Product::from(orders::pb::Product::decode(bytes.as_slice()).unwrap());
    assert_eq!(
        via_prost, back,
        "prost decodes our bytes to the same product"
    );
    // ANCHOR_END: check

    let mut fields: Vec<FieldBytes> = FIELDS
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| FieldBytes {
            number: i as u32 + 1,
            name,
            proto_type: ty,
            ..FieldBytes::default()
        })
        .collect();
    let lines = annotate(&bytes, &mut fields).unwrap();
    let braces = json_fields(&product, &mut fields);
    assert_eq!(fields.iter().map(|f| f.proto).sum::<usize>(), bytes.len());
    assert_eq!(
        fields.iter().map(|f| f.json).sum::<usize>() + braces,
        json.len()
    );

    // ---- stdout: the product, the annotated bytes, the per-field sizes
    println!("{product:?}");
    println!(
        "protobuf: {} bytes; JSON: {} bytes\n",
        bytes.len(),
        json.len()
    );
    let mut listing = String::new();
    writeln!(listing, "offset  bytes     meaning").unwrap();
    writeln!(listing, "{}", "-".repeat(78)).unwrap();
    for l in &lines {
        writeln!(
            listing,
            "{:>6}  {:<8}  {}",
            l.offset,
            hex(&l.bytes),
            l.meaning
        )
        .unwrap();
    }
    println!("{listing}");
    println!("hex: {}\n", hex(&bytes));
    println!("JSON: {}\n", String::from_utf8_lossy(&json));
    let mut t = Table::new([
        "field",
        "proto type",
        "key",
        "length",
        "value",
        "protobuf",
        "JSON",
    ]);
    for f in &fields {
        t.row([
            format!("{} {}", f.number, f.name),
            f.proto_type.to_string(),
            f.key.to_string(),
            f.len.to_string(),
            f.payload.to_string(),
            f.proto.to_string(),
            f.json.to_string(),
        ]);
    }
    t.row([
        "{ } braces".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        "0".into(),
        braces.to_string(),
    ]);
    t.row([
        "total".to_string(),
        String::new(),
        fields.iter().map(|f| f.key).sum::<usize>().to_string(),
        fields.iter().map(|f| f.len).sum::<usize>().to_string(),
        fields.iter().map(|f| f.payload).sum::<usize>().to_string(),
        bytes.len().to_string(),
        json.len().to_string(),
    ]);
    println!("{t}");
    println!("checks: hand encoding == prost encoding; hand decode == prost decode == product");

    // ---- results
    let sum = |g: fn(&FieldBytes) -> usize| fields.iter().map(g).sum::<usize>();
    results.set("product.id", product.id);
    // The id as written in code (no thousands separator), for prose.
    results.set("product.id_text", product.id.to_string());
    results.set("product.name", &product.name);
    results.set("product.price_cents", product.price_cents);
    results.set("product.tags", &product.tags);
    results.set("product.name_chars", product.name.chars().count());
    results.set("product.name_bytes", product.name.len());
    results.set("proto.bytes", bytes.len());
    results.set("proto.hex", hex(&bytes));
    results.set("proto.key_bytes", sum(|f| f.key));
    results.set("proto.len_bytes", sum(|f| f.len));
    results.set("proto.payload_bytes", sum(|f| f.payload));
    results.set("proto.meta_bytes", sum(|f| f.key) + sum(|f| f.len));
    results.set("json.bytes", json.len());
    results.set("json.text", String::from_utf8(json.clone()).unwrap());
    results.set("json.name_bytes", sum(|f| f.json_name));
    results.set("json.value_bytes", sum(|f| f.json_value));
    results.set("json.punct_bytes", sum(|f| f.json_comma) + braces);
    results.set(
        "json.meta_bytes",
        sum(|f| f.json_name) + sum(|f| f.json_comma) + braces,
    );
    results.set(
        "ratio.json_vs_proto",
        json.len() as f64 / bytes.len() as f64,
    );
    results.set("ratio.proto_share", bytes.len() as f64 / json.len() as f64);
    results.set(
        "ratio.meta",
        (sum(|f| f.json_name) + sum(|f| f.json_comma) + braces) as f64
            / (sum(|f| f.key) + sum(|f| f.len)) as f64,
    );
    results.set(
        "ratio.payload",
        sum(|f| f.json_value) as f64 / sum(|f| f.payload) as f64,
    );
    results.set("saved_bytes", json.len() - bytes.len());
    // What share of the bytes saved is framing (names, punctuation against keys
    // and lengths) rather than values.
    let json_meta = sum(|f| f.json_name) + sum(|f| f.json_comma) + braces;
    let proto_meta = sum(|f| f.key) + sum(|f| f.len);
    results.set(
        "saved_meta_share",
        (json_meta as f64 - proto_meta as f64) / (json.len() as f64 - bytes.len() as f64),
    );
    // The strings themselves, without JSON's quotes: the same bytes in both?
    let strings: Vec<&str> = std::iter::once(product.name.as_str())
        .chain(product.tags.iter().map(String::as_str))
        .collect();
    let json_text = |s: &str| serde_json::to_string(s).unwrap().len() - 2;
    results.set(
        "strings.json_bytes",
        strings.iter().map(|s| json_text(s)).sum::<usize>(),
    );
    let string_fields = fields.iter().filter(|f| f.proto_type.ends_with("string"));
    results.set(
        "strings.proto_bytes",
        string_fields.map(|f| f.payload).sum::<usize>(),
    );
    results.set("product.tag_count", product.tags.len());
    for f in &fields {
        results.set(&format!("fields.{}", f.name), f);
    }
    results.set("field_rows", &fields);
    // The same with JSON's braces and a total, for the article's table.
    let mut table: Vec<serde_json::Value> = fields
        .iter()
        .map(|f| {
            serde_json::json!({"vi": f.name, "en": f.name, "proto_type": f.proto_type,
                "key": f.key, "len": f.len, "payload": f.payload,
                "proto": f.proto, "json": f.json})
        })
        .collect();
    table.push(serde_json::json!({"vi": "{ } của JSON", "en": "JSON's { }",
        "proto_type": "", "key": 0, "len": 0, "payload": 0, "proto": 0, "json": braces}));
    table.push(
        serde_json::json!({"vi": "tổng", "en": "total", "proto_type": "",
        "key": sum(|f| f.key), "len": sum(|f| f.len), "payload": sum(|f| f.payload),
        "proto": bytes.len(), "json": json.len()}),
    );
    results.set("field_table", table);
    results.set(
        "composition",
        [
            serde_json::json!({"format": "Protobuf",
                "meta": sum(|f| f.key) + sum(|f| f.len), "payload": sum(|f| f.payload)}),
            serde_json::json!({"format": "JSON",
                "meta": sum(|f| f.json_name) + sum(|f| f.json_comma) + braces,
                "payload": sum(|f| f.json_value)}),
        ],
    );
    let listing_rows: Vec<_> = lines
        .iter()
        .map(
            |l| serde_json::json!({"offset": l.offset, "hex": hex(&l.bytes), "meaning": l.meaning}),
        )
        .collect();
    results.set("listing", listing_rows);
    results.set("listing_lines", lines.len());
    let mut v1042 = Vec::new();
    put_varint(&mut v1042, product.id);
    results.set("varint.id.hex", hex(&v1042));
    results.set("varint.id.groups", groups(&v1042));
    let mut bits: Vec<String> = v1042.iter().map(|b| format!("{:07b}", b & 0x7f)).collect();
    bits.reverse();
    results.set("varint.id.bits", bits.join(" "));
    results.set("varint.id.bytes", v1042.len());
    results.set("varint.id.json_digits", product.id.to_string().len());
    let mut vprice = Vec::new();
    put_varint(&mut vprice, product.price_cents as u64);
    results.set("varint.price.hex", hex(&vprice));
    results.set("varint.price.bytes", vprice.len());
    let mut minus = Vec::new();
    put_varint(&mut minus, -1i64 as u64);
    results.set("varint.minus_one.bytes", minus.len());
    let mut k = Vec::new();
    put_key(&mut k, 16, WireType::Varint);
    results.set("key.field16_bytes", k.len());
    results.set("key.field16_hex", hex(&k));
    let mut k = Vec::new();
    put_key(&mut k, 15, WireType::Len);
    results.set("key.field15_bytes", k.len());
    // The last field number whose key fits two bytes, and the first that does not.
    for n in [2047, 2048] {
        let mut k = Vec::new();
        put_key(&mut k, n, WireType::Varint);
        results.set(&format!("key.field{n}_bytes"), k.len());
    }
    results.set("checks.prost_bytes_equal", u8::from(bytes == by_prost));
    results.set("checks.hand_decode_equal", u8::from(back == product));
    results.set("checks.prost_decode_equal", u8::from(via_prost == back));
    results.write();
}
