//! FlatBuffers for the order, written by hand in the shape `flatc` generates
//! (no `flatc` on the build machine): the schema in [`SCHEMA`], a builder
//! using the `flatbuffers` crate's API, table accessors and verifiers.

use flatbuffers::{
    FlatBufferBuilder, Follow, ForwardsUOffset, InvalidFlatbuffer, Table, Vector, Verifiable,
    Verifier, WIPOffset,
};

// ANCHOR: fb_schema
/// The schema these types implement (field i lives at vtable offset 4 + 2i).
#[allow(
    dead_code,
    reason = "the schema the hand-written accessors below implement, shown in the article"
)]
pub const SCHEMA: &str = r#"
table Address  { street:string; city:string; country:string; postal_code:string; }
table Customer { id:uint64; name:string; email:string; address:Address; }
table LineItem { sku:string; name:string; quantity:uint32;
                 unit_price_cents:int64; discount_percent:uint32 = null; }
table Order    { id:uint64; customer:Customer; items:[LineItem]; status:ubyte;
                 created_at:string; note:string; tags:[string]; total_cents:int64; }
root_type Order;
"#;
// ANCHOR_END: fb_schema

const fn slot(i: u16) -> u16 {
    4 + 2 * i
}

macro_rules! table {
    ($name:ident, $($field:literal: $ty:ty),* $(,)?) => {
        #[derive(Copy, Clone)]
        #[allow(dead_code)] // not every table is read in this experiment
        pub struct $name<'a> {
            pub tab: Table<'a>,
        }
        impl<'a> Follow<'a> for $name<'a> {
            type Inner = $name<'a>;
            unsafe fn follow(buf: &'a [u8], loc: usize) -> Self::Inner {
                $name { tab: unsafe { Table::new(buf, loc) } }
            }
        }
        impl Verifiable for $name<'_> {
            fn run_verifier(v: &mut Verifier, pos: usize) -> Result<(), InvalidFlatbuffer> {
                let mut i = 0u16;
                let mut t = v.visit_table(pos)?;
                $(
                    t = t.visit_field::<$ty>($field, slot(i), false)?;
                    i += 1;
                )*
                let _ = i;
                t.finish();
                Ok(())
            }
        }
    };
}

type Str = ForwardsUOffset<&'static str>;
table!(AddressFb, "street": Str, "city": Str, "country": Str, "postal_code": Str);
table!(CustomerFb, "id": u64, "name": Str, "email": Str, "address": ForwardsUOffset<AddressFb<'static>>);
table!(LineItemFb, "sku": Str, "name": Str, "quantity": u32, "unit_price_cents": i64, "discount_percent": u32);
table!(
    OrderFb,
    "id": u64,
    "customer": ForwardsUOffset<CustomerFb<'static>>,
    "items": ForwardsUOffset<Vector<'static, ForwardsUOffset<LineItemFb<'static>>>>,
    "status": u8,
    "created_at": Str,
    "note": Str,
    "tags": ForwardsUOffset<Vector<'static, ForwardsUOffset<&'static str>>>,
    "total_cents": i64,
);

// ANCHOR: fb_read
impl<'a> OrderFb<'a> {
    /// Field 7: look up its offset in the vtable, load 8 bytes from there.
    pub fn total_cents(&self) -> i64 {
        // SAFETY: slot 7 of an Order table holds an int64 (see SCHEMA).
        unsafe { self.tab.get::<i64>(slot(7), Some(0)).unwrap() }
    }
}
// ANCHOR_END: fb_read

/// Encodes an order as a FlatBuffer (children first, root last).
pub fn build(o: &orders::Order) -> Vec<u8> {
    let mut b = FlatBufferBuilder::with_capacity(4096);
    let a = &o.customer.address;
    let s: Vec<_> = [&a.street, &a.city, &a.country, &a.postal_code]
        .iter()
        .map(|x| b.create_string(x))
        .collect();
    let t = b.start_table();
    for (i, x) in s.into_iter().enumerate() {
        b.push_slot_always(slot(i as u16), x);
    }
    let address = b.end_table(t);
    let (name, email) = (
        b.create_string(&o.customer.name),
        b.create_string(&o.customer.email),
    );
    let t = b.start_table();
    b.push_slot(slot(0), o.customer.id, 0);
    b.push_slot_always(slot(1), name);
    b.push_slot_always(slot(2), email);
    b.push_slot_always(slot(3), address);
    let customer = b.end_table(t);
    let items: Vec<WIPOffset<_>> = o
        .items
        .iter()
        .map(|it| {
            let (sku, name) = (b.create_string(&it.sku), b.create_string(&it.name));
            let t = b.start_table();
            b.push_slot(slot(3), it.unit_price_cents, 0);
            b.push_slot_always(slot(0), sku);
            b.push_slot_always(slot(1), name);
            b.push_slot(slot(2), it.quantity, 0);
            if let Some(d) = it.discount_percent {
                b.push_slot_always(slot(4), d);
            }
            b.end_table(t)
        })
        .collect();
    let items = b.create_vector(&items);
    let created_at = b.create_string(&o.created_at);
    let note = o.note.as_ref().map(|n| b.create_string(n));
    let tags: Vec<_> = o.tags.iter().map(|t| b.create_string(t)).collect();
    let tags = b.create_vector(&tags);
    let status = orders::Status::ALL
        .iter()
        .position(|s| *s == o.status)
        .unwrap() as u8;
    let t = b.start_table();
    b.push_slot(slot(0), o.id, 0);
    b.push_slot(slot(7), o.total_cents, 0);
    b.push_slot_always(slot(1), customer);
    b.push_slot_always(slot(2), items);
    b.push_slot_always(slot(4), created_at);
    if let Some(n) = note {
        b.push_slot_always(slot(5), n);
    }
    b.push_slot_always(slot(6), tags);
    b.push_slot(slot(3), status, 0);
    let root = b.end_table(t);
    b.finish(root, None);
    b.finished_data().to_vec()
}
