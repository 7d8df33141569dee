//! CBOR's semantic tags on real bytes: a payment record whose fields carry
//! tags 1, 0 and 2, checked through a generic decoder, and annotated item by
//! item in a table with both of the blog's languages.

use ciborium::Value;
use ciborium::tag::Required;
use harness::Results;
use harness::declare::{Cell, Label, Table, same, value, value_as};
use orders::Order;
use serde::{Deserialize, Serialize};

// ANCHOR: tagged
/// A payment record whose fields carry CBOR semantic tags: the decoder
/// learns from the bytes that a number is a point in time, or that a byte
/// string is a big integer.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Payment {
    order_id: u64,
    /// Tag 1: seconds since 1970-01-01T00:00Z.
    paid_at: Required<u64, 1>,
    /// Tag 0: an RFC 3339 date/time string.
    paid_at_text: Required<String, 0>,
    /// Too big for 64 bits: ciborium writes tag 2 (unsigned bignum).
    amount_atto: u128,
}
// ANCHOR_END: tagged

/// Seconds since the epoch of an RFC 3339 `YYYY-MM-DDTHH:MM:SS(Z|±HH:MM)`.
fn epoch_seconds(t: &str) -> u64 {
    let n = |a: usize, b: usize| t[a..b].parse::<i64>().unwrap();
    let (y, m, d) = (n(0, 4), n(5, 7), n(8, 10));
    // days from civil (Howard Hinnant's algorithm)
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + n(11, 13) * 3600 + n(14, 16) * 60 + n(17, 19);
    let offset = if t.ends_with('Z') {
        0
    } else {
        let sign = if &t[19..20] == "-" { -1 } else { 1 };
        sign * (n(20, 22) * 3600 + n(23, 25) * 60)
    };
    (secs - offset) as u64
}

/// One CBOR data item as read from its head: how deep it is nested, its head
/// bytes, its major type, its argument, how many bytes followed the initial
/// byte to hold that argument, and its content (text or bytes) if any.
#[derive(Debug, Serialize)]
struct Item {
    #[serde(skip)]
    depth: usize,
    #[serde(skip)]
    head: String,
    #[serde(skip)]
    extra: usize,
    major: u8,
    arg: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<String>,
}

/// Reads the item at `*pos` (and the items it contains) into `out`.
fn annotate(b: &[u8], pos: &mut usize, depth: usize, out: &mut Vec<Item>) {
    let start = *pos;
    let (major, info) = (b[*pos] >> 5, b[*pos] & 0x1f);
    *pos += 1;
    let extra = match info {
        0..=23 => 0,
        24..=27 => 1usize << (info - 24),
        _ => panic!("indefinite lengths are not used here"),
    };
    let arg = match extra {
        0 => u64::from(info),
        n => b[*pos..*pos + n]
            .iter()
            .fold(0u64, |v, &x| (v << 8) | u64::from(x)),
    };
    *pos += extra;
    let head = harness::bytes::hex(&b[start..*pos]);
    let content = match major {
        2 | 3 => {
            let body = &b[*pos..*pos + arg as usize];
            *pos += arg as usize;
            Some(match major {
                3 => format!("{:?}", String::from_utf8_lossy(body)),
                _ => harness::bytes::hex(body),
            })
        }
        _ => None,
    };
    out.push(Item {
        depth,
        head,
        extra,
        major,
        arg,
        content,
    });
    let inner = match major {
        4 => arg,
        5 => arg * 2,
        6 => 1,
        _ => 0,
    };
    for _ in 0..inner {
        annotate(b, pos, depth + 1, out);
    }
}

