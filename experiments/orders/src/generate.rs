//! Deterministic generation of realistic orders and products from a seeded RNG.

use crate::data::*;
use crate::{Address, Customer, LineItem, Order, Product, Status};
use harness::rand::seq::IndexedRandom;
use harness::rand::{Rng, RngExt};

/// 2026-01-01T00:00:00Z, in seconds since the Unix epoch.
const START_2026: i64 = 1_767_225_600;
/// Generated timestamps fall in the first 300 days of 2026.
const SPAN_SECS: i64 = 300 * 86_400;

fn pick<'a, T>(rng: &mut (impl Rng + ?Sized), xs: &'a [T]) -> &'a T {
    xs.choose(rng).expect("non-empty list")
}

/// Picks an index by weight.
fn weighted(rng: &mut (impl Rng + ?Sized), weights: &[u32]) -> usize {
    let total: u32 = weights.iter().sum();
    let mut x = rng.random_range(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

/// Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// RFC 3339 text of a UTC instant shown at a local offset (`Z` for UTC).
fn rfc3339(utc_secs: i64, offset_min: i32) -> String {
    let local = utc_secs + i64::from(offset_min) * 60;
    let (y, mo, d) = civil_from_days(local.div_euclid(86_400));
    let s = local.rem_euclid(86_400);
    let (h, mi, se) = (s / 3600, s / 60 % 60, s % 60);
    let off = if offset_min == 0 {
        "Z".to_string()
    } else {
        let sign = if offset_min < 0 { '-' } else { '+' };
        let a = offset_min.abs();
        format!("{sign}{:02}:{:02}", a / 60, a % 60)
    };
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{se:02}{off}")
}

/// Fills a postal-code shape: `#` digit, `A` capital letter.
fn postal(rng: &mut (impl Rng + ?Sized), shape: &str) -> String {
    shape
        .chars()
        .map(|c| match c {
            '#' => char::from(b'0' + rng.random_range(0..10u8)),
            'A' => char::from(b'A' + rng.random_range(0..26u8)),
            other => other,
        })
        .collect()
}

fn vi_address(rng: &mut (impl Rng + ?Sized)) -> (Address, i32) {
    let &(city, country, prefix, offset) = pick(rng, VI_CITIES);
    let street = if rng.random_bool(0.3) {
        format!(
            "Hẻm {}/{} {}, {}",
            rng.random_range(2..400),
            rng.random_range(1..60),
            pick(rng, VI_STREETS),
            pick(rng, vi_wards(city))
        )
    } else {
        format!(
            "{} {}, {}",
            rng.random_range(1..500),
            pick(rng, VI_STREETS),
            pick(rng, vi_wards(city))
        )
    };
    let postal_code = format!("{prefix}{:03}", rng.random_range(0..1000));
    (
        Address {
            street,
            city: city.into(),
            country: country.into(),
            postal_code,
        },
        offset,
    )
}

fn en_address(rng: &mut (impl Rng + ?Sized)) -> (Address, i32) {
    let &(city, country, shape, offset) = pick(rng, EN_CITIES);
    let mut street = format!("{} {}", rng.random_range(1..2500), pick(rng, EN_STREETS));
    if rng.random_bool(0.25) {
        street.push_str(&format!(", Apt {}", rng.random_range(1..40)));
    }
    (
        Address {
            street,
            city: city.into(),
            country: country.into(),
            postal_code: postal(rng, shape),
        },
        offset,
    )
}

/// A customer and the UTC offset (minutes) of where they live.
fn customer(rng: &mut (impl Rng + ?Sized)) -> (Customer, i32) {
    let id = rng.random_range(10_000..5_000_000u64);
    // ~70% Vietnamese names (all living in Vietnam); English names live
    // abroad, or in Vietnam for a third of them.
    if rng.random_bool(0.7) {
        let &(sur, sur_ascii) = pick(rng, VI_SURNAMES);
        let middle = pick(rng, VI_MIDDLE);
        let &(given, given_ascii) = pick(rng, VI_GIVEN);
        let email = format!(
            "{given_ascii}.{sur_ascii}{}@{}",
            rng.random_range(70..100),
            pick(rng, VI_MAIL_DOMAINS)
        );
        let (address, offset) = vi_address(rng);
        (
            Customer {
                id,
                name: format!("{sur} {middle} {given}"),
                email,
                address,
            },
            offset,
        )
    } else {
        let first = pick(rng, EN_FIRST);
        let last = pick(rng, EN_LAST);
        let email = format!(
            "{}.{}@{}",
            first.to_lowercase(),
            last.to_lowercase().replace('\'', ""),
            pick(rng, EN_MAIL_DOMAINS)
        );
        let (address, offset) = if rng.random_bool(1.0 / 3.0) {
            vi_address(rng)
        } else {
            en_address(rng)
        };
        (
            Customer {
                id,
                name: format!("{first} {last}"),
                email,
                address,
            },
            offset,
        )
    }
}

fn line_items(rng: &mut (impl Rng + ?Sized), n: usize) -> Vec<LineItem> {
    let chosen: Vec<&(&str, &str, i64)> = CATALOGUE.sample(rng, n).collect();
    chosen
        .into_iter()
        .map(|&(sku, name, price)| {
            let quantity = match weighted(rng, &[65, 20, 8, 5, 2]) {
                0 => 1,
                1 => 2,
                2 => 3,
                3 => rng.random_range(4..=6),
                _ => rng.random_range(10..=24),
            };
            let discount_percent = rng
                .random_bool(0.2)
                .then(|| *pick(rng, &[5u32, 10, 10, 15, 20, 25, 30]));
            LineItem {
                sku: sku.into(),
                name: name.into(),
                quantity,
                unit_price_cents: price,
                discount_percent,
            }
        })
        .collect()
}

fn item_count(rng: &mut (impl Rng + ?Sized)) -> usize {
    match weighted(rng, &[30, 25, 18, 10, 7, 7, 3]) {
        i @ 0..=4 => i + 1,
        5 => rng.random_range(6..=8),
        _ => rng.random_range(9..=12),
    }
}

fn build(rng: &mut (impl Rng + ?Sized), id: u64, utc_secs: i64, n_items: usize) -> Order {
    let (customer, offset) = customer(rng);
    let items = line_items(rng, n_items);
    let status = Status::ALL[weighted(rng, &[12, 15, 15, 45, 8, 5])];
    let note = rng.random_bool(0.3).then(|| pick(rng, NOTES).to_string());
    let n_tags = weighted(rng, &[40, 35, 18, 7]);
    let tags = ORDER_TAGS
        .sample(rng, n_tags)
        .map(|t| t.to_string())
        .collect();
    let total_cents = items.iter().map(LineItem::total_cents).sum();
    Order {
        id,
        customer,
        items,
        status,
        created_at: rfc3339(utc_secs, offset),
        note,
        tags,
        total_cents,
    }
}

/// One random order: 1–12 items (mostly 1–3), random id and 2026 timestamp.
pub fn order(rng: &mut (impl Rng + ?Sized)) -> Order {
    let id = rng.random_range(100_000_000..1_000_000_000u64);
    let t = START_2026 + rng.random_range(0..SPAN_SECS);
    let n = item_count(rng);
    build(rng, id, t, n)
}

/// One random order with exactly `n_items` distinct items (at most the
/// catalogue size, 36).
pub fn order_with_items(rng: &mut (impl Rng + ?Sized), n_items: usize) -> Order {
    assert!(
        (1..=CATALOGUE.len()).contains(&n_items),
        "n_items must be in 1..={}",
        CATALOGUE.len()
    );
    let id = rng.random_range(100_000_000..1_000_000_000u64);
    let t = START_2026 + rng.random_range(0..SPAN_SECS);
    build(rng, id, t, n_items)
}

/// `n` orders from `seed`, as a shop's order log: ids increasing (with
/// gaps), timestamps increasing. Same seed, same orders.
pub fn orders(seed: u64, n: usize) -> Vec<Order> {
    let mut rng = harness::rng(seed);
    let mut id = rng.random_range(300_000_000..400_000_000u64);
    let mut t = START_2026 + rng.random_range(0..86_400);
    (0..n)
        .map(|_| {
            id += rng.random_range(1..=3);
            t += rng.random_range(5..900);
            let n_items = item_count(&mut rng);
            build(&mut rng, id, t, n_items)
        })
        .collect()
}

/// The fixed example order used to show an encoding: a Vietnamese customer,
/// 4 items (one discounted), a note and tags. Always the same.
pub fn sample_order() -> Order {
    let mut seed = 2026;
    let mut o = loop {
        let o = order_with_items(&mut harness::rng(seed), 4);
        if o.customer.address.country == "VN" && !o.customer.name.is_ascii() {
            break o;
        }
        seed += 1;
    };
    o.status = Status::Paid;
    o.note = Some("Gọi điện trước khi giao 15 phút".into());
    if o.tags.is_empty() {
        o.tags = vec!["giao-nhanh".into(), "qua-tang".into()];
    }
    for (i, item) in o.items.iter_mut().enumerate() {
        item.discount_percent = (i == 1).then_some(10);
    }
    o.total_cents = o.items.iter().map(LineItem::total_cents).sum();
    o
}

/// A random catalogue product with a category tag and maybe a promo tag.
pub fn product(rng: &mut (impl Rng + ?Sized)) -> Product {
    let &(sku, name, price) = pick(rng, CATALOGUE);
    let mut tags = vec![category(sku).to_string()];
    if rng.random_bool(0.5) {
        tags.push(pick(rng, PRODUCT_TAGS).to_string());
    }
    Product {
        id: rng.random_range(1..100_000u64),
        name: name.into(),
        price_cents: price,
        in_stock: rng.random_bool(0.85),
        tags,
    }
}

/// `n` random products from `seed`.
pub fn products(seed: u64, n: usize) -> Vec<Product> {
    let mut rng = harness::rng(seed);
    (0..n).map(|_| product(&mut rng)).collect()
}

/// The fixed product of the protobuf byte-by-byte article: a two-byte
/// varint id, a name with multi-byte UTF-8, a price, a bool and two tags.
pub fn sample_product() -> Product {
    Product {
        id: 1042,
        name: "Cà phê Buôn Ma Thuột".into(),
        price_cents: 1290,
        in_stock: true,
        tags: vec!["cà phê".into(), "đặc sản".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(rfc3339(START_2026, 0), "2026-01-01T00:00:00Z");
        assert_eq!(rfc3339(START_2026 - 1, 420), "2026-01-01T06:59:59+07:00");
        assert_eq!(rfc3339(START_2026, -480), "2025-12-31T16:00:00-08:00");
        // 2026-03-01 is day 59 of 2026 (not a leap year)
        assert_eq!(rfc3339(START_2026 + 59 * 86_400, 0), "2026-03-01T00:00:00Z");
    }
}
