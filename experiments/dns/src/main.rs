//! DNS before the handshake: cold, cached and hosts-file name resolution measured
//! against a DNS server of our own on loopback, and the share of one HTTP request
//! that resolution takes.

mod server;

use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use harness::Summary;
use harness::fmt::{Table, duration as fmt_ns};
use hickory_resolver::config::{
    ConnectionConfig, LookupIpStrategy, NameServerConfig, ResolveHosts, ResolverConfig,
    ResolverOpts,
};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::op::Query;
use hickory_resolver::proto::rr::{Name, RecordType};
use hickory_resolver::{Hosts, Resolver};
use server::DnsServer;
use tokio::runtime::Runtime;

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type Dns = Resolver<TokioRuntimeProvider>;

/// Upstream delays of the simulated recursive resolver on a cache miss.
const DELAYS_MS: [u64; 3] = [0, 2, 20];
/// The resolver timeout used for the lost-packet case (hickory's default is 5 s).
const LOST_TIMEOUT: Duration = Duration::from_millis(200);
/// Round-trip times used for the computed real-network figures.
const RESOLVER_RTTS_MS: [f64; 3] = [1.0, 10.0, 40.0];
const AUTH_RTT_MS: f64 = 30.0;
const SERVER_RTT_MS: f64 = 40.0;

// ANCHOR: resolver
/// A hickory resolver that knows exactly one name server: ours, over UDP.
/// No /etc/resolv.conf, no /etc/hosts, no system resolver.
fn resolver(dns: std::net::SocketAddr, timeout: Duration, hosts: Option<Arc<Hosts>>) -> Dns {
    let mut udp = ConnectionConfig::udp();
    udp.port = dns.port();
    let config =
        ResolverConfig::from_name_servers(vec![NameServerConfig::new(dns.ip(), true, vec![udp])]);
    let mut opts = ResolverOpts::default();
    opts.use_hosts_file = ResolveHosts::Never; // don't read /etc/hosts
    opts.ip_strategy = LookupIpStrategy::Ipv4Only; // one A query per lookup
    opts.timeout = timeout;
    let mut r = Resolver::builder_with_config(config, TokioRuntimeProvider::default())
        .with_options(opts)
        .build()
        .expect("resolver");
    if let Some(h) = hosts {
        r.set_hosts(h); // our own hosts file, consulted before any query
    }
    r
}
// ANCHOR_END: resolver

// ANCHOR: lookup
/// One timed lookup: the time `lookup_ip` takes to hand back an address.
fn lookup(rt: &Runtime, r: &Dns, name: &str) -> Result<(Duration, IpAddr), BoxError> {
    let t0 = Instant::now();
    let found = rt.block_on(r.lookup_ip(name));
    let t = t0.elapsed();
    let ip = found?.iter().next().ok_or("no address")?;
    Ok((t, ip))
}
// ANCHOR_END: lookup

/// A lookup that must fail with "no such name"; returns its time.
fn lookup_nx(rt: &Runtime, r: &Dns, name: &str) -> Result<Duration, BoxError> {
    let t0 = Instant::now();
    let found = rt.block_on(r.lookup_ip(name));
    let t = t0.elapsed();
    match found {
        Err(e) if e.is_nx_domain() => Ok(t),
        Err(e) => Err(format!("{name}: expected NXDOMAIN, got {e}").into()),
        Ok(_) => Err(format!("{name}: expected NXDOMAIN, got an address").into()),
    }
}

// ANCHOR: hosts
/// Our own hosts file, in a temporary folder (never /etc/hosts).
const HOSTS_FILE: &str = "\
# hosts file written by the dns experiment
127.0.0.1   localhost
::1         localhost ip6-localhost ip6-loopback
127.0.0.1   api.measured.test
127.0.0.1   db.measured.test cache.measured.test
10.0.0.7    build.internal
";

/// What a C library does on every getaddrinfo(): open the file, parse it, look.
fn hosts_reread(path: &Path, name: &Name) -> io::Result<Option<IpAddr>> {
    let mut hosts = Hosts::default();
    hosts.read_hosts_conf(std::fs::File::open(path)?)?;
    let query = Query::query(name.clone(), RecordType::A);
    let found = hosts.lookup_static_host(&query);
    Ok(found.and_then(|l| l.answers().iter().find_map(|r| r.data.ip_addr())))
}
// ANCHOR_END: hosts