/// What an item's major type (and, for a tag, its number) means.
fn meaning(item: &Item) -> Label {
    let (vi, en) = match (item.major, item.arg) {
        (0, _) => ("số nguyên không dấu", "unsigned integer"),
        (1, _) => (
            "số nguyên âm, −1 − đối số",
            "negative integer, −1 − argument",
        ),
        (2, _) => (
            "chuỗi byte, đối số là độ dài",
            "byte string, argument = length",
        ),
        (3, _) => (
            "chuỗi văn bản, đối số là độ dài",
            "text string, argument = length",
        ),
        (4, _) => ("mảng, đối số là số phần tử", "array, argument = item count"),
        (5, _) => ("map, đối số là số cặp", "map, argument = pair count"),
        (6, 0) => (
            "thẻ 0: chuỗi ngày giờ RFC 3339",
            "tag 0: RFC 3339 date/time string",
        ),
        (6, 1) => ("thẻ 1: số giây từ 1970", "tag 1: seconds since 1970"),
        (6, 2) => ("thẻ 2: số nguyên lớn không dấu", "tag 2: unsigned bignum"),
        (6, _) => ("thẻ", "tag"),
        _ => ("số thực hoặc giá trị đặc biệt", "float or simple value"),
    };
    let (wvi, wen) = match item.extra {
        0 => (
            "đối số nằm ngay trong byte đầu".to_string(),
            "argument in the initial byte".to_string(),
        ),
        n => (
            format!("đối số ở {n} byte kế tiếp"),
            format!("argument in the next {n} byte(s)"),
        ),
    };
    Label::new(format!("{vi} ({wvi})"), format!("{en} ({wen})"))
}

/// The annotated items as a table: head bytes (indented by nesting), major
/// type, argument, meaning, content.
fn items_table(items: &[Item]) -> Table {
    let mut t = Table::new([
        Label::new("byte đầu", "head bytes"),
        Label::new("kiểu chính", "major type"),
        Label::new("đối số", "argument"),
        Label::new("nghĩa", "meaning"),
        Label::new("nội dung", "content"),
    ])
    .titled(Label::new(
        "Bản ghi thanh toán có thẻ, từng phần tử CBOR",
        "The tagged payment record, one CBOR item per row",
    ));
    for (i, item) in items.iter().enumerate() {
        let indent = "\u{a0}\u{a0}".repeat(item.depth);
        let content: Cell = match item.content {
            Some(_) => value(format!("tags.items.{i}.content")),
            None => same(""),
        };
        t.row([
            same(format!("{indent}{}", item.head)),
            value_as(format!("tags.items.{i}.major"), "int"),
            value_as(format!("tags.items.{i}.arg"), "int"),
            Cell::Text(meaning(item)),
            content,
        ]);
    }
    t
}

/// Encodes the tagged payment for `sample`, checks that a generic decoder
/// sees its tags, and records its size against JSON and its items.
pub fn payment(r: &mut Results, sample: &Order) {
    let paid_at = epoch_seconds(&sample.created_at);
    // ANCHOR: tagged_value
    let payment = Payment {
        order_id: sample.id,
        paid_at: Required(paid_at),
        paid_at_text: Required(sample.created_at.clone()),
        // the order total in a unit of 10^-18 (as on-chain token amounts are)
        amount_atto: sample.total_cents as u128 * 10u128.pow(16),
    };
    let mut bytes = Vec::new();
    ciborium::into_writer(&payment, &mut bytes).unwrap();
    // ANCHOR_END: tagged_value
    let back: Payment = ciborium::from_reader(&bytes[..]).unwrap();
    assert_eq!(back, payment);
    // a generic decoder, knowing nothing of `Payment`, sees tags 1, 0, 2
    let generic: Value = ciborium::from_reader(&bytes[..]).unwrap();
    let tags: Vec<u64> = match &generic {
        Value::Map(p) => p
            .iter()
            .filter_map(|(_, v)| match v {
                Value::Tag(t, _) => Some(*t),
                _ => None,
            })
            .collect(),
        _ => vec![],
    };
    assert_eq!(tags, [1, 0, 2]);

    let mut items = Vec::new();
    let mut pos = 0;
    annotate(&bytes, &mut pos, 0, &mut items);
    assert_eq!(pos, bytes.len());
    let json_payment = serde_json::json!({
        "order_id": payment.order_id,
        "paid_at": paid_at,
        "paid_at_text": sample.created_at,
        "amount_atto": payment.amount_atto.to_string(),
    });
    r.set("tags.cbor_bytes", bytes.len());
    r.set(
        "tags.json_bytes",
        serde_json::to_vec(&json_payment).unwrap().len(),
    );
    r.set("tags.epoch", paid_at);
    for (i, item) in items.iter().enumerate() {
        r.set(&format!("tags.items.{i}"), item);
    }
    r.set(
        "tags.bignum_fits_u64",
        u8::from(payment.amount_atto <= u64::MAX as u128),
    );
    r.set("tags.text_len", sample.created_at.len());
    r.table(items_table(&items));
}
