//! Schema evolution with Protobuf: new code writes 4 fields, old code reads
//! 2; what old code writes back (prost drops unknown fields, rust-protobuf
//! keeps them); old bytes read by new code; and what changing a field's type
//! does to real bytes, in prost and in rust-protobuf.

mod wire;

use harness::Results;
use harness::declare::{Cell, Label, Table, same, text, value_as};
use prost::Message;
use protobuf::MessageDyn;
use protobuf::descriptor::field_descriptor_proto::{Label as FieldLabel, Type};
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

/// Version 2 adds two fields with new numbers: old readers skip them, but an
/// old service that writes the message back may drop them (see below).
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

/// ...or to bool: the same varint, read as true or false.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomerBool {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(string, tag = "3")]
    email: String,
    #[prost(bool, tag = "4")]
    spent_vnd: bool,
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
        f.set_label(FieldLabel::LABEL_OPTIONAL);
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

/// The last part of an error message (prost prefixes the message and field
/// path; rust-protobuf ends with the value, which the table shows apart).
fn short(e: impl std::fmt::Display) -> String {
    let s = e.to_string();
    let s = s.rsplit("spent_vnd: ").next().unwrap_or(&s);
    match s.rsplit_once(": ") {
        Some((head, tail)) if tail.bytes().all(|b| b.is_ascii_digit()) => head.to_string(),
        _ => s.to_string(),
    }
}

/// "yes" or "no" in both languages, for a flag the table shows.
fn yes_no(flag: bool) -> Cell {
    match flag {
        true => text("có", "yes"),
        false => text("không", "no"),
    }
}

/// Version 2's customer, spending what `n_orders` generated orders total.
fn new_customer(r: &mut Results) -> CustomerV2 {
    let sample = orders::sample_order();
    // a good customer's lifetime spend in đồng (≈ 25 000 đồng per US dollar):
    // 1000 orders' worth, well past what 32 bits can hold
    let n_orders = 1000;
    r.input("spend_orders", n_orders);
    let spent_vnd: i64 = orders::orders(10, n_orders)
        .iter()
        .map(|o| o.total_cents * 250)
        .sum();
    r.set("spent_vnd", spent_vnd);
    r.input("i32_max", i32::MAX);
    CustomerV2 {
        id: sample.customer.id,
        name: sample.customer.name.clone(),
        email: sample.customer.email.clone(),
        spent_vnd,
    }
}

/// New code writes, old code reads it and writes it back: prost drops the
/// unknown fields, rust-protobuf keeps them.
fn old_rewrites(r: &mut Results, new: &CustomerV2, v2_bytes: &[u8]) {
    // ANCHOR: prost_old_reads
    let old = CustomerV1::decode(v2_bytes).unwrap(); // fields 3, 4 skipped
    let rewritten = old.encode_to_vec(); // what old code stores or forwards
    let back = CustomerV2::decode(rewritten.as_slice()).unwrap();
    // ANCHOR_END: prost_old_reads
    assert_eq!((old.id, old.name.as_str()), (new.id, new.name.as_str()));
    r.set("prost.old_reads_ok", 1);
    r.set("bytes.prost_rewritten", rewritten.len());
    r.difference("bytes.prost_lost", "bytes.v2", "bytes.prost_rewritten");
    let kept = |b: &CustomerV2| (b.email == new.email, b.spent_vnd == new.spent_vnd);
    let (email, spent) = kept(&back);
    r.set("prost.keeps_email", u8::from(email));
    r.set("prost.keeps_spent", u8::from(spent));

    // ANCHOR: rustpb_old_reads
    let v1 = dynamic_customer(&[("id", 1, Type::TYPE_UINT64), ("name", 2, Type::TYPE_STRING)]);
    let msg = v1.parse_from_bytes(v2_bytes).unwrap();
    let unknown = msg.unknown_fields_dyn().iter().count();
    let rewritten_pb = msg.write_to_bytes_dyn().unwrap();
    // ANCHOR_END: rustpb_old_reads
    let back_pb = CustomerV2::decode(rewritten_pb.as_slice()).unwrap();
    assert_eq!(field(&v1, &*msg, "name").to_str(), Some(new.name.as_str()));
    r.set("rustpb.unknown_fields", unknown);
    r.set("bytes.rustpb_rewritten", rewritten_pb.len());
    r.set("rustpb.identical", u8::from(rewritten_pb == v2_bytes));
    let (email_pb, spent_pb) = kept(&back_pb);
    r.set("rustpb.keeps_email", u8::from(email_pb));
    r.set("rustpb.keeps_spent", u8::from(spent_pb));

    let mut t = Table::new([
        Label::new("thư viện", "library"),
        Label::new("byte ghi lại", "bytes written back"),
        Label::new("trường lạ giữ lại", "unknown fields kept"),
        Label::new("còn email", "email kept"),
        Label::new("còn spent_vnd", "spent_vnd kept"),
    ])
    .titled(Label::new(
        "Code cũ (v1) đọc bản v2 rồi ghi lại",
        "Old code (v1) reads v2's bytes and writes them back",
    ));
    t.row([
        same("prost"),
        value_as("bytes.prost_rewritten", "int"),
        same("0"),
        yes_no(email),
        yes_no(spent),
    ]);
    t.row([
        same("rust-protobuf"),
        value_as("bytes.rustpb_rewritten", "int"),
        value_as("rustpb.unknown_fields", "int"),
        yes_no(email_pb),
        yes_no(spent_pb),
    ]);
    r.table(t);
    let title = Label::new(
        "rust-protobuf ghi lại, từng trường",
        "What rust-protobuf writes back, field by field",
    );
    let fields = wire::table(r, "rewritten", &rewritten_pb, title);
    r.table(fields);
}

