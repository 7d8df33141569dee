//! Cap'n Proto for the order: the builder that encodes an `orders::Order`
//! with the generated code, and the conversion back used to check it.
//!
//! The generated code, `order_capnp.rs`, is committed (no `capnp` compiler
//! and no build.rs on the build machine). It was produced from
//! `schema/order.capnp` by `capnp` 0.9.2 (Debian's capnproto package) with
//! the `capnpc-rust` plugin of the `capnpc` crate 0.27.0, for the `capnp`
//! runtime crate 0.27:
//!
//! ```text
//! cd experiments/zero-copy
//! capnp compile -orust:src --src-prefix=schema schema/order.capnp
//! ```

use crate::order_capnp::{Status, line_item, order};
use capnp::message::{self, ReaderOptions};
use capnp::{Word, serialize};

/// The schema's status enum for an `orders::Status`.
fn status(s: orders::Status) -> Status {
    match s {
        orders::Status::Pending => Status::Pending,
        orders::Status::Paid => Status::Paid,
        orders::Status::Shipped => Status::Shipped,
        orders::Status::Delivered => Status::Delivered,
        orders::Status::Cancelled => Status::Cancelled,
        orders::Status::Refunded => Status::Refunded,
    }
}

/// Encodes an order in the standard (unpacked) framing: a segment table,
/// then the segments. Returned as words so that the buffer is 8-byte
/// aligned, which reading in place requires.
pub fn build(o: &orders::Order) -> (Vec<Word>, usize) {
    let mut msg = message::Builder::new_default();
    let mut r = msg.init_root::<order::Builder>();
    r.set_id(o.id);
    {
        let mut c = r.reborrow().init_customer();
        c.set_id(o.customer.id);
        c.set_name(o.customer.name.as_str());
        c.set_email(o.customer.email.as_str());
        let a = &o.customer.address;
        let mut ad = c.init_address();
        ad.set_street(a.street.as_str());
        ad.set_city(a.city.as_str());
        ad.set_country(a.country.as_str());
        ad.set_postal_code(a.postal_code.as_str());
    }
    let mut items = r.reborrow().init_items(o.items.len() as u32);
    for (i, it) in o.items.iter().enumerate() {
        let mut b = items.reborrow().get(i as u32);
        b.set_sku(it.sku.as_str());
        b.set_name(it.name.as_str());
        b.set_quantity(it.quantity);
        b.set_unit_price_cents(it.unit_price_cents);
        match it.discount_percent {
            Some(d) => b.init_discount().set_percent(d),
            None => b.init_discount().set_none(()),
        }
    }
    r.set_status(status(o.status));
    r.set_created_at(o.created_at.as_str());
    if let Some(n) = &o.note {
        r.set_note(n.as_str());
    }
    let mut tags = r.reborrow().init_tags(o.tags.len() as u32);
    for (i, t) in o.tags.iter().enumerate() {
        tags.set(i as u32, t.as_str());
    }
    r.set_total_cents(o.total_cents);
    let segments = msg.get_segments_for_output().len();
    (aligned(&serialize::write_message_to_words(&msg)), segments)
}

/// A copy of a message's bytes in words, so that it is 8-byte aligned.
pub fn aligned(b: &[u8]) -> Vec<Word> {
    let mut words = Word::allocate_zeroed_vec(b.len() / 8);
    Word::words_to_bytes_mut(&mut words).copy_from_slice(b);
    words
}

/// Opens a message in place with the given traversal limit (in words).
pub fn open(
    b: &[u8],
    limit: Option<usize>,
) -> capnp::Result<message::Reader<serialize::NoAllocSliceSegments<'_>>> {
    let mut opts = ReaderOptions::new();
    opts.traversal_limit_in_words(limit);
    serialize::read_message_from_flat_slice_no_alloc(&mut &b[..], opts)
}

fn text(t: capnp::Result<capnp::text::Reader<'_>>) -> capnp::Result<String> {
    Ok(t?.to_string()?)
}

/// Reads every field back (checks that the encoding is complete).
pub fn to_order(r: order::Reader<'_>) -> capnp::Result<orders::Order> {
    let c = r.get_customer()?;
    let a = c.get_address()?;
    let items = r
        .get_items()?
        .iter()
        .map(|i| {
            Ok(orders::LineItem {
                sku: text(i.get_sku())?,
                name: text(i.get_name())?,
                quantity: i.get_quantity(),
                unit_price_cents: i.get_unit_price_cents(),
                discount_percent: match i.get_discount().which()? {
                    line_item::discount::Which::None(()) => None,
                    line_item::discount::Which::Percent(d) => Some(d),
                },
            })
        })
        .collect::<capnp::Result<Vec<_>>>()?;
    let st = r.get_status()?;
    Ok(orders::Order {
        id: r.get_id(),
        customer: orders::Customer {
            id: c.get_id(),
            name: text(c.get_name())?,
            email: text(c.get_email())?,
            address: orders::Address {
                street: text(a.get_street())?,
                city: text(a.get_city())?,
                country: text(a.get_country())?,
                postal_code: text(a.get_postal_code())?,
            },
        },
        items,
        status: *orders::Status::ALL
            .iter()
            .find(|s| status(**s) == st)
            .expect("every schema status comes from an orders::Status"),
        created_at: text(r.get_created_at())?,
        note: if r.has_note() {
            Some(text(r.get_note())?)
        } else {
            None
        },
        tags: r
            .get_tags()?
            .iter()
            .map(text)
            .collect::<capnp::Result<Vec<_>>>()?,
        total_cents: r.get_total_cents(),
    })
}
