//! Protobuf bytes taken apart field by field (tag, field number, wire type,
//! value), recorded in the results and declared as a table in both of the
//! blog's languages.

use harness::Results;
use harness::declare::{Label, Table, text, value, value_as};

/// Reads a base-128 varint at `*pos`.
fn varint(b: &[u8], pos: &mut usize) -> u64 {
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
}

/// Records each field of `b` under `wire.{name}.{i}` and returns them as a
/// table titled `title`: tag bytes, field number, wire type, the value's
/// first bytes, and the value (a number, or the text of a string).
pub fn table(r: &mut Results, name: &str, b: &[u8], title: Label) -> Table {
    let mut t = Table::new([
        Label::new("tag", "tag"),
        Label::new("trường", "field"),
        Label::new("kiểu wire", "wire type"),
        Label::new("byte giá trị", "value bytes"),
        Label::new("giá trị", "value"),
    ])
    .titled(title);
    let mut pos = 0;
    let mut i = 0;
    while pos < b.len() {
        let start = pos;
        let key = varint(b, &mut pos);
        let (num, wt) = (key >> 3, key & 7);
        let at = format!("wire.{name}.{i}");
        r.set(&format!("{at}.tag"), harness::bytes::hex(&b[start..pos]));
        r.set(&format!("{at}.field"), num);
        r.set(&format!("{at}.wire_type"), wt);
        let vstart = pos;
        let kind = match wt {
            0 => {
                r.set(&format!("{at}.value"), varint(b, &mut pos));
                text("0: varint", "0: varint")
            }
            2 => {
                let len = varint(b, &mut pos) as usize;
                let s = String::from_utf8_lossy(&b[pos..pos + len]).to_string();
                pos += len;
                r.set(&format!("{at}.value"), format!("{s:?}"));
                text("2: độ dài + byte", "2: length-delimited")
            }
            _ => panic!("unexpected wire type {wt}"),
        };
        let shown = &b[vstart..pos.min(vstart + 10)];
        let more = if pos > vstart + 10 { " …" } else { "" };
        r.set(&format!("{at}.bytes"), harness::bytes::hex(shown) + more);
        t.row([
            value(format!("{at}.tag")),
            value_as(format!("{at}.field"), "int"),
            kind,
            value(format!("{at}.bytes")),
            value(format!("{at}.value")),
        ]);
        i += 1;
    }
    t
}
