//! Protocol Buffers mirrors of the data model, written by hand with prost's
//! derive macros (no `protoc`), with conversions to and from the serde model.
//! [`ORDER_PROTO`] is the equivalent `.proto` schema.

use std::fmt;

/// The `.proto` schema these structs implement (proto3).
pub const ORDER_PROTO: &str = r#"syntax = "proto3";

package shop;

enum Status {
  STATUS_UNSPECIFIED = 0;
  STATUS_PENDING = 1;
  STATUS_PAID = 2;
  STATUS_SHIPPED = 3;
  STATUS_DELIVERED = 4;
  STATUS_CANCELLED = 5;
  STATUS_REFUNDED = 6;
}

message Address {
  string street = 1;
  string city = 2;
  string country = 3;
  string postal_code = 4;
}

message Customer {
  uint64 id = 1;
  string name = 2;
  string email = 3;
  Address address = 4;
}

message LineItem {
  string sku = 1;
  string name = 2;
  uint32 quantity = 3;
  int64 unit_price_cents = 4;
  optional uint32 discount_percent = 5;
}

message Order {
  uint64 id = 1;
  Customer customer = 2;
  repeated LineItem items = 3;
  Status status = 4;
  string created_at = 5;
  optional string note = 6;
  repeated string tags = 7;
  int64 total_cents = 8;
}

message Product {
  uint64 id = 1;
  string name = 2;
  int64 price_cents = 3;
  bool in_stock = 4;
  repeated string tags = 5;
}
"#;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Status {
    Unspecified = 0,
    Pending = 1,
    Paid = 2,
    Shipped = 3,
    Delivered = 4,
    Cancelled = 5,
    Refunded = 6,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Address {
    #[prost(string, tag = "1")]
    pub street: String,
    #[prost(string, tag = "2")]
    pub city: String,
    #[prost(string, tag = "3")]
    pub country: String,
    #[prost(string, tag = "4")]
    pub postal_code: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Customer {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(string, tag = "3")]
    pub email: String,
    #[prost(message, optional, tag = "4")]
    pub address: Option<Address>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct LineItem {
    #[prost(string, tag = "1")]
    pub sku: String,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(uint32, tag = "3")]
    pub quantity: u32,
    #[prost(int64, tag = "4")]
    pub unit_price_cents: i64,
    #[prost(uint32, optional, tag = "5")]
    pub discount_percent: Option<u32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Order {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(message, optional, tag = "2")]
    pub customer: Option<Customer>,
    #[prost(message, repeated, tag = "3")]
    pub items: Vec<LineItem>,
    #[prost(enumeration = "Status", tag = "4")]
    pub status: i32,
    #[prost(string, tag = "5")]
    pub created_at: String,
    #[prost(string, optional, tag = "6")]
    pub note: Option<String>,
    #[prost(string, repeated, tag = "7")]
    pub tags: Vec<String>,
    #[prost(int64, tag = "8")]
    pub total_cents: i64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Product {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(int64, tag = "3")]
    pub price_cents: i64,
    #[prost(bool, tag = "4")]
    pub in_stock: bool,
    #[prost(string, repeated, tag = "5")]
    pub tags: Vec<String>,
}

/// A protobuf message that does not map onto the serde model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError(pub String);

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "protobuf order does not convert: {}", self.0)
    }
}

impl std::error::Error for ConversionError {}

impl From<crate::Status> for Status {
    fn from(s: crate::Status) -> Status {
        match s {
            crate::Status::Pending => Status::Pending,
            crate::Status::Paid => Status::Paid,
            crate::Status::Shipped => Status::Shipped,
            crate::Status::Delivered => Status::Delivered,
            crate::Status::Cancelled => Status::Cancelled,
            crate::Status::Refunded => Status::Refunded,
        }
    }
}