/// Old code writes, new code reads: proto3's defaults.
fn new_reads_old(r: &mut Results, new: &CustomerV2) {
    let v1_bytes = CustomerV1 {
        id: new.id,
        name: new.name.clone(),
    }
    .encode_to_vec();
    let newer = CustomerV2::decode(v1_bytes.as_slice()).unwrap();
    r.set("bytes.v1", v1_bytes.len());
    r.set("old_to_new.email_empty", u8::from(newer.email.is_empty()));
    r.set("old_to_new.spent", newer.spent_vnd);
    let mut t = Table::new([
        Label::new("trường", "field"),
        Label::new("v2 đọc được", "v2 reads"),
    ])
    .titled(Label::new(
        "Code mới (v2) đọc byte của v1",
        "New code (v2) reads v1's bytes",
    ));
    let email = match newer.email.is_empty() {
        true => text("chuỗi rỗng", "empty string"),
        false => same(format!("{:?}", newer.email)),
    };
    t.row([same("email"), email]);
    t.row([same("spent_vnd"), value_as("old_to_new.spent", "int")]);
    r.table(t);
}

/// One row of the type-change table: field 4 read as `ty` by `lib`, with
/// `result` the value read (a results path) or the error.
fn result_row(t: &mut Table, ty: &str, lib: &str, result: Result<&str, String>) {
    let cell = match result {
        Ok(path) => value_as(path, "int"),
        Err(e) => text(format!("lỗi: {e}"), format!("error: {e}")),
    };
    t.row([same(ty), same(lib), cell]);
}

/// Records whether a library accepted field 4 as `key` and what it read.
fn outcome<T: serde::Serialize>(
    r: &mut Results,
    key: &str,
    read: Result<T, String>,
) -> Result<String, String> {
    r.set(&format!("{key}_ok"), u8::from(read.is_ok()));
    read.map(|v| {
        r.set(&format!("{key}_value"), v);
        format!("{key}_value")
    })
}

/// Field 4, written as int64, read as int32 by both libraries; and a small
/// value that fits in 32 bits, which both read right.
fn as_int32(r: &mut Results, t: &mut Table, new: &CustomerV2, v2_bytes: &[u8]) {
    // ANCHOR: int32
    let as_i32 = CustomerInt32::decode(v2_bytes); // prost
    let v3 = dynamic_customer(&[
        ("id", 1, Type::TYPE_UINT64),
        ("name", 2, Type::TYPE_STRING),
        ("email", 3, Type::TYPE_STRING),
        ("spent_vnd", 4, Type::TYPE_INT32),
    ]);
    let as_i32_pb = v3.parse_from_bytes(v2_bytes); // rust-protobuf
    // ANCHOR_END: int32
    let spent = new.spent_vnd;
    let prost = as_i32.map(|m| m.spent_vnd).map_err(short);
    if let Ok(v) = prost {
        let lost = spent - i64::from(v);
        r.set("int32.prost_lost", lost);
        // The offset is the dropped high bits, plus 2^32 when bit 31, kept as
        // the sign bit of an i32, was set (the value then reads negative).
        let high = (spent >> 32) << 32;
        let sign = (spent >> 31) & 1;
        r.set("int32.high_bits_value", high);
        r.set(
            "int32.lost_explained",
            u8::from(lost == high + (sign << 32)),
        );
    }
    let pb = as_i32_pb
        .map(|m| field(&v3, &*m, "spent_vnd").to_i32().unwrap())
        .map_err(short);
    let at = outcome(r, "int32.prost", prost);
    result_row(t, "int32", "prost", at.as_deref().map_err(Clone::clone));
    let at = outcome(r, "int32.rustpb", pb);
    result_row(
        t,
        "int32",
        "rust-protobuf",
        at.as_deref().map_err(Clone::clone),
    );
    // a value that fits in 32 bits passes through both unharmed
    let small_value = 1_000_000;
    r.input("int32.small_value", small_value);
    let small = CustomerV2 {
        spent_vnd: i64::from(small_value),
        ..new.clone()
    }
    .encode_to_vec();
    let small_ok = CustomerInt32::decode(small.as_slice()).unwrap().spent_vnd == small_value
        && v3
            .parse_from_bytes(&small)
            .is_ok_and(|m| field(&v3, &*m, "spent_vnd").to_i32() == Some(small_value));
    r.set("int32.small_ok", u8::from(small_ok));
}

