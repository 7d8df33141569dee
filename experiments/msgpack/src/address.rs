//! One address up close: its bytes in the map form, part by part; what a reader that
//! declares the fields in another order, or one more field, gets from each form; and how
//! the order's status (a unit enum variant) is written even in the array form.

use harness::Results;
use harness::bytes::hex;
use harness::declare::{Label, Table, text, value};
use orders::{Address, Order};
use serde::Deserialize;

/// One part of the map form: its bytes and what they mean, in both languages.
pub struct Part {
    pub hex: String,
    pub vi: String,
    pub en: String,
}

fn header(b: u8) -> (String, String) {
    match b {
        0x80..=0x8f => (
            format!("fixmap, {} cặp khóa–giá trị", b & 0x0f),
            format!("fixmap, {} key–value pairs", b & 0x0f),
        ),
        0x90..=0x9f => (
            format!("fixarray, {} phần tử", b & 0x0f),
            format!("fixarray, {} elements", b & 0x0f),
        ),
        0xa0..=0xbf => (
            format!("fixstr, {} byte", b & 0x1f),
            format!("fixstr, {} bytes", b & 0x1f),
        ),
        0xd9 => (
            "str8, độ dài ở byte sau".to_string(),
            "str8, length in the next byte".to_string(),
        ),
        _ => (format!("0x{b:02x}"), format!("0x{b:02x}")),
    }
}

/// The map form of `a` split into its header and its strings (a name, then a value, per
/// field).
fn parts(named: &[u8]) -> Vec<Part> {
    let (vi, en) = header(named[0]);
    let mut out = vec![Part {
        hex: hex(&named[..1]),
        vi,
        en,
    }];
    let mut i = 1;
    while i < named.len() {
        let (hdr, len) = match named[i] {
            b @ 0xa0..=0xbf => (1, (b & 0x1f) as usize),
            0xd9 => (2, named[i + 1] as usize),
            b => panic!("unexpected byte 0x{b:02x} in an address"),
        };
        let s = String::from_utf8_lossy(&named[i + hdr..i + hdr + len]).to_string();
        let (vi, en) = header(named[i]);
        out.push(Part {
            hex: hex(&named[i..i + hdr]),
            vi: format!("{vi}, rồi {s:?}"),
            en: format!("{en}, then {s:?}"),
        });
        i += hdr + len;
    }
    out
}

// ANCHOR: reorder
/// The same four fields as `orders::Address`, declared in another order
/// (as a second service, or a later version of this one, might).
#[derive(Debug, Deserialize)]
struct AddressReordered {
    city: String,
    street: String,
    country: String,
    postal_code: String,
}
// ANCHOR_END: reorder

// ANCHOR: added
/// A later version of `orders::Address` with a field added in the middle.
#[derive(Debug, serde::Serialize, Deserialize)]
struct AddressV2 {
    street: String,
    district: String,
    city: String,
    country: String,
    postal_code: String,
}
// ANCHOR_END: added

/// The address's three encodings, its parts, and the reordered reader's view of each form.
pub fn record(r: &mut Results, a: &Address) -> Vec<Part> {
    let named = rmp_serde::to_vec_named(a).unwrap();
    let array = rmp_serde::to_vec(a).unwrap();
    let json = serde_json::to_vec(a).unwrap();
    r.set("address.json", json.len());
    r.set("address.named", named.len());
    r.set("address.array", array.len());
    r.set("address.json_text", String::from_utf8(json).unwrap());
    r.set("address.named_hex", hex(&named));
    r.set("address.array_hex", hex(&array));
    r.difference("address.names", "address.named", "address.array");
    r.set("address.first_named", format!("{:02x}", named[0]));
    r.set("address.first_array", format!("{:02x}", array[0]));

    let from_map: AddressReordered = rmp_serde::from_slice(&named).unwrap();
    let from_array: AddressReordered = rmp_serde::from_slice(&array).unwrap();
    let same = |x: &AddressReordered| {
        x.city == a.city
            && x.street == a.street
            && x.country == a.country
            && x.postal_code == a.postal_code
    };
    for (key, x) in [("map", &from_map), ("array", &from_array)] {
        r.set(&format!("reorder.{key}.city"), &x.city);
        r.set(&format!("reorder.{key}.street"), &x.street);
    }
    r.set("reorder.map_ok", u8::from(same(&from_map)));
    r.set("reorder.array_ok", u8::from(same(&from_array)));
    evolution(r, a);
    parts(&named)
}

