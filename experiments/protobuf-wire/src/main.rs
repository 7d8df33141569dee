//! Protobuf's wire format byte by byte: one `orders::Product` encoded by hand
//! with three primitives (varint, key, length prefix), every byte printed
//! with what it means, decoded back by hand (unknown fields skipped by their
//! wire type), checked byte for byte against prost, and weighed field by
//! field against the product's JSON.

mod annotate;

use annotate::{FieldBytes, Line, annotate, bits, empty_fields, groups, json_fields};
use harness::Results;
use harness::bytes::hex;
use harness::declare::{Label, Table, same, text, value};
use orders::Product;
use prost::Message;

// ANCHOR: wire
/// The wire types this message writes (3 and 4, groups, are deprecated; 1 and
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

/// Skips a fixed-width value: 8 bytes (wire type 1) or 4 (wire type 5).
fn skip(buf: &[u8], pos: &mut usize, width: usize) -> Result<(), String> {
    buf.get(*pos..*pos + width)
        .ok_or("truncated fixed-width value")?;
    *pos += width;
    Ok(())
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
            // any other field: skipped by its wire type alone
            (_, 0) => drop(get_varint(buf, &mut pos)?),
            (_, 1) => skip(buf, &mut pos, 8)?,
            (_, 2) => drop(get_bytes(buf, &mut pos)?),
            (_, 5) => skip(buf, &mut pos, 4)?,
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

// ANCHOR: unknown
/// The product as a newer writer might send it: four fields this decoder does
/// not know, one of each wire type it skips.
fn with_unknown_fields(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    put_varint(&mut out, 6 << 3); // field 6, wire type 0: a varint
    put_varint(&mut out, 300);
    put_bytes(&mut out, 7, "mới".as_bytes()); // field 7, wire type 2
    put_varint(&mut out, (8 << 3) | 1); // field 8, wire type 1: 8 bytes
    out.extend_from_slice(&2.5f64.to_le_bytes());
    put_varint(&mut out, (9 << 3) | 5); // field 9, wire type 5: 4 bytes
    out.extend_from_slice(&7u32.to_le_bytes());
    out
}
// ANCHOR_END: unknown

/// The four checks, each true or the experiment stops.
struct Checks {
    prost_bytes_equal: bool,
    hand_decode_equal: bool,
    prost_decode_equal: bool,
    skips_unknown: bool,
}

fn check(product: &Product, bytes: &[u8]) -> Checks {
    // ANCHOR: check
    let by_prost = orders::pb::Product::from(product).encode_to_vec();
    assert_eq!(bytes, by_prost, "hand encoding == prost's encoding");
    let back = decode_product(bytes).unwrap();
    assert_eq!(&back, product, "hand decoding gives the product back");
    let via_prost = Product::from(orders::pb::Product::decode(bytes).unwrap());
    assert_eq!(
        via_prost, back,
        "prost decodes our bytes to the same product"
    );
    let newer = with_unknown_fields(bytes);
    let skipped = decode_product(&newer).unwrap();
    assert_eq!(&skipped, product, "unknown fields are skipped");
    // ANCHOR_END: check
    let prost_skipped = Product::from(orders::pb::Product::decode(newer.as_slice()).unwrap());
    assert_eq!(&prost_skipped, product, "prost skips them too");
    Checks {
        prost_bytes_equal: bytes == by_prost,
        hand_decode_equal: &back == product,
        prost_decode_equal: via_prost == back,
        skips_unknown: &skipped == product,
    }
}

/// The sample product: what the experiment chose to encode.
fn record_product(results: &mut Results, product: &Product) {
    results.input("product.id", product.id);
    // The id as written in code (no thousands separator), for prose.
    results.input("product.id_text", product.id.to_string());
    results.input("product.name", &product.name);
    results.input("product.price_cents", product.price_cents);
    results.input("product.tags", &product.tags);
    results.input("product.tag_count", product.tags.len());
    results.set("product.name_chars", product.name.chars().count());
    results.set("product.name_bytes", product.name.len());
}

/// Sizes of the two encodings and of their parts, and what they derive.
fn record_sizes(r: &mut Results, fields: &[FieldBytes], bytes: &[u8], json: &[u8], braces: usize) {
    let sum = |g: fn(&FieldBytes) -> usize| fields.iter().map(g).sum::<usize>();
    r.set("proto.bytes", bytes.len());
    r.set("proto.hex", hex(bytes));
    r.set("proto.key_bytes", sum(|f| f.key));
    r.set("proto.len_bytes", sum(|f| f.len));
    r.set("proto.payload_bytes", sum(|f| f.payload));
    r.set("proto.meta_bytes", sum(|f| f.key) + sum(|f| f.len));
    r.set("json.bytes", json.len());
    r.set("json.text", String::from_utf8(json.to_vec()).unwrap());
    r.set("json.name_bytes", sum(|f| f.json_name));
    r.set("json.value_bytes", sum(|f| f.json_value));
    r.set("json.punct_bytes", sum(|f| f.json_comma) + braces);
    let json_meta = sum(|f| f.json_name) + sum(|f| f.json_comma) + braces;
    r.set("json.meta_bytes", json_meta);
    r.ratio("ratio.json_vs_proto", "json.bytes", "proto.bytes");
    r.ratio("ratio.meta", "json.meta_bytes", "proto.meta_bytes");
    r.ratio("ratio.payload", "json.value_bytes", "proto.payload_bytes");
    // What share of the bytes saved is the frame (names, punctuation against
    // keys and lengths) rather than the values.
    r.difference("saved_bytes", "json.bytes", "proto.bytes");
    r.difference("saved_meta_bytes", "json.meta_bytes", "proto.meta_bytes");
    r.share("saved_meta_share", "saved_meta_bytes", "saved_bytes");
    // The strings themselves, without JSON's quotes: the same bytes in both?
    let string_fields = fields.iter().filter(|f| f.proto_type.ends_with("string"));
    r.set(
        "strings.proto_bytes",
        string_fields.map(|f| f.payload).sum::<usize>(),
    );
    for f in fields {
        r.set(&format!("fields.{}", f.name), f);
    }
    r.set("field_rows", fields);
}

/// What the values' part of the gap is made of: digits against varints, `true` against one
/// byte, the quotes around each string, the tags array's brackets and commas.
fn record_value_gap(r: &mut Results, p: &Product, fields: &[FieldBytes]) {
    let strings: Vec<&str> = std::iter::once(p.name.as_str())
        .chain(p.tags.iter().map(String::as_str))
        .collect();
    let json_text = |s: &str| serde_json::to_string(s).unwrap().len() - 2;
    r.set(
        "strings.json_bytes",
        strings.iter().map(|s| json_text(s)).sum::<usize>(),
    );
    let (id, price, stock) = (&fields[0], &fields[2], &fields[3]);
    let numbers = id.json_value + price.json_value - id.payload - price.payload;
    let boolean = stock.json_value - stock.payload;
    let quotes = 2 * strings.len();
    let array = serde_json::to_string(&p.tags).unwrap().len()
        - p.tags
            .iter()
            .map(|t| serde_json::to_string(t).unwrap().len())
            .sum::<usize>();
    r.set("value_gap.numbers", numbers);
    r.set("value_gap.bool", boolean);
    r.set("value_gap.quotes", quotes);
    r.set("value_gap.array", array);
    let escapes: usize = strings.iter().map(|s| json_text(s) - s.len()).sum();
    r.set("value_gap.escapes", escapes);
    let parts = numbers + boolean + quotes + array + escapes;
    r.set("value_gap.parts", parts);
    let total = r.difference("value_gap.total", "json.value_bytes", "proto.payload_bytes");
    assert_eq!(
        parts as f64, total,
        "the parts make up the whole gap in the values"
    );
}

/// Varints and keys the article reads one by one.
fn record_varints(r: &mut Results, product: &Product) {
    let mut id = Vec::new();
    put_varint(&mut id, product.id);
    r.set("varint.id.hex", hex(&id));
    r.set("varint.id.groups", groups(&id));
    r.set("varint.id.bits", bits(&id, " "));
    r.set("varint.id.bytes", id.len());
    r.set("varint.id.json_digits", product.id.to_string().len());
    let mut price = Vec::new();
    put_varint(&mut price, product.price_cents as u64);
    r.set("varint.price.hex", hex(&price));
    r.set("varint.price.bytes", price.len());
    let mut minus = Vec::new();
    put_varint(&mut minus, -1i64 as u64);
    r.set("varint.minus_one.bytes", minus.len());
    // Field 15 is the last with a one-byte key, 2047 the last with two bytes.
    let keys = [
        (15, WireType::Len),
        (16, WireType::Varint),
        (2047, WireType::Varint),
        (2048, WireType::Varint),
    ];
    for (n, wire) in keys {
        let mut k = Vec::new();
        put_key(&mut k, n, wire);
        r.set(&format!("key.field{n}_bytes"), k.len());
    }
}

/// The output: every byte with what it means, then both encodings whole.
fn declare_output(r: &mut Results, lines: &[Line]) {
    let mut t = Table::new([
        Label::new("vị trí", "offset"),
        Label::same("byte"),
        Label::new("ý nghĩa", "meaning"),
    ])
    .titled(Label::new(
        "Sản phẩm mã hóa bằng Protobuf, từng byte",
        "The product in Protobuf, byte by byte",
    ));
    for l in lines {
        t.row([
            same(l.offset.to_string()),
            same(hex(&l.bytes)),
            text(l.vi.clone(), l.en.clone()),
        ]);
    }
    r.table(t);
    let mut t = Table::new([
        Label::new("định dạng", "format"),
        Label::new("byte", "bytes"),
        Label::new("nội dung", "content"),
    ])
    .titled(Label::new("Hai bản mã hóa", "The two encodings"));
    t.row([same("Protobuf"), value("proto.bytes"), value("proto.hex")]);
    t.row([same("JSON"), value("json.bytes"), value("json.text")]);
    r.table(t);
}

fn main() {
    let mut results = Results::new();
    let product = orders::sample_product();
    let bytes = encode_product(&product);
    let json = serde_json::to_vec(&product).unwrap();
    let checks = check(&product, &bytes);

    let mut fields = empty_fields();
    let lines = annotate(&bytes, &mut fields).unwrap();
    let braces = json_fields(&product, &mut fields);
    assert_eq!(fields.iter().map(|f| f.proto).sum::<usize>(), bytes.len());
    assert_eq!(
        fields.iter().map(|f| f.json).sum::<usize>() + braces,
        json.len()
    );

    record_product(&mut results, &product);
    record_sizes(&mut results, &fields, &bytes, &json, braces);
    record_value_gap(&mut results, &product, &fields);
    record_varints(&mut results, &product);
    field_table(&mut results, &fields, braces, bytes.len(), json.len());
    results.set("listing_lines", lines.len());
    results.set(
        "unknown.extra_bytes",
        with_unknown_fields(&bytes).len() - bytes.len(),
    );
    results.set(
        "checks.prost_bytes_equal",
        u8::from(checks.prost_bytes_equal),
    );
    results.set(
        "checks.hand_decode_equal",
        u8::from(checks.hand_decode_equal),
    );
    results.set(
        "checks.prost_decode_equal",
        u8::from(checks.prost_decode_equal),
    );
    results.set("checks.skips_unknown", u8::from(checks.skips_unknown));
    declare_output(&mut results, &lines);
    results.write();
}

/// The per-field table of the article (with JSON's braces and a total) and the bars of its
/// composition chart: exact byte counts.
fn field_table(r: &mut Results, fields: &[FieldBytes], braces: usize, proto: usize, json: usize) {
    let sum = |g: fn(&FieldBytes) -> usize| fields.iter().map(g).sum::<usize>();
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
        "proto": proto, "json": json}),
    );
    r.set("field_table", table);
    r.set(
        "composition",
        [
            serde_json::json!({"format": "Protobuf",
                "meta": sum(|f| f.key) + sum(|f| f.len), "payload": sum(|f| f.payload)}),
            serde_json::json!({"format": "JSON",
                "meta": sum(|f| f.json_name) + sum(|f| f.json_comma) + braces,
                "payload": sum(|f| f.json_value)}),
        ],
    );
}
