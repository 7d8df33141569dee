//! What the DNS experiment reports: the lookups and the requests under their keys, the
//! real-network figures computed from them, the derived values the article quotes, and its
//! output tables.

use harness::Results;
use harness::declare::{Label, Table, text, value, value_as};

use crate::measure::{HTTP_WARMUP_ROUNDS, Http, LookupRow};

/// Round-trip times of the computed real-network figures, in ms: to the recursive
/// resolver, to authoritative servers, to the web server.
const RESOLVER_RTTS_MS: [f64; 3] = [1.0, 10.0, 40.0];
const AUTH_RTT_MS: f64 = 30.0;
const SERVER_RTT_MS: f64 = 40.0;
const MS: f64 = 1e6;

/// The lookup cases, in the table's order: (key, English, Vietnamese).
const LOOKUPS: [(&str, &str, &str); 10] = [
    (
        "cold_0ms",
        "cold, upstream +0 ms",
        "cold, upstream chậm +0 ms",
    ),
    (
        "cold_2ms",
        "cold, upstream +2 ms",
        "cold, upstream chậm +2 ms",
    ),
    (
        "cold_20ms",
        "cold, upstream +20 ms",
        "cold, upstream chậm +20 ms",
    ),
    (
        "cached",
        "cached in the resolver",
        "có trong cache của resolver",
    ),
    ("hosts", "hosts file, in memory", "tệp hosts, đã nạp sẵn"),
    (
        "hosts_reread",
        "hosts file, read per lookup",
        "tệp hosts, đọc lại mỗi lần",
    ),
    (
        "hosts_reread_big",
        "large hosts file, read per lookup",
        "tệp hosts lớn, đọc lại mỗi lần",
    ),
    ("nx_cold", "NXDOMAIN, cold", "NXDOMAIN, cold"),
    ("nx_cached", "NXDOMAIN, cached", "NXDOMAIN, có trong cache"),
    ("lost", "first packet lost", "mất gói đầu tiên"),
];

/// The request cases, in the table's order: (key, English, Vietnamese).
const REQUESTS: [(&str, &str, &str); 5] = [
    ("cold_20ms", "cold +20 ms", "cold +20 ms"),
    ("cold_2ms", "cold +2 ms", "cold +2 ms"),
    ("cold_0ms", "cold +0 ms", "cold +0 ms"),
    ("cached", "cached", "có cache"),
    ("hosts", "hosts file", "tệp hosts"),
];

/// The lookups and requests under their keys, the requests as an array (for the chart),
/// and the request counts.
pub fn record(res: &mut Results, rows: &[LookupRow], http: &Http) {
    for r in rows {
        res.set(&format!("lookup.{}", r.key), r);
    }
    for h in &http.rows {
        res.set(&format!("request.{}", h.key), h);
    }
    res.set("http", &http.rows);
    res.input("n_http", http.n);
    res.input("http_warmup_rounds", HTTP_WARMUP_ROUNDS);
    res.input("http_planned", http.planned);
    res.set("http_requests", http.requests);
    res.set("http_accepted", http.accepted);
}

/// One lookup on a real network, by RTT to the recursive resolver.
#[derive(serde::Serialize)]
struct ComputedRow {
    key: &'static str,
    name: &'static str,
    name_vi: &'static str,
    /// Round trips to the recursive resolver and to authoritative servers.
    resolver_rtts: u32,
    auth_rtts: u32,
    /// Lookup time at each resolver RTT (ns): measured local part + round trips.
    rtt_1ms: f64,
    rtt_10ms: f64,
    rtt_40ms: f64,
}

/// Computed, not measured: a lookup on a real network, from counted round trips and the
/// local work measured here; and DNS's share of a first request there.
pub fn computed(res: &mut Results) {
    let median = |path: &str| -> f64 {
        let v = res
            .get(path)
            .unwrap_or_else(|| panic!("no value at `{path}`"));
        v["median"].as_f64().expect("a timing")
    };
    let local = median("lookup.cold_0ms.time"); // cold, +0 ms: our local work per lookup
    let cached = median("lookup.cached.time");
    let timeout_ns = res
        .get("default_timeout_ns")
        .and_then(|v| v.as_f64())
        .unwrap_or(5e9);
    // (key, English, Vietnamese, round trips to the resolver, to authoritative servers, extra)
    let cases: [(&str, &str, &str, u32, u32, f64); 5] = [
        (
            "process_cache",
            "in the process's cache",
            "có trong cache của tiến trình",
            0,
            0,
            0.0,
        ),
        (
            "resolver_hit",
            "recursive resolver has it",
            "recursive resolver đã có",
            1,
            0,
            0.0,
        ),
        (
            "resolver_miss",
            "resolver miss, TLD cached",
            "resolver chưa có, đã biết TLD",
            1,
            1,
            0.0,
        ),
        (
            "resolver_cold",
            "resolver miss, nothing cached",
            "resolver chưa có gì",
            1,
            3,
            0.0,
        ),
        (
            "lost_packet",
            "first packet lost (5 s timeout)",
            "mất gói đầu (timeout 5 s)",
            1,
            0,
            timeout_ns,
        ),
    ];
    let at = |res_rtts: u32, auth: u32, extra: f64, rtt_ms: f64| {
        if res_rtts == 0 {
            cached
        } else {
            local + f64::from(res_rtts) * rtt_ms * MS + f64::from(auth) * AUTH_RTT_MS * MS + extra
        }
    };
    let rows: Vec<ComputedRow> = cases
        .iter()
        .map(|&(key, name, name_vi, r, a, extra)| ComputedRow {
            key,
            name,
            name_vi,
            resolver_rtts: r,
            auth_rtts: a,
            rtt_1ms: at(r, a, extra, RESOLVER_RTTS_MS[0]),
            rtt_10ms: at(r, a, extra, RESOLVER_RTTS_MS[1]),
            rtt_40ms: at(r, a, extra, RESOLVER_RTTS_MS[2]),
        })
        .collect();
    // A first request at resolver RTT 10 ms, web server RTT 40 ms (one round trip for the
    // TCP handshake, one for the request): DNS's part and the whole.
    let web = median("request.cold_0ms.connect")
        + median("request.cold_0ms.first_byte")
        + 2.0 * SERVER_RTT_MS * MS;
    for (name, row) in [("hit", &rows[1]), ("miss", &rows[2])] {
        let dns = row.rtt_10ms;
        res.set(&format!("real.{name}.dns_ns"), dns);
        res.set(&format!("real.{name}.total_ns"), dns + web);
    }
    res.set("computed", &rows);
    for (i, ms) in RESOLVER_RTTS_MS.iter().enumerate() {
        res.input_duration(&format!("resolver_rtts_ns.{i}"), ms * MS);
    }
    res.input_duration("auth_rtt_ns", AUTH_RTT_MS * MS);
    res.input_duration("server_rtt_ns", SERVER_RTT_MS * MS);
}