/// Field 4 read as sint64 (same wire type, ZigZag) and as string (another
/// wire type), by both libraries.
fn as_sint64_and_string(r: &mut Results, t: &mut Table, v2_bytes: &[u8]) {
    let prost = CustomerSint64::decode(v2_bytes)
        .map(|m| m.spent_vnd)
        .map_err(short);
    let v3s = dynamic_customer(&[
        ("id", 1, Type::TYPE_UINT64),
        ("spent_vnd", 4, Type::TYPE_SINT64),
    ]);
    let pb = v3s
        .parse_from_bytes(v2_bytes)
        .map(|m| field(&v3s, &*m, "spent_vnd").to_i64().unwrap())
        .map_err(short);
    let at = outcome(r, "sint64.prost", prost);
    result_row(t, "sint64", "prost", at.as_deref().map_err(Clone::clone));
    let at = outcome(r, "sint64.rustpb", pb);
    result_row(
        t,
        "sint64",
        "rust-protobuf",
        at.as_deref().map_err(Clone::clone),
    );

    let prost = CustomerString::decode(v2_bytes)
        .map(|m| m.spent_vnd)
        .map_err(short);
    let v3t = dynamic_customer(&[("spent_vnd", 4, Type::TYPE_STRING)]);
    let pb = v3t
        .parse_from_bytes(v2_bytes)
        .map(|m| {
            field(&v3t, &*m, "spent_vnd")
                .to_str()
                .unwrap_or_default()
                .to_string()
        })
        .map_err(short);
    let at = outcome(r, "string.prost", prost);
    result_row(t, "string", "prost", at.as_deref().map_err(Clone::clone));
    let at = outcome(r, "string.rustpb", pb);
    result_row(
        t,
        "string",
        "rust-protobuf",
        at.as_deref().map_err(Clone::clone),
    );
}

/// Field 4 read as bool by both libraries, for the customer's spend and for
/// 2^32, whose low 32 bits are all zero: a library that truncated to 32 bits
/// first would read it as false.
fn as_bool(r: &mut Results, t: &mut Table, new: &CustomerV2) {
    let v3b = dynamic_customer(&[
        ("id", 1, Type::TYPE_UINT64),
        ("spent_vnd", 4, Type::TYPE_BOOL),
    ]);
    let high_only = 1i64 << 32;
    r.input("bool.high_only", high_only);
    for (key, spent) in [("bool.spent", new.spent_vnd), ("bool.high", high_only)] {
        let bytes = CustomerV2 {
            spent_vnd: spent,
            ..new.clone()
        }
        .encode_to_vec();
        // ANCHOR: bool
        let prost = CustomerBool::decode(bytes.as_slice()).map(|m| m.spent_vnd);
        let pb = v3b
            .parse_from_bytes(&bytes)
            .map(|m| field(&v3b, &*m, "spent_vnd").to_bool().unwrap());
        // ANCHOR_END: bool
        let label = match key {
            "bool.spent" => same("bool"),
            _ => text("bool (ghi 2³²)", "bool (2³² written)"),
        };
        let reads = [
            ("prost", "prost", prost.map_err(short)),
            ("rust-protobuf", "rustpb", pb.map_err(short)),
        ];
        for (lib, lib_key, read) in reads {
            let cell = match &read {
                Ok(v) => same(v.to_string()),
                Err(e) => text(format!("lỗi: {e}"), format!("error: {e}")),
            };
            outcome(r, &format!("{key}.{lib_key}"), read.map(u8::from)).ok();
            t.row([label.clone(), same(lib), cell]);
        }
    }
}

fn main() {
    let mut r = Results::new();
    let new = new_customer(&mut r);
    let v2_bytes = new.encode_to_vec();
    r.set("bytes.v2", v2_bytes.len());
    let title = Label::new(
        "Phiên bản 2 ghi một khách hàng",
        "Version 2 writes a customer",
    );
    let fields = wire::table(&mut r, "v2", &v2_bytes, title);
    r.table(fields);
    old_rewrites(&mut r, &new, &v2_bytes);
    new_reads_old(&mut r, &new);
    let mut t = Table::new([
        Label::new("trường 4 đọc thành", "field 4 read as"),
        Label::new("thư viện", "library"),
        Label::new("kết quả", "result"),
    ])
    .titled(Label::new(
        "Trường 4 ghi là int64, đọc bằng kiểu khác",
        "Field 4 written as int64, read with another type",
    ));
    t.row([
        text("int64 (kiểu đã ghi)", "int64 (as written)"),
        same(""),
        value_as("spent_vnd", "int"),
    ]);
    as_int32(&mut r, &mut t, &new, &v2_bytes);
    as_sint64_and_string(&mut r, &mut t, &v2_bytes);
    as_bool(&mut r, &mut t, &new);
    r.table(t);
    r.write();
}