/// The phases of one HTTP request on a new connection.
struct Phases {
    resolve: f64,
    connect: f64,
    first_byte: f64,
    total: f64,
}

// ANCHOR: request
/// GET http://api.measured.test:<port>/ on a new connection, timing each phase.
fn request(rt: &Runtime, r: &Dns, port: u16) -> Result<Phases, BoxError> {
    let host = "api.measured.test";
    let t0 = Instant::now();
    let ip = rt
        .block_on(r.lookup_ip(format!("{host}.")))?
        .iter()
        .next()
        .ok_or("no address")?;
    let t1 = Instant::now();
    let mut s = TcpStream::connect((ip, port))?;
    s.set_nodelay(true)?;
    let t2 = Instant::now();
    write!(
        s,
        "GET / HTTP/1.1\r\nhost: {host}:{port}\r\nconnection: close\r\n\r\n"
    )?;
    let mut buf = [0u8; 4096];
    let mut n = s.read(&mut buf)?; // blocks until the first byte of the response
    let t3 = Instant::now();
    while n > 0 {
        n = s.read(&mut buf)?; // the rest, until the server closes
    }
    let t4 = Instant::now();
    let ns = |a: Instant, b: Instant| (b - a).as_nanos() as f64;
    Ok(Phases {
        resolve: ns(t0, t1),
        connect: ns(t1, t2),
        first_byte: ns(t2, t3),
        total: ns(t0, t4),
    })
}
// ANCHOR_END: request

#[derive(serde::Serialize)]
struct LookupRow {
    key: String,
    name: String,
    name_vi: String,
    time: Summary,
    /// Queries our server received per lookup (lost ones included).
    queries_per_lookup: f64,
}