/// The figures the article computes from two others, declared so that the published ones
/// are computed from the combined runs.
pub fn derive(res: &mut Results) {
    let l = |k: &str| format!("lookup.{k}.time");
    for (key, a, b) in [
        ("cold_over_cached", "cold_0ms", "cached"),
        ("cached_over_hosts", "cached", "hosts"),
        ("reread_over_hosts", "hosts_reread", "hosts"),
        ("reread_big_over_small", "hosts_reread_big", "hosts_reread"),
        ("nx_cold_over_cached", "nx_cold", "nx_cached"),
    ] {
        res.ratio(key, &l(a), &l(b));
    }
    // What a delayed lookup takes beyond the delay itself.
    res.difference("cold2_beyond_delay_ns", &l("cold_2ms"), "delays_ns.1");
    res.difference("cold20_beyond_delay_ns", &l("cold_20ms"), "delays_ns.2");
    res.share("cold20_delay_share", "delays_ns.2", &l("cold_20ms"));
    res.difference("lost_beyond_timeout_ns", &l("lost"), "lost_timeout_ns");
    for (k, _, _) in REQUESTS {
        let p = |f: &str| format!("request.{k}.{f}");
        res.share(&p("resolve_share"), &p("resolve"), &p("total"));
    }
    res.ratio(
        "http_cold0_resolve_over_connect",
        "request.cold_0ms.resolve",
        "request.cold_0ms.connect",
    );
    res.ratio(
        "http_cold0_over_loop",
        "request.cold_0ms.resolve",
        &l("cold_0ms"),
    );
    res.ratio(
        "http_cached_over_loop",
        "request.cached.resolve",
        &l("cached"),
    );
    for name in ["hit", "miss"] {
        let p = |f: &str| format!("real.{name}.{f}");
        res.share(&format!("real_share_{name}"), &p("dns_ns"), &p("total_ns"));
    }
}

/// The experiment's output: one lookup per case, then one request per case.
pub fn tables(res: &mut Results) {
    let mut t = Table::new([
        Label::new("Trường hợp", "Case"),
        Label::new("Trung vị", "Median"),
        Label::new("Tứ phân vị dưới", "Lower quartile"),
        Label::new("Tứ phân vị trên", "Upper quartile"),
        Label::new("Số lần đo", "Samples"),
        Label::new("Truy vấn mỗi lần", "Queries per lookup"),
    ])
    .titled(Label::new(
        "Một lần phân giải tên (trung vị, tứ phân vị, và số truy vấn máy chủ nhận được mỗi lần tra)",
        "One name lookup (median, quartiles, and queries the server received per lookup)",
    ));
    for (k, en, vi) in LOOKUPS {
        let p = |f: &str| format!("lookup.{k}.{f}");
        t.row([
            text(vi, en),
            value(p("time")),
            value_as(p("time.q1"), "duration"),
            value_as(p("time.q3"), "duration"),
            value_as(p("time.n"), "int"),
            value_as(p("queries_per_lookup"), "int"),
        ]);
    }
    res.table(t);
    let mut t = Table::new([
        Label::new("Cách phân giải", "Resolution"),
        Label::new("Phân giải", "Resolve"),
        Label::new("Kết nối", "Connect"),
        Label::new("Đến byte đầu tiên", "To first byte"),
        Label::new("Tổng", "Total"),
        Label::new("Phần của DNS", "DNS share"),
    ])
    .titled(Label::new(
        "Một request HTTP/1.1 trên kết nối mới tới api.measured.test (trung vị mỗi cột)",
        "One HTTP/1.1 request on a new connection to api.measured.test (median of each column)",
    ));
    for (k, en, vi) in REQUESTS {
        let p = |f: &str| format!("request.{k}.{f}");
        t.row([
            text(vi, en),
            value(p("resolve")),
            value(p("connect")),
            value(p("first_byte")),
            value(p("total")),
            value(p("resolve_share")),
        ]);
    }
    res.table(t);
}
