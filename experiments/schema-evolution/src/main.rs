//! Schema evolution with Protobuf: new code writes 4 fields, old code reads
//! 2; what old code writes back (prost drops unknown fields, rust-protobuf
//! keeps them); old bytes read by new code; and what changing a field's type
//! does to real bytes, in prost and in rust-protobuf.

use harness::Results;
use prost::Message;
use protobuf::MessageDyn;
use protobuf::descriptor::field_descriptor_proto::{Label, Type};
use protobuf::descriptor::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use protobuf::reflect::{FileDescriptor, MessageDescriptor, ReflectValueRef};

// ANCHOR: versions
/// Version 1, still deployed on some servers.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomerV1 {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(string, tag = "2")]
    name: String,
}

/// Version 2 adds two fields with new numbers: a safe change.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomerV2 {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(string, tag = "3")]
    email: String,
    /// Lifetime spend in đồng: billions for a good customer.
    #[prost(int64, tag = "4")]
    spent_vnd: i64,
}
// ANCHOR_END: versions

// ANCHOR: bad_types
/// Someone "tidies up" field 4 to int32.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomerInt32 {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(string, tag = "3")]
    email: String,
    #[prost(int32, tag = "4")]
    spent_vnd: i32,
}

/// ...or to sint64 (ZigZag), same wire type, other meaning.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomerSint64 {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(string, tag = "3")]
    email: String,
    #[prost(sint64, tag = "4")]
    spent_vnd: i64,
}

/// ...or to string: another wire type.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomerString {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(string, tag = "3")]
    email: String,
    #[prost(string, tag = "4")]
    spent_vnd: String,
}
// ANCHOR_END: bad_types

// ANCHOR: dynamic
/// A rust-protobuf message type built at run time from a descriptor, as
/// `protoc` or the pure-Rust `protobuf-parse` would produce from a `.proto`.
fn dynamic_customer(fields: &[(&str, i32, Type)]) -> MessageDescriptor {
    let mut msg = DescriptorProto::new();
    msg.set_name("Customer".into());
    for &(name, number, ty) in fields {
        let mut f = FieldDescriptorProto::new();
        f.set_name(name.into());
        f.set_number(number);
        f.set_type(ty);
        f.set_label(Label::LABEL_OPTIONAL);
        msg.field.push(f);
    }
    let mut file = FileDescriptorProto::new();
    file.set_name("customer.proto".into());
    file.set_package("shop".into());
    file.set_syntax("proto3".into());
    file.message_type.push(msg);
    let fd = FileDescriptor::new_dynamic(file, &[]).unwrap();
    fd.message_by_package_relative_name("Customer").unwrap()
}
// ANCHOR_END: dynamic

fn field<'a>(md: &MessageDescriptor, m: &'a dyn MessageDyn, name: &str) -> ReflectValueRef<'a> {
    md.field_by_name(name)
        .unwrap()
        .get_singular_field_or_default(m)
}

/// One line per field of a protobuf message: tag byte(s), what they say, value bytes.
fn annotate(b: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut pos = 0;
    let varint = |pos: &mut usize| {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let x = b[*pos];
            *pos += 1;
            v |= u64::from(x & 0x7f) << shift;
            shift += 7;
            if x < 0x80 {
                return v;
            }
        }
    };
    while pos < b.len() {
        let start = pos;
        let key = varint(&mut pos);
        let (num, wt) = (key >> 3, key & 7);
        let key_hex = harness::bytes::hex(&b[start..pos]);
        let vstart = pos;
        let what = match wt {
            0 => format!("varint {}", varint(&mut pos)),
            2 => {
                let len = varint(&mut pos) as usize;
                let s = String::from_utf8_lossy(&b[pos..pos + len]).to_string();
                pos += len;
                format!("{len} bytes {s:?}")
            }
            _ => panic!("unexpected wire type {wt}"),
        };
        out.push(format!(
            "{key_hex:<4} field {num}, wire type {wt}  | {:<32} {what}",
            harness::bytes::hex(&b[vstart..pos.min(vstart + 10)])
                + if pos > vstart + 10 { " …" } else { "" }
        ));
    }
    out
}

/// The last part of an error message (prost prefixes the message and field path).
fn short(e: impl std::fmt::Display) -> String {
    let s = e.to_string();
    format!("error: {}", s.rsplit("spent_vnd: ").next().unwrap_or(&s))
}