#[derive(serde::Serialize)]
struct HttpRow {
    key: String,
    name: String,
    name_vi: String,
    resolve: Summary,
    connect: Summary,
    first_byte: Summary,
    total: Summary,
    /// Median over requests of resolve / total.
    resolve_share: f64,
    /// Flat medians for the stacked chart.
    resolve_ns: f64,
    connect_ns: f64,
    first_byte_ns: f64,
}

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

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() -> Result<(), BoxError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let dns = DnsServer::start()?;
    let dir = tempfile::tempdir()?; // removed on drop, even on error
    let hosts_path = dir.path().join("hosts");
    std::fs::write(&hosts_path, HOSTS_FILE)?;
    let mut hosts = Hosts::default();
    hosts.read_hosts_conf(std::fs::File::open(&hosts_path)?)?;
    let hosts = Arc::new(hosts);
    let normal_timeout = ResolverOpts::default().timeout;
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut rows: Vec<LookupRow> = Vec::new();
    let mut fresh = 0u32; // counter for never-seen names
    let mut next_name = |parent: &str| {
        fresh += 1;
        format!("n{fresh}.{parent}")
    };

    // Warm-up: code paths, sockets, the allocator.
    for _ in 0..harness::pick(30, 10) {
        let r = resolver(dns.addr(), normal_timeout, None);
        lookup(&rt, &r, &next_name("www.measured.test."))?;
    }

    let mut sleep_late_ns = [0.0; DELAYS_MS.len()];
    // ANCHOR: cold
    // Cold: a fresh resolver (empty cache) and a name nobody has asked for,
    // so the server applies its upstream delay. One timer per lookup.
    for (i, &ms) in DELAYS_MS.iter().enumerate() {
        dns.set_upstream_delay(Duration::from_millis(ms));
        let n = [
            harness::pick(300, 60),
            harness::pick(150, 30),
            harness::pick(80, 12),
        ][i];
        let q0 = dns.queries();
        let mark = dns.sleep_mark();
        let mut samples = Vec::with_capacity(n);
        for _ in 0..n {
            let r = resolver(dns.addr(), normal_timeout, None);
            let (t, ip) = lookup(&rt, &r, &next_name("cold.measured.test."))?;
            assert_eq!(ip, loopback);
            samples.push(t.as_nanos() as f64);
        }
        sleep_late_ns[i] = dns.late_since(mark, ms); // how late the server's sleep ended
        rows.push(LookupRow {
            key: format!("cold_{ms}ms"),
            name: format!("cold, upstream +{ms} ms"),
            name_vi: format!("cold, upstream chậm +{ms} ms"),
            time: Summary::from_ns(samples),
            queries_per_lookup: (dns.queries() - q0) as f64 / n as f64,
        });
    }
    dns.set_upstream_delay(Duration::ZERO);
    // ANCHOR_END: cold
    let delayed_cold = dns.delayed();

    // ANCHOR: cached
    // Cached: the same resolver asks for the same name again and again; after
    // the first lookup the answer comes from its cache (TTL 300 s). Measured
    // interleaved with the two hosts-file variants, one lookup each per round.
    let r = resolver(dns.addr(), normal_timeout, None);
    let rh = resolver(dns.addr(), normal_timeout, Some(hosts.clone())); // our hosts file
    let db = Name::from_ascii("db.measured.test.")?;
    lookup(&rt, &r, "api.measured.test.")?;
    lookup(&rt, &rh, "db.measured.test.")?;
    let n_cached = harness::pick(3000, 500);
    let q0 = dns.queries();
    let mut samples = [vec![], vec![], vec![]];
    for _ in 0..n_cached {
        let (t, ip) = lookup(&rt, &r, "api.measured.test.")?;
        assert_eq!(ip, loopback);
        samples[0].push(t.as_nanos() as f64);
        let (t, ip) = lookup(&rt, &rh, "db.measured.test.")?;
        assert_eq!(ip, loopback);
        samples[1].push(t.as_nanos() as f64);
        let t0 = Instant::now();
        let ip = hosts_reread(&hosts_path, &db)?; // open + parse + look, every time
        samples[2].push(t0.elapsed().as_nanos() as f64);
        assert_eq!(ip, Some(loopback));
    }
    // ANCHOR_END: cached
    let queries = (dns.queries() - q0) as f64 / n_cached as f64;
    let [s_cached, s_hosts, s_reread] = samples;
    rows.push(LookupRow {
        key: "cached".into(),
        name: "cached in the resolver".into(),
        name_vi: "có trong cache của resolver".into(),
        time: Summary::from_ns(s_cached),
        queries_per_lookup: queries,
    });
    rows.push(LookupRow {
        key: "hosts".into(),
        name: "hosts file, in memory".into(),
        name_vi: "tệp hosts, đã nạp sẵn".into(),
        time: Summary::from_ns(s_hosts),
        queries_per_lookup: queries,
    });
    rows.push(LookupRow {
        key: "hosts_reread".into(),
        name: "hosts file, read per lookup".into(),
        name_vi: "tệp hosts, đọc lại mỗi lần".into(),
        time: Summary::from_ns(s_reread),
        queries_per_lookup: 0.0,
    });

    // Negative answers: NXDOMAIN, cold then cached (the SOA minimum allows it).
    let n_nx = harness::pick(200, 40);
    let q0 = dns.queries();
    let mut cold_nx = Vec::with_capacity(n_nx);
    let mut cached_nx = Vec::with_capacity(n_nx);
    for _ in 0..n_nx {
        let r = resolver(dns.addr(), normal_timeout, None);
        let name = next_name("nx.measured.test.");
        cold_nx.push(lookup_nx(&rt, &r, &name)?.as_nanos() as f64);
        cached_nx.push(lookup_nx(&rt, &r, &name)?.as_nanos() as f64);
    }
    let nx_queries = (dns.queries() - q0) as f64 / n_nx as f64;
    rows.push(LookupRow {
        key: "nx_cold".into(),
        name: "NXDOMAIN, cold".into(),
        name_vi: "NXDOMAIN, cold".into(),
        time: Summary::from_ns(cold_nx),
        queries_per_lookup: nx_queries, // both lookups' queries, per name
    });
    rows.push(LookupRow {
        key: "nx_cached".into(),
        name: "NXDOMAIN, cached".into(),
        name_vi: "NXDOMAIN, có trong cache".into(),
        time: Summary::from_ns(cached_nx),
        queries_per_lookup: 0.0,
    });

    // ANCHOR: lost
    // A lost packet: the server ignores the first query for names under
    // lost.measured.test.; the resolver waits for its timeout, then retries.
    let n_lost = harness::pick(5, 2);
    let q0 = dns.queries();
    let mut samples = Vec::with_capacity(n_lost);
    for _ in 0..n_lost {
        let r = resolver(dns.addr(), LOST_TIMEOUT, None);
        let (t, ip) = lookup(&rt, &r, &next_name("lost.measured.test."))?;
        assert_eq!(ip, loopback);
        samples.push(t.as_nanos() as f64);
    }
    // ANCHOR_END: lost
    rows.push(LookupRow {
        key: "lost".into(),
        name: "first packet lost".into(),
        name_vi: "mất gói đầu tiên".into(),
        time: Summary::from_ns(samples),
        queries_per_lookup: (dns.queries() - q0) as f64 / n_lost as f64,
    });
    let dropped = dns.dropped();

    // One HTTP request on a new connection, per resolution case, interleaved.
    let web = netlab::http::Server::start(netlab::http::Options::default())?;
    let port = web.port();
    let cached = resolver(dns.addr(), normal_timeout, None);
    let with_hosts = resolver(dns.addr(), normal_timeout, Some(hosts.clone()));
    request(&rt, &cached, port)?; // fills the cache
    request(&rt, &with_hosts, port)?;
    let n_http = harness::pick(100, 15);
    // (key, name, name_vi, upstream delay for cold cases)
    let cases: [(&str, &str, &str, Option<u64>); 5] = [
        ("cold_20ms", "cold +20 ms", "cold +20 ms", Some(20)),
        ("cold_2ms", "cold +2 ms", "cold +2 ms", Some(2)),
        ("cold_0ms", "cold +0 ms", "cold +0 ms", Some(0)),
        ("cached", "cached", "có cache", None),
        ("hosts", "hosts file", "tệp hosts", None),
    ];
    let mut phases: Vec<Vec<Phases>> = (0..cases.len()).map(|_| Vec::new()).collect();
    for round in 0..n_http + 2 {
        for (i, &(key, _, _, delay)) in cases.iter().enumerate() {
            let p = match delay {
                Some(ms) => {
                    // A fresh resolver, and a server that forgot the name.
                    dns.forget();
                    dns.set_upstream_delay(Duration::from_millis(ms));
                    let r = resolver(dns.addr(), normal_timeout, None);
                    request(&rt, &r, port)?
                }
                None if key == "cached" => request(&rt, &cached, port)?,
                None => request(&rt, &with_hosts, port)?,
            };
            if round >= 2 {
                phases[i].push(p); // the first two rounds are a warm-up
            }
        }
    }
    dns.set_upstream_delay(Duration::ZERO);
    let http_requests = web.requests();
    let http_accepted = web.accepted();
    drop(web);

    let http: Vec<HttpRow> = cases
        .iter()
        .zip(&phases)
        .map(|(&(key, name, name_vi, _), ps)| {
            let col = |f: fn(&Phases) -> f64| Summary::from_ns(ps.iter().map(f).collect());
            let (resolve, connect, first_byte) = (
                col(|p| p.resolve),
                col(|p| p.connect),
                col(|p| p.first_byte),
            );
            HttpRow {
                key: key.into(),
                name: name.into(),
                name_vi: name_vi.into(),
                resolve_share: median(ps.iter().map(|p| p.resolve / p.total).collect()),
                resolve_ns: resolve.median,
                connect_ns: connect.median,
                first_byte_ns: first_byte.median,
                total: col(|p| p.total),
                resolve,
                connect,
                first_byte,
            }
        })
        .collect();

    // Computed, not measured: a lookup on a real network, from counted round trips.
    let local = rows[0].time.median; // cold, +0 ms: our local work per lookup
    let cached_ns = rows[DELAYS_MS.len()].time.median;
    let ms = 1e6;
    let computed_case = |key, name, name_vi, res: u32, auth: u32, extra_ns: f64| -> ComputedRow {
        let at = |r_ms: f64| {
            if res == 0 {
                cached_ns
            } else {
                local + f64::from(res) * r_ms * ms + f64::from(auth) * AUTH_RTT_MS * ms + extra_ns
            }
        };
        ComputedRow {
            key,
            name,
            name_vi,
            resolver_rtts: res,
            auth_rtts: auth,
            rtt_1ms: at(RESOLVER_RTTS_MS[0]),
            rtt_10ms: at(RESOLVER_RTTS_MS[1]),
            rtt_40ms: at(RESOLVER_RTTS_MS[2]),
        }
    };
    let timeout_ns = normal_timeout.as_nanos() as f64;
    let computed = vec![
        computed_case(
            "process_cache",
            "in the process's cache",
            "có trong cache của tiến trình",
            0,
            0,
            0.0,
        ),
        computed_case(
            "resolver_hit",
            "recursive resolver has it",
            "recursive resolver đã có",
            1,
            0,
            0.0,
        ),
        computed_case(
            "resolver_miss",
            "resolver miss, TLD cached",
            "resolver chưa có, đã biết TLD",
            1,
            1,
            0.0,
        ),
        computed_case(
            "resolver_cold",
            "resolver miss, nothing cached",
            "resolver chưa có gì",
            1,
            3,
            0.0,
        ),
        computed_case(
            "lost_packet",
            "first packet lost (5 s timeout)",
            "mất gói đầu (timeout 5 s)",
            1,
            0,
            timeout_ns,
        ),
    ];
    // The share of a first HTTP request at resolver RTT 10 ms, server RTT 40 ms.
    let h = &http[2]; // cold +0: local costs of connect and first byte
    let web_part = h.connect_ns + h.first_byte_ns + 2.0 * SERVER_RTT_MS * ms;
    let share_at = |dns_ns: f64| dns_ns / (dns_ns + web_part);
    let real_share_hit = share_at(computed[1].rtt_10ms);
    let real_share_miss = share_at(computed[2].rtt_10ms);

    print_report(&rows, &http, &computed);

    let by = |k: &str| rows.iter().find(|r| r.key == k).expect("row");
    let hb = |k: &str| http.iter().find(|r| r.key == k).expect("http row");
    let mut res = harness::Results::new();
    res.set("zone", server::ZONE);
    res.set("ttl_s", server::TTL);
    res.set("negative_ttl_s", server::NEGATIVE_TTL);
    for (i, d) in DELAYS_MS.iter().enumerate() {
        res.input_duration(&format!("delays_ns.{i}"), *d as f64 * ms);
    }
    res.set("n_cold", [rows[0].time.n, rows[1].time.n, rows[2].time.n]);
    res.set("n_cached", n_cached);
    res.set("n_nx", n_nx);
    res.set("n_lost", n_lost);
    res.set("n_http", n_http);
    res.input_duration("lost_timeout_ns", LOST_TIMEOUT.as_nanos() as f64);
    res.set("default_timeout_ns", timeout_ns);
    res.set("default_attempts", ResolverOpts::default().attempts);
    res.set("hosts_lines", HOSTS_FILE.lines().count());
    res.set("delayed_cold", delayed_cold);
    res.set("dropped", dropped);
    res.set("http_requests", http_requests);
    res.set("http_accepted", http_accepted);
    for r in &rows {
        res.set(&format!("lookup.{}", r.key), r);
    }
    res.set("lookups", &rows);
    for h in &http {
        res.set(&format!("request.{}", h.key), h);
    }
    res.set("http", &http);
    res.set("computed", &computed);
    res.set("resolver_rtts_ns", RESOLVER_RTTS_MS.map(|m| m * ms));
    res.set("auth_rtt_ns", AUTH_RTT_MS * ms);
    res.set("server_rtt_ns", SERVER_RTT_MS * ms);
    res.set("real_share_hit", real_share_hit);
    res.set("real_share_miss", real_share_miss);
    // Derived figures the article quotes.
    let cold0 = by("cold_0ms").time.median;
    res.set("cold_over_cached", cold0 / by("cached").time.median);
    res.set(
        "cached_over_hosts",
        by("cached").time.median / by("hosts").time.median,
    );
    res.set(
        "reread_over_hosts",
        by("hosts_reread").time.median / by("hosts").time.median,
    );
    res.set("cold20_extra_ns", by("cold_20ms").time.median - cold0);
    res.set("cold2_extra_ns", by("cold_2ms").time.median - cold0);
    // What a delayed lookup takes beyond the delay itself.
    res.difference(
        "cold2_beyond_delay_ns",
        "lookup.cold_2ms.time",
        "delays_ns.1",
    );
    res.difference(
        "cold20_beyond_delay_ns",
        "lookup.cold_20ms.time",
        "delays_ns.2",
    );
    // How much later than asked the server's sleep ended, and what the lookup
    // took beyond the time the server really held the answer.
    res.set("sleep_late_ns", sleep_late_ns);
    res.set(
        "cold2_after_sleep_ns",
        by("cold_2ms").time.median - DELAYS_MS[1] as f64 * ms - sleep_late_ns[1],
    );
    res.ratio(
        "beyond20_over_beyond2",
        "cold20_beyond_delay_ns",
        "cold2_beyond_delay_ns",
    );
    res.share("cold20_delay_share", "delays_ns.2", "lookup.cold_20ms.time");
    res.set(
        "nx_cold_over_cached",
        by("nx_cold").time.median / by("nx_cached").time.median,
    );
    res.set(
        "lost_over_timeout",
        by("lost").time.median / LOST_TIMEOUT.as_nanos() as f64,
    );
    res.set("http_share_cold20", hb("cold_20ms").resolve_share);
    res.set("http_share_cold0", hb("cold_0ms").resolve_share);
    res.set("http_share_cached", hb("cached").resolve_share);
    res.set("http_share_hosts", hb("hosts").resolve_share);
    res.set(
        "http_cold0_resolve_over_connect",
        hb("cold_0ms").resolve.median / hb("cold_0ms").connect.median,
    );
    res.set(
        "http_cold0_over_loop",
        hb("cold_0ms").resolve.median / cold0,
    );
    res.set(
        "http_cached_over_loop",
        hb("cached").resolve.median / by("cached").time.median,
    );
    res.write();

    drop(rt); // stops the resolvers' background tasks
    drop(dns); // stops and joins the server thread
    dir.close()?; // removes the temporary folder
    Ok(())
}

