//! Shared, realistic data model for the serialization experiments (JSON,
//! protobuf, MessagePack, CBOR, Avro, compression, zero-copy): e-commerce
//! orders with mixed Vietnamese and English text, a borrowed twin for
//! zero-copy decoding, a small `Product`, and prost mirrors in [`pb`].
//!
//! Generation is deterministic: the same seed gives the same orders on
//! every machine.

mod data;
mod generate;
pub mod pb;

use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;

pub use generate::{
    order, order_with_items, orders, product, products, sample_order, sample_product,
};

/// The life cycle of an order. Serde writes it as a snake_case string
/// (`"pending"`, `"paid"`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    Paid,
    Shipped,
    Delivered,
    Cancelled,
    Refunded,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::Pending,
        Status::Paid,
        Status::Shipped,
        Status::Delivered,
        Status::Cancelled,
        Status::Refunded,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    pub street: String,
    pub city: String,
    /// ISO 3166-1 alpha-2 (`"VN"`, `"US"`, ...).
    pub country: String,
    pub postal_code: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Customer {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub address: Address,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineItem {
    pub sku: String,
    pub name: String,
    pub quantity: u32,
    /// Price of one unit in cents (hundredths of the currency unit).
    pub unit_price_cents: i64,
    /// `None` when the line has no discount (serialized as `null` in JSON).
    pub discount_percent: Option<u32>,
}

impl LineItem {
    /// `quantity × unit_price`, less the discount (rounded down to the cent).
    pub fn total_cents(&self) -> i64 {
        let gross = i64::from(self.quantity) * self.unit_price_cents;
        let pct = i64::from(self.discount_percent.unwrap_or(0));
        gross * (100 - pct) / 100
    }
}

/// An e-commerce order: the shared payload of the serialization articles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub id: u64,
    pub customer: Customer,
    pub items: Vec<LineItem>,
    pub status: Status,
    /// RFC 3339 timestamp with offset, e.g. `"2026-03-14T09:26:53+07:00"`.
    pub created_at: String,
    pub note: Option<String>,
    pub tags: Vec<String>,
    /// Sum of the line totals.
    pub total_cents: i64,
}

/// A small catalogue product: the example of the protobuf byte-by-byte article.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    pub id: u64,
    pub name: String,
    pub price_cents: i64,
    pub in_stock: bool,
    pub tags: Vec<String>,
}

// --- Borrowed twin for zero-copy decoding ----------------------------------
//
// Every string is a `Cow<'a, str>`: serde_json borrows it straight from the
// input when the JSON string has no escape sequence, and allocates only for
// strings that do (a note with quotes, say). `#[serde(borrow)]` only reaches
// a `Cow` that is the field's own type, so strings inside `Option` and `Vec`
// go through the small helpers below.

/// Zero-copy twin of [`Address`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressRef<'a> {
    #[serde(borrow)]
    pub street: Cow<'a, str>,
    #[serde(borrow)]
    pub city: Cow<'a, str>,
    #[serde(borrow)]
    pub country: Cow<'a, str>,
    #[serde(borrow)]
    pub postal_code: Cow<'a, str>,
}

/// Zero-copy twin of [`Customer`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomerRef<'a> {
    pub id: u64,
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow)]
    pub email: Cow<'a, str>,
    #[serde(borrow)]
    pub address: AddressRef<'a>,
}

/// Zero-copy twin of [`LineItem`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineItemRef<'a> {
    #[serde(borrow)]
    pub sku: Cow<'a, str>,
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    pub quantity: u32,
    pub unit_price_cents: i64,
    pub discount_percent: Option<u32>,
}

/// Zero-copy twin of [`Order`]: decode with
/// `serde_json::from_str::<OrderRef>(&text)`; the strings point into `text`
/// unless they contained escapes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderRef<'a> {
    pub id: u64,
    #[serde(borrow)]
    pub customer: CustomerRef<'a>,
    #[serde(borrow)]
    pub items: Vec<LineItemRef<'a>>,
    pub status: Status,
    #[serde(borrow)]
    pub created_at: Cow<'a, str>,
    #[serde(borrow, deserialize_with = "de_opt_cow")]
    pub note: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "de_vec_cow")]
    pub tags: Vec<Cow<'a, str>>,
    pub total_cents: i64,
}

