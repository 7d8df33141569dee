# The order model of the `orders` crate as a Cap'n Proto schema.
#
# src/order_capnp.rs is generated from this file and committed, so that
# building the experiment needs neither the `capnp` compiler nor a build.rs.
# After editing this schema, regenerate it from experiments/zero-copy with
#
#   capnp compile -orust:src --src-prefix=schema schema/order.capnp
#
# (`capnp` from Debian's capnproto package, `capnpc-rust` from
# `cargo install capnpc`; see the versions at the top of src/cp.rs).

@0xe10a681fca5f67ad;

struct Address {
  street @0 :Text;
  city @1 :Text;
  country @2 :Text;
  postalCode @3 :Text;
}

struct Customer {
  id @0 :UInt64;
  name @1 :Text;
  email @2 :Text;
  address @3 :Address;
}

struct LineItem {
  sku @0 :Text;
  name @1 :Text;
  quantity @2 :UInt32;
  unitPriceCents @3 :Int64;
  discount :union {
    none @4 :Void;
    percent @5 :UInt32;
  }
}

enum Status {
  pending @0;
  paid @1;
  shipped @2;
  delivered @3;
  cancelled @4;
  refunded @5;
}

struct Order {
  id @0 :UInt64;
  customer @1 :Customer;
  items @2 :List(LineItem);
  status @3 :Status;
  createdAt @4 :Text;
  note @5 :Text;          # absent (a null pointer) when the order has no note
  tags @6 :List(Text);
  totalCents @7 :Int64;
}
