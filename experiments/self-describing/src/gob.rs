//! Gob mirrors of the order model (`#[derive(Gob)]` needs local types), the
//! conversion from `orders::Order`, and a reader of gob framing used to check
//! the bytes against the gob specification.

use gobwire::Gob;

#[derive(Gob, Clone, Debug, Default, PartialEq)]
pub struct Address {
    pub street: String,
    pub city: String,
    pub country: String,
    pub postal_code: String,
}

#[derive(Gob, Clone, Debug, Default, PartialEq)]
pub struct Customer {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub address: Address,
}

#[derive(Gob, Clone, Debug, Default, PartialEq)]
pub struct LineItem {
    pub sku: String,
    pub name: String,
    pub quantity: u32,
    pub unit_price_cents: i64,
    /// Go: `*uint32`.
    pub discount_percent: Option<u32>,
}

// ANCHOR: gob_types
/// Field names go on the wire (once per stream), in Go's PascalCase. `status`
/// is a string, as in a Go struct (`S = String`); `Order<u32>` carries the
/// enum's index instead, as Avro's schema and postcard do.
#[derive(Gob, Clone, Debug, Default, PartialEq)]
#[gob(name = "Order")]
pub struct Order<S = String> {
    pub id: u64,
    pub customer: Customer,
    pub items: Vec<LineItem>,
    pub status: S,
    pub created_at: String,
    pub note: Option<String>,
    pub tags: Vec<String>,
    pub total_cents: i64,
}
// ANCHOR_END: gob_types

impl<S> Order<S> {
    /// The gob mirror of `o`, its status written by `status`.
    fn mirror(o: &orders::Order, status: S) -> Order<S> {
        let a = &o.customer.address;
        Order {
            id: o.id,
            customer: Customer {
                id: o.customer.id,
                name: o.customer.name.clone(),
                email: o.customer.email.clone(),
                address: Address {
                    street: a.street.clone(),
                    city: a.city.clone(),
                    country: a.country.clone(),
                    postal_code: a.postal_code.clone(),
                },
            },
            items: o
                .items
                .iter()
                .map(|i| LineItem {
                    sku: i.sku.clone(),
                    name: i.name.clone(),
                    quantity: i.quantity,
                    unit_price_cents: i.unit_price_cents,
                    discount_percent: i.discount_percent,
                })
                .collect(),
            status,
            created_at: o.created_at.clone(),
            note: o.note.clone(),
            tags: o.tags.clone(),
            total_cents: o.total_cents,
        }
    }
}

impl From<&orders::Order> for Order<String> {
    /// `status` as serde writes it: `"pending"`, `"paid"`, ...
    fn from(o: &orders::Order) -> Order<String> {
        let status = serde_json::to_value(o.status).unwrap();
        Order::mirror(o, status.as_str().unwrap().to_string())
    }
}

impl From<&orders::Order> for Order<u32> {
    /// `status` as its index in `Status::ALL`, as Avro and postcard write it.
    fn from(o: &orders::Order) -> Order<u32> {
        let index = orders::Status::ALL.iter().position(|s| *s == o.status);
        Order::mirror(o, index.unwrap() as u32)
    }
}

// ANCHOR: gob_spec
/// A gob unsigned integer: below 128 one byte; otherwise the byte count,
/// negated, then the value big-endian (so 256 is `fe 01 00`).
pub fn read_uint(b: &[u8], pos: &mut usize) -> u64 {
    let first = b[*pos];
    *pos += 1;
    if first < 0x80 {
        return u64::from(first);
    }
    let n = (!first).wrapping_add(1) as usize; // -first as a count
    let mut v = 0u64;
    for &x in &b[*pos..*pos + n] {
        v = (v << 8) | u64::from(x);
    }
    *pos += n;
    v
}

/// A gob signed integer: a uint whose low bit is the sign; a negative i
/// is stored as `(!i << 1) | 1`.
pub fn read_int(b: &[u8], pos: &mut usize) -> i64 {
    let u = read_uint(b, pos);
    if u & 1 == 1 {
        !((u >> 1) as i64)
    } else {
        (u >> 1) as i64
    }
}
// ANCHOR_END: gob_spec

/// One framed gob message: (offset, bytes of the length prefix, body length,
/// type id). A negative id defines type -id; a positive one carries a value.
pub fn messages(b: &[u8]) -> Vec<(usize, usize, u64, i64)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < b.len() {
        let start = pos;
        let len = read_uint(b, &mut pos);
        let prefix = pos - start;
        let body = pos;
        let id = read_int(b, &mut pos);
        out.push((start, prefix, len, id));
        pos = body + len as usize;
    }
    out
}