#[derive(Deserialize)]
struct BorrowedStr<'a>(#[serde(borrow)] Cow<'a, str>);

fn de_opt_cow<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, str>>, D::Error> {
    Ok(Option::<BorrowedStr<'a>>::deserialize(d)?.map(|s| s.0))
}

fn de_vec_cow<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Vec<Cow<'a, str>>, D::Error> {
    Ok(Vec::<BorrowedStr<'a>>::deserialize(d)?
        .into_iter()
        .map(|s| s.0)
        .collect())
}

#[allow(clippy::ptr_arg)] // used with `Option::map` / `Iter::map` over `&Cow`
fn owned(s: &Cow<'_, str>) -> String {
    String::from(&**s)
}

impl OrderRef<'_> {
    /// An owned copy.
    pub fn to_owned_order(&self) -> Order {
        Order {
            id: self.id,
            customer: Customer {
                id: self.customer.id,
                name: owned(&self.customer.name),
                email: owned(&self.customer.email),
                address: Address {
                    street: owned(&self.customer.address.street),
                    city: owned(&self.customer.address.city),
                    country: owned(&self.customer.address.country),
                    postal_code: owned(&self.customer.address.postal_code),
                },
            },
            items: self
                .items
                .iter()
                .map(|i| LineItem {
                    sku: owned(&i.sku),
                    name: owned(&i.name),
                    quantity: i.quantity,
                    unit_price_cents: i.unit_price_cents,
                    discount_percent: i.discount_percent,
                })
                .collect(),
            status: self.status,
            created_at: owned(&self.created_at),
            note: self.note.as_ref().map(owned),
            tags: self.tags.iter().map(owned).collect(),
            total_cents: self.total_cents,
        }
    }

    /// Every string field, in declaration order.
    pub fn strings(&self) -> Vec<&Cow<'_, str>> {
        let c = &self.customer;
        let a = &c.address;
        let mut v = vec![
            &c.name,
            &c.email,
            &a.street,
            &a.city,
            &a.country,
            &a.postal_code,
        ];
        for i in &self.items {
            v.push(&i.sku);
            v.push(&i.name);
        }
        v.push(&self.created_at);
        v.extend(self.note.iter());
        v.extend(self.tags.iter());
        v
    }

    /// `(borrowed, owned)`: how many string fields point into the input and
    /// how many had to be allocated (those with escape sequences).
    pub fn borrow_counts(&self) -> (usize, usize) {
        let s = self.strings();
        let borrowed = s.iter().filter(|c| matches!(c, Cow::Borrowed(_))).count();
        (borrowed, s.len() - borrowed)
    }
}

