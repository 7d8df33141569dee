//! A model of the allocations of serde_json's decodes and of `to_vec`, predicted from the
//! data alone (never from the counters), which the experiment then checks against them.

use orders::{LineItem, Order, OrderRef};
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;

// ANCHOR: model
/// The allocations a decode must make, predicted from the data alone.
#[derive(Debug, Default, Clone, Copy, PartialEq, Serialize)]
pub struct Model {
    /// One per non-empty string that is copied out of the input.
    pub strings: u64,
    /// One per non-empty `Vec`: its first buffer.
    pub vecs: u64,
    /// One `realloc` each time a `Vec` outgrows its buffer.
    pub growth: u64,
    /// One per non-empty JSON object decoded into a `Map` (a B-tree node).
    pub maps: u64,
    /// Bytes of the strings and `Vec` buffers above (maps not included).
    pub bytes: u64,
}

impl Model {
    pub fn calls(&self) -> u64 {
        self.strings + self.vecs + self.growth + self.maps
    }

    /// `String::from(&str)`: exactly `len` bytes, nothing for "".
    fn string(&mut self, s: &str) {
        if !s.is_empty() {
            self.strings += 1;
            self.bytes += s.len() as u64;
        }
    }

    /// serde_json gives serde no length for an array, so serde starts from
    /// `Vec::new()` and pushes: the first buffer holds 4 elements (Rust's
    /// minimum for elements up to 1 KiB), then it doubles.
    pub fn vec(&mut self, n: usize, elem_size: usize) {
        if n == 0 {
            return;
        }
        let mut cap = if elem_size <= 1024 { 4 } else { 1 };
        self.vecs += 1;
        self.bytes += (cap * elem_size) as u64;
        while cap < n {
            cap *= 2;
            self.growth += 1;
            self.bytes += (cap * elem_size) as u64;
        }
    }
}

/// `from_slice::<Order>`: every string is copied into its own `String`.
pub fn model_owned(o: &Order, m: &mut Model) {
    let (c, a) = (&o.customer, &o.customer.address);
    for s in [&c.name, &c.email, &a.street, &a.city, &a.country] {
        m.string(s);
    }
    m.string(&a.postal_code);
    m.string(&o.created_at);
    o.note.iter().for_each(|n| m.string(n));
    for item in &o.items {
        m.string(&item.sku);
        m.string(&item.name);
    }
    o.tags.iter().for_each(|t| m.string(t));
    m.vec(o.items.len(), size_of::<LineItem>());
    m.vec(o.tags.len(), size_of::<String>());
}

/// `from_slice::<OrderRef>`: strings point into the input unless the JSON
/// string had an escape; only the `Vec`s (and escaped strings) allocate.
pub fn model_borrowed(r: &OrderRef, m: &mut Model) {
    for s in r.strings() {
        if let Cow::Owned(s) = s {
            m.string(s);
        }
    }
    m.vec(r.items.len(), size_of::<orders::LineItemRef>());
    m.vec(r.tags.len(), size_of::<Cow<str>>());
}

/// `from_slice::<Value>`: every key is a `String`, every object a B-tree.
pub fn model_value(v: &Value, m: &mut Model) {
    match v {
        Value::String(s) => m.string(s),
        Value::Array(a) => {
            m.vec(a.len(), size_of::<Value>());
            a.iter().for_each(|x| model_value(x, m));
        }
        Value::Object(o) => {
            // up to 11 entries fit in one leaf node; our objects have ≤ 8
            assert!(o.len() <= 11, "model assumes one B-tree node per object");
            m.maps += u64::from(!o.is_empty());
            for (k, x) in o {
                m.string(k);
                model_value(x, m);
            }
        }
        _ => {}
    }
}
// ANCHOR_END: model

/// `to_vec` starts with 128 bytes and doubles: 1 alloc, then reallocs.
pub fn model_to_vec(len: usize) -> Model {
    let mut m = Model::default();
    let mut cap = 128;
    m.vecs = 1;
    m.bytes = cap as u64;
    while cap < len {
        cap *= 2;
        m.growth += 1;
        m.bytes += cap as u64;
    }
    m
}