impl TryFrom<Status> for crate::Status {
    type Error = ConversionError;
    fn try_from(s: Status) -> Result<crate::Status, ConversionError> {
        Ok(match s {
            Status::Unspecified => return Err(ConversionError("status unspecified".into())),
            Status::Pending => crate::Status::Pending,
            Status::Paid => crate::Status::Paid,
            Status::Shipped => crate::Status::Shipped,
            Status::Delivered => crate::Status::Delivered,
            Status::Cancelled => crate::Status::Cancelled,
            Status::Refunded => crate::Status::Refunded,
        })
    }
}

impl From<&crate::Address> for Address {
    fn from(a: &crate::Address) -> Address {
        Address {
            street: a.street.clone(),
            city: a.city.clone(),
            country: a.country.clone(),
            postal_code: a.postal_code.clone(),
        }
    }
}

impl From<&crate::LineItem> for LineItem {
    fn from(i: &crate::LineItem) -> LineItem {
        LineItem {
            sku: i.sku.clone(),
            name: i.name.clone(),
            quantity: i.quantity,
            unit_price_cents: i.unit_price_cents,
            discount_percent: i.discount_percent,
        }
    }
}

impl From<&crate::Order> for Order {
    fn from(o: &crate::Order) -> Order {
        let c = &o.customer;
        Order {
            id: o.id,
            customer: Some(Customer {
                id: c.id,
                name: c.name.clone(),
                email: c.email.clone(),
                address: Some(Address::from(&c.address)),
            }),
            items: o.items.iter().map(LineItem::from).collect(),
            status: Status::from(o.status) as i32,
            created_at: o.created_at.clone(),
            note: o.note.clone(),
            tags: o.tags.clone(),
            total_cents: o.total_cents,
        }
    }
}

impl TryFrom<Order> for crate::Order {
    type Error = ConversionError;
    /// Moves the strings; fails on a missing customer or address, or a
    /// status that is unspecified or unknown.
    fn try_from(o: Order) -> Result<crate::Order, ConversionError> {
        let status = Status::try_from(o.status)
            .map_err(|_| ConversionError(format!("unknown status {}", o.status)))?;
        let c = o
            .customer
            .ok_or_else(|| ConversionError("no customer".into()))?;
        let a = c
            .address
            .ok_or_else(|| ConversionError("no address".into()))?;
        Ok(crate::Order {
            id: o.id,
            customer: crate::Customer {
                id: c.id,
                name: c.name,
                email: c.email,
                address: crate::Address {
                    street: a.street,
                    city: a.city,
                    country: a.country,
                    postal_code: a.postal_code,
                },
            },
            items: o
                .items
                .into_iter()
                .map(|i| crate::LineItem {
                    sku: i.sku,
                    name: i.name,
                    quantity: i.quantity,
                    unit_price_cents: i.unit_price_cents,
                    discount_percent: i.discount_percent,
                })
                .collect(),
            status: crate::Status::try_from(status)?,
            created_at: o.created_at,
            note: o.note,
            tags: o.tags,
            total_cents: o.total_cents,
        })
    }
}

impl TryFrom<&Order> for crate::Order {
    type Error = ConversionError;
    fn try_from(o: &Order) -> Result<crate::Order, ConversionError> {
        crate::Order::try_from(o.clone())
    }
}

impl From<&crate::Product> for Product {
    fn from(p: &crate::Product) -> Product {
        Product {
            id: p.id,
            name: p.name.clone(),
            price_cents: p.price_cents,
            in_stock: p.in_stock,
            tags: p.tags.clone(),
        }
    }
}

impl From<Product> for crate::Product {
    fn from(p: Product) -> crate::Product {
        crate::Product {
            id: p.id,
            name: p.name,
            price_cents: p.price_cents,
            in_stock: p.in_stock,
            tags: p.tags,
        }
    }
}

impl From<&Product> for crate::Product {
    fn from(p: &Product) -> crate::Product {
        crate::Product::from(p.clone())
    }
}