fn main() {
    let mut r = Results::new();
    let sample = orders::sample_order();
    // a good customer's lifetime spend in đồng (≈ 25 000 đồng per US dollar):
    // 1000 orders' worth, well past what 32 bits can hold
    let n_orders = 1000;
    r.set("spend_orders", n_orders);
    let spent_vnd: i64 = orders::orders(10, n_orders)
        .iter()
        .map(|o| o.total_cents * 250)
        .sum();
    let new = CustomerV2 {
        id: sample.customer.id,
        name: sample.customer.name.clone(),
        email: sample.customer.email.clone(),
        spent_vnd,
    };
    let v2_bytes = new.encode_to_vec();
    println!("Version 2 writes a customer ({} B):", v2_bytes.len());
    for l in annotate(&v2_bytes) {
        println!("  {l}");
    }
    println!();
    r.set("spent_vnd", spent_vnd);
    r.set("i32_max", i32::MAX);
    r.set("bytes.v2", v2_bytes.len());

    // --- 1. new writes, old reads (prost) ------------------------------------
    // ANCHOR: prost_old_reads
    let old = CustomerV1::decode(v2_bytes.as_slice()).unwrap(); // fields 3, 4 skipped
    let rewritten = old.encode_to_vec(); // what old code stores or forwards
    let back = CustomerV2::decode(rewritten.as_slice()).unwrap();
    // ANCHOR_END: prost_old_reads
    assert_eq!((old.id, old.name.as_str()), (new.id, new.name.as_str()));
    r.set("prost.old_reads_ok", 1);
    r.set("bytes.prost_rewritten", rewritten.len());
    r.set("bytes.prost_lost", v2_bytes.len() - rewritten.len());
    r.set("prost.keeps_email", u8::from(back.email == new.email));
    r.set(
        "prost.keeps_spent",
        u8::from(back.spent_vnd == new.spent_vnd),
    );

    // --- 2. new writes, old reads (rust-protobuf, dynamic message) -------------
    // ANCHOR: rustpb_old_reads
    let v1 = dynamic_customer(&[("id", 1, Type::TYPE_UINT64), ("name", 2, Type::TYPE_STRING)]);
    let msg = v1.parse_from_bytes(&v2_bytes).unwrap();
    let unknown = msg.unknown_fields_dyn().iter().count();
    let rewritten_pb = msg.write_to_bytes_dyn().unwrap();
    // ANCHOR_END: rustpb_old_reads
    let back_pb = CustomerV2::decode(rewritten_pb.as_slice()).unwrap();
    assert_eq!(field(&v1, &*msg, "name").to_str(), Some(new.name.as_str()));
    r.set("rustpb.unknown_fields", unknown);
    r.set("bytes.rustpb_rewritten", rewritten_pb.len());
    r.set("rustpb.identical", u8::from(rewritten_pb == v2_bytes));
    r.set("rustpb.keeps_email", u8::from(back_pb.email == new.email));
    r.set(
        "rustpb.keeps_spent",
        u8::from(back_pb.spent_vnd == new.spent_vnd),
    );

    let mut t = harness::fmt::Table::new([
        "old code (v1) reads v2, writes it back",
        "bytes",
        "email kept",
        "spent kept",
    ]);
    t.row([
        "prost".to_string(),
        rewritten.len().to_string(),
        (back.email == new.email).to_string(),
        (back.spent_vnd == new.spent_vnd).to_string(),
    ]);
    t.row([
        format!("rust-protobuf ({unknown} unknown fields kept)"),
        rewritten_pb.len().to_string(),
        (back_pb.email == new.email).to_string(),
        (back_pb.spent_vnd == new.spent_vnd).to_string(),
    ]);
    print!("{t}");
    println!();
    println!("rust-protobuf rewrites:");
    for l in annotate(&rewritten_pb) {
        println!("  {l}");
    }
    println!();

    // --- 3. old writes, new reads --------------------------------------------------
    let v1_bytes = CustomerV1 {
        id: new.id,
        name: new.name.clone(),
    }
    .encode_to_vec();
    let newer = CustomerV2::decode(v1_bytes.as_slice()).unwrap();
    println!(
        "v1 bytes ({} B) read by v2: email = {:?}, spent_vnd = {}",
        v1_bytes.len(),
        newer.email,
        newer.spent_vnd
    );
    println!();
    r.set("bytes.v1", v1_bytes.len());
    r.set("old_to_new.email_empty", u8::from(newer.email.is_empty()));
    r.set("old_to_new.spent", newer.spent_vnd);

    // --- 4. a changed type -----------------------------------------------------------
    // ANCHOR: int32
    let as_i32 = CustomerInt32::decode(v2_bytes.as_slice()); // prost
    let v3 = dynamic_customer(&[
        ("id", 1, Type::TYPE_UINT64),
        ("name", 2, Type::TYPE_STRING),
        ("email", 3, Type::TYPE_STRING),
        ("spent_vnd", 4, Type::TYPE_INT32),
    ]);
    let as_i32_pb = v3.parse_from_bytes(&v2_bytes); // rust-protobuf
    // ANCHOR_END: int32
    let mut t = harness::fmt::Table::new(["field 4 read as", "library", "result"]);
    t.row(["int64 (written)", "", &spent_vnd.to_string()]);
    match &as_i32 {
        Ok(m) => {
            t.row(["int32", "prost", &format!("{} (no error)", m.spent_vnd)]);
            r.set("int32.prost_ok", 1);
            r.set("int32.prost_value", m.spent_vnd);
            let lost = spent_vnd - i64::from(m.spent_vnd);
            r.set("int32.prost_lost", lost);
            // The offset is the dropped high bits, plus 2^32 when bit 31, kept as
            // the sign bit of an i32, was set (the value then reads negative).
            let high = (spent_vnd >> 32) << 32;
            let sign = (spent_vnd >> 31) & 1;
            r.set("int32.high_bits_value", high);
            r.set(
                "int32.lost_explained",
                u8::from(lost == high + (sign << 32)),
            );
        }
        Err(e) => {
            t.row(["int32", "prost", &short(e)]);
            r.set("int32.prost_ok", 0);
        }
    }
    match &as_i32_pb {
        Ok(m) => {
            let v = field(&v3, &**m, "spent_vnd").to_i32().unwrap();
            t.row(["int32", "rust-protobuf", &format!("{v} (no error)")]);
            r.set("int32.rustpb_ok", 1);
            r.set("int32.rustpb_value", v);
        }
        Err(e) => {
            t.row(["int32", "rust-protobuf", &short(e)]);
            r.set("int32.rustpb_ok", 0);
        }
    }
    // a value that fits in 32 bits passes through both unharmed
    let small = CustomerV2 {
        spent_vnd: 1_000_000,
        ..new.clone()
    }
    .encode_to_vec();
    let small_ok = CustomerInt32::decode(small.as_slice()).unwrap().spent_vnd == 1_000_000
        && v3
            .parse_from_bytes(&small)
            .is_ok_and(|m| field(&v3, &*m, "spent_vnd").to_i32() == Some(1_000_000));
    r.set("int32.small_ok", u8::from(small_ok));
    match CustomerSint64::decode(v2_bytes.as_slice()) {
        Ok(m) => {
            t.row(["sint64", "prost", &format!("{} (no error)", m.spent_vnd)]);
            r.set("sint64.prost_ok", 1);
            r.set("sint64.prost_value", m.spent_vnd);
        }
        Err(e) => {
            t.row(["sint64", "prost", &short(e)]);
            r.set("sint64.prost_ok", 0);
        }
    }
    let v3s = dynamic_customer(&[
        ("id", 1, Type::TYPE_UINT64),
        ("spent_vnd", 4, Type::TYPE_SINT64),
    ]);
    match v3s.parse_from_bytes(&v2_bytes) {
        Ok(m) => {
            let v = field(&v3s, &*m, "spent_vnd").to_i64().unwrap();
            t.row(["sint64", "rust-protobuf", &format!("{v} (no error)")]);
            r.set("sint64.rustpb_ok", 1);
            r.set("sint64.rustpb_value", v);
        }
        Err(e) => {
            t.row(["sint64", "rust-protobuf", &short(e)]);
            r.set("sint64.rustpb_ok", 0);
        }
    }
    match CustomerString::decode(v2_bytes.as_slice()) {
        Ok(m) => {
            t.row(["string", "prost", &format!("{:?} (no error)", m.spent_vnd)]);
            r.set("string.prost_ok", 1);
        }
        Err(e) => {
            t.row(["string", "prost", &short(e)]);
            r.set("string.prost_ok", 0);
        }
    }
    let v3t = dynamic_customer(&[("spent_vnd", 4, Type::TYPE_STRING)]);
    match v3t.parse_from_bytes(&v2_bytes) {
        Ok(m) => {
            let v = field(&v3t, &*m, "spent_vnd");
            t.row(["string", "rust-protobuf", &format!("{v:?} (no error)")]);
            r.set("string.rustpb_ok", 1);
        }
        Err(e) => {
            t.row(["string", "rust-protobuf", &short(e)]);
            r.set("string.rustpb_ok", 0);
        }
    }
    println!("Field 4 written as int64, read with another type:");
    print!("{t}");
    r.write();
}
