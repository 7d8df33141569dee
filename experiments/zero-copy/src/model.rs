//! rkyv mirrors of the order model (`#[derive(Archive)]` needs local types)
//! and the conversion from `orders::Order`.

use rkyv::{Archive, Deserialize, Serialize};

#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
pub struct Address {
    pub street: String,
    pub city: String,
    pub country: String,
    pub postal_code: String,
}

#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
pub struct Customer {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub address: Address,
}

#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
pub struct LineItem {
    pub sku: String,
    pub name: String,
    pub quantity: u32,
    pub unit_price_cents: i64,
    pub discount_percent: Option<u32>,
}

#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
pub enum Status {
    Pending,
    Paid,
    Shipped,
    Delivered,
    Cancelled,
    Refunded,
}

// ANCHOR: rkyv_model
/// The archived form (`ArchivedOrder`) has the same shape, laid out so that
/// it can be used in place: strings and vectors become relative pointers.
#[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
pub struct Order {
    pub id: u64,
    pub customer: Customer,
    pub items: Vec<LineItem>,
    pub status: Status,
    pub created_at: String,
    pub note: Option<String>,
    pub tags: Vec<String>,
    pub total_cents: i64,
}
// ANCHOR_END: rkyv_model

impl From<&orders::Order> for Order {
    fn from(o: &orders::Order) -> Order {
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
            status: match o.status {
                orders::Status::Pending => Status::Pending,
                orders::Status::Paid => Status::Paid,
                orders::Status::Shipped => Status::Shipped,
                orders::Status::Delivered => Status::Delivered,
                orders::Status::Cancelled => Status::Cancelled,
                orders::Status::Refunded => Status::Refunded,
            },
            created_at: o.created_at.clone(),
            note: o.note.clone(),
            tags: o.tags.clone(),
            total_cents: o.total_cents,
        }
    }
}