/// What rmp-serde says when the writer and the reader disagree on the number of fields:
/// `Ok` or its error, as text.
fn outcome<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> (u8, String) {
    match rmp_serde::from_slice::<T>(bytes) {
        Ok(_) => (1, "ok".to_string()),
        Err(e) => (0, e.to_string()),
    }
}

/// A field added in the middle, read across versions, in each form.
fn evolution(r: &mut Results, a: &Address) {
    let v2 = AddressV2 {
        street: a.street.clone(),
        district: "Quận 1".to_string(),
        city: a.city.clone(),
        country: a.country.clone(),
        postal_code: a.postal_code.clone(),
    };
    // ANCHOR: added_read
    let cases = [
        (
            "old_array_new_reader",
            outcome::<AddressV2>(&rmp_serde::to_vec(a).unwrap()),
        ),
        (
            "new_array_old_reader",
            outcome::<Address>(&rmp_serde::to_vec(&v2).unwrap()),
        ),
        (
            "old_map_new_reader",
            outcome::<AddressV2>(&rmp_serde::to_vec_named(a).unwrap()),
        ),
        (
            "new_map_old_reader",
            outcome::<Address>(&rmp_serde::to_vec_named(&v2).unwrap()),
        ),
    ];
    // ANCHOR_END: added_read
    for (key, (ok, message)) in cases {
        r.set(&format!("evolve.{key}.ok"), ok);
        r.set(&format!("evolve.{key}.result"), message);
    }
}

/// The rows of the added-field table.
pub fn declare_evolution(r: &mut Results) {
    let mut t = Table::new([
        Label::new("ghi bằng", "written by"),
        Label::new("đọc bằng", "read by"),
        Label::new("kết quả của rmp-serde", "rmp-serde's result"),
    ])
    .titled(Label::new(
        "Thêm một trường vào giữa struct (AddressV2)",
        "A field added in the middle of the struct (AddressV2)",
    ));
    let rows = [
        (
            "Address, mảng",
            "Address, array",
            "AddressV2",
            "old_array_new_reader",
        ),
        (
            "AddressV2, mảng",
            "AddressV2, array",
            "Address",
            "new_array_old_reader",
        ),
        (
            "Address, map",
            "Address, map",
            "AddressV2",
            "old_map_new_reader",
        ),
        (
            "AddressV2, map",
            "AddressV2, map",
            "Address",
            "new_map_old_reader",
        ),
    ];
    for (vi, en, reader, key) in rows {
        t.row([
            text(vi, en),
            text(reader, reader),
            value(format!("evolve.{key}.result")),
        ]);
    }
    r.table(t);
}

/// The order's status, a unit enum variant: how the array form writes it.
pub fn record_status(r: &mut Results, o: &Order) {
    let bytes = rmp_serde::to_vec(&o.status).unwrap();
    r.set("status.array_hex", hex(&bytes));
    r.set("status.array_bytes", bytes.len());
    r.set(
        "status.name",
        rmp_serde::from_slice::<String>(&bytes).unwrap_or_default(),
    );
    r.set(
        "status.is_string",
        u8::from(matches!(bytes[0], 0xa0..=0xbf)),
    );
    let pb = orders::pb::Order {
        status: orders::pb::Order::from(o).status,
        ..Default::default()
    };
    r.set("status.protobuf_bytes", prost::Message::encoded_len(&pb));
}