impl<'a> From<&'a Order> for OrderRef<'a> {
    /// Borrows every string of `o`.
    fn from(o: &'a Order) -> OrderRef<'a> {
        let b = |s: &'a String| Cow::Borrowed(s.as_str());
        OrderRef {
            id: o.id,
            customer: CustomerRef {
                id: o.customer.id,
                name: b(&o.customer.name),
                email: b(&o.customer.email),
                address: AddressRef {
                    street: b(&o.customer.address.street),
                    city: b(&o.customer.address.city),
                    country: b(&o.customer.address.country),
                    postal_code: b(&o.customer.address.postal_code),
                },
            },
            items: o
                .items
                .iter()
                .map(|i| LineItemRef {
                    sku: b(&i.sku),
                    name: b(&i.name),
                    quantity: i.quantity,
                    unit_price_cents: i.unit_price_cents,
                    discount_percent: i.discount_percent,
                })
                .collect(),
            status: o.status,
            created_at: b(&o.created_at),
            note: o.note.as_ref().map(b),
            tags: o.tags.iter().map(b).collect(),
            total_cents: o.total_cents,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn same_seed_same_json() {
        let a = serde_json::to_string(&orders(42, 50)).unwrap();
        let b = serde_json::to_string(&orders(42, 50)).unwrap();
        assert_eq!(a, b);
        let c = serde_json::to_string(&orders(43, 50)).unwrap();
        assert_ne!(a, c);
        assert_eq!(
            serde_json::to_string(&sample_order()).unwrap(),
            serde_json::to_string(&sample_order()).unwrap()
        );
    }

    #[test]
    fn generated_orders_are_consistent() {
        let os = orders(7, 500);
        let mut ids: Vec<u64> = os.iter().map(|o| o.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), 500, "ids unique and increasing");
        let mut vi = 0;
        let mut with_escape = 0;
        for o in &os {
            assert!(!o.items.is_empty() && o.items.len() <= 12);
            assert_eq!(
                o.total_cents,
                o.items.iter().map(LineItem::total_cents).sum::<i64>()
            );
            assert_eq!(
                o.created_at.len(),
                if o.created_at.ends_with('Z') { 20 } else { 25 }
            );
            assert!(o.customer.email.is_ascii() && o.customer.email.contains('@'));
            assert_eq!(o.customer.address.country.len(), 2);
            if !o.customer.name.is_ascii() {
                vi += 1;
            }
            if o.note.as_deref().is_some_and(|n| n.contains('"')) {
                with_escape += 1;
            }
        }
        // a realistic mix: mostly Vietnamese customers, some English ones,
        // a few notes that need JSON escapes
        assert!((250..=450).contains(&vi), "{vi}");
        assert!(with_escape > 0);
    }

    #[test]
    fn sample_order_shape() {
        let o = sample_order();
        assert!((3..=5).contains(&o.items.len()));
        assert!(o.note.is_some());
        assert!(!o.tags.is_empty());
        assert!(o.items.iter().any(|i| i.discount_percent.is_some()));
        assert!(o.items.iter().any(|i| i.discount_percent.is_none()));
        let json = serde_json::to_string(&o).unwrap();
        assert!(json.contains(r#""status":"#));
        let p = sample_product();
        assert!(p.in_stock && !p.tags.is_empty());
    }

    #[test]
    fn status_is_snake_case() {
        assert_eq!(
            serde_json::to_string(&Status::Delivered).unwrap(),
            "\"delivered\""
        );
        let s: Status = serde_json::from_str("\"cancelled\"").unwrap();
        assert_eq!(s, Status::Cancelled);
    }

    #[test]
    fn json_round_trip() {
        for o in orders(1, 200) {
            let text = serde_json::to_string(&o).unwrap();
            let back: Order = serde_json::from_str(&text).unwrap();
            assert_eq!(back, o);
        }
    }

    #[test]
    fn borrowed_json_round_trip() {
        let mut owned_total = 0;
        for o in orders(2, 200) {
            let text = serde_json::to_string(&o).unwrap();
            let r: OrderRef = serde_json::from_str(&text).unwrap();
            assert_eq!(r.to_owned_order(), o);
            assert_eq!(r, OrderRef::from(&o));
            let (borrowed, owned) = r.borrow_counts();
            assert!(borrowed > 0);
            // only strings with escapes are allocated
            let escaped = r
                .strings()
                .iter()
                .filter(|s| s.contains(['"', '\\']) || s.chars().any(char::is_control))
                .count();
            assert_eq!(owned, escaped);
            owned_total += owned;
            // re-encoding the borrowed form gives the same text
            assert_eq!(serde_json::to_string(&r).unwrap(), text);
        }
        assert!(owned_total > 0, "some notes carry escapes");
    }

    #[test]
    fn prost_round_trip() {
        for o in orders(3, 200) {
            let msg = pb::Order::from(&o);
            let bytes = msg.encode_to_vec();
            let decoded = pb::Order::decode(bytes.as_slice()).unwrap();
            assert_eq!(decoded, msg);
            assert_eq!(Order::try_from(decoded).unwrap(), o);
            assert_eq!(Order::try_from(&msg).unwrap(), o);
        }
        let p = sample_product();
        let m = pb::Product::from(&p);
        let back = pb::Product::decode(m.encode_to_vec().as_slice()).unwrap();
        assert_eq!(Product::from(back), p);
    }

    #[test]
    fn prost_rejects_unspecified_status() {
        let mut m = pb::Order::from(&sample_order());
        m.status = pb::Status::Unspecified as i32;
        assert!(Order::try_from(&m).is_err());
        m.status = 99;
        assert!(Order::try_from(&m).is_err());
        let mut m = pb::Order::from(&sample_order());
        m.customer = None;
        assert!(Order::try_from(m).is_err());
    }
}