fn print_report(rows: &[LookupRow], http: &[HttpRow], computed: &[ComputedRow]) {
    println!("DNS server: 127.0.0.1 (UDP, random free port), zone measured.test.");
    println!("Resolver: hickory-resolver, that server only, A queries only.\n");
    println!("One lookup (median, interquartile range, queries the server saw per lookup):");
    let mut t = Table::new(["case", "n", "median", "q1", "q3", "queries"]);
    for r in rows {
        t.row([
            r.name.clone(),
            r.time.n.to_string(),
            fmt_ns(r.time.median),
            fmt_ns(r.time.q1),
            fmt_ns(r.time.q3),
            format!("{:.2}", r.queries_per_lookup),
        ]);
    }
    println!("{t}");
    println!("One HTTP/1.1 GET on a new connection to api.measured.test (medians):");
    let mut t = Table::new([
        "resolution",
        "n",
        "resolve",
        "connect",
        "first byte",
        "total",
        "DNS share",
    ]);
    for h in http {
        t.row([
            h.name.clone(),
            h.total.n.to_string(),
            fmt_ns(h.resolve.median),
            fmt_ns(h.connect.median),
            fmt_ns(h.first_byte.median),
            fmt_ns(h.total.median),
            format!("{:.0}%", h.resolve_share * 100.0),
        ]);
    }
    println!("{t}");
    println!(
        "Computed, not measured: one lookup on a real network (authoritative RTT {}):",
        fmt_ns(AUTH_RTT_MS * 1e6)
    );
    let mut t = Table::new([
        "case",
        "to resolver",
        "to authoritative",
        "resolver RTT 1 ms",
        "10 ms",
        "40 ms",
    ]);
    for c in computed {
        t.row([
            c.name.to_string(),
            c.resolver_rtts.to_string(),
            c.auth_rtts.to_string(),
            fmt_ns(c.rtt_1ms),
            fmt_ns(c.rtt_10ms),
            fmt_ns(c.rtt_40ms),
        ]);
    }
    print!("{t}");
}
