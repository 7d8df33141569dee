//! The measured sections of the DNS experiment: cold, cached and hosts-file lookups,
//! negative answers, a lost packet, and HTTP requests split into their phases.

use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use harness::Summary;
use hickory_resolver::Hosts;
use tokio::runtime::Runtime;

use crate::server::DnsServer;
use crate::{
    BIG_HOSTS_LINES, BoxError, DELAYS_MS, HOSTS_FILE, LOST_TIMEOUT, Phases, big_hosts,
    hosts_reread, lookup, lookup_nx, request, resolver,
};

const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// What every measured section needs.
pub struct Ctx<'a> {
    pub rt: &'a Runtime,
    pub dns: &'a DnsServer,
    /// hickory's default timeout.
    pub normal_timeout: Duration,
}

/// Names nobody has asked for yet.
#[derive(Default)]
pub struct Names {
    fresh: u32,
}

impl Names {
    pub fn next(&mut self, parent: &str) -> String {
        self.fresh += 1;
        format!("n{}.{parent}", self.fresh)
    }
}

/// The experiment's two hosts files, in a temporary folder, and the small one parsed.
pub struct HostsFiles {
    small: PathBuf,
    big: PathBuf,
    table: Arc<Hosts>,
}

impl HostsFiles {
    pub fn write(dir: &Path) -> Result<HostsFiles, BoxError> {
        let small = dir.join("hosts");
        std::fs::write(&small, HOSTS_FILE)?;
        let big = dir.join("hosts.big");
        std::fs::write(&big, big_hosts(BIG_HOSTS_LINES))?;
        let mut table = Hosts::default();
        table.read_hosts_conf(std::fs::File::open(&small)?)?;
        Ok(HostsFiles {
            small,
            big,
            table: Arc::new(table),
        })
    }
}

/// One case of a lookup, summarized.
#[derive(serde::Serialize)]
pub struct LookupRow {
    pub key: String,
    name: String,
    name_vi: String,
    pub time: Summary,
    /// Queries our server received per lookup (lost ones included).
    queries_per_lookup: f64,
}

impl LookupRow {
    fn new(key: &str, names: (&str, &str), samples: Vec<f64>, queries: f64) -> LookupRow {
        LookupRow {
            key: key.into(),
            name: names.0.into(),
            name_vi: names.1.into(),
            time: Summary::from_ns(samples),
            queries_per_lookup: queries,
        }
    }
}

/// Code paths, sockets and the allocator warmed up.
pub fn warm_up(ctx: &Ctx, names: &mut Names) -> Result<(), BoxError> {
    for _ in 0..harness::pick(30, 10) {
        let r = resolver(ctx.dns.addr(), ctx.normal_timeout, None);
        lookup(ctx.rt, &r, &names.next("www.measured.test."))?;
    }
    Ok(())
}

/// Cold lookups at each upstream delay; returns how late the server's sleeps ended (median,
/// in ns).
pub fn cold(ctx: &Ctx, names: &mut Names, rows: &mut Vec<LookupRow>) -> Result<[f64; 3], BoxError> {
    let (rt, dns) = (ctx.rt, ctx.dns);
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
            let r = resolver(dns.addr(), ctx.normal_timeout, None);
            let (t, ip) = lookup(rt, &r, &names.next("cold.measured.test."))?;
            assert_eq!(ip, LOOPBACK);
            samples.push(t.as_nanos() as f64);
        }
        sleep_late_ns[i] = dns.late_since(mark); // how late the server's sleep ended
        let queries = (dns.queries() - q0) as f64 / n as f64;
        let (en, vi) = (
            format!("cold, upstream +{ms} ms"),
            format!("cold, upstream chậm +{ms} ms"),
        );
        rows.push(LookupRow::new(
            &format!("cold_{ms}ms"),
            (&en, &vi),
            samples,
            queries,
        ));
    }
    dns.set_upstream_delay(Duration::ZERO);
    // ANCHOR_END: cold
    Ok(sleep_late_ns)
}

/// Cached lookups, interleaved with the two ways of using the small hosts file; then the
/// large hosts file, read per lookup.
pub fn cached(ctx: &Ctx, files: &HostsFiles, rows: &mut Vec<LookupRow>) -> Result<(), BoxError> {
    let (rt, dns) = (ctx.rt, ctx.dns);
    let hosts_path = &files.small;
    // ANCHOR: cached
    // Cached: the same resolver asks for the same name again and again; after
    // the first lookup the answer comes from its cache (TTL 300 s). Measured
    // interleaved with the two hosts-file variants, one lookup each per round.
    let r = resolver(dns.addr(), ctx.normal_timeout, None);
    let rh = resolver(dns.addr(), ctx.normal_timeout, Some(files.table.clone())); // our hosts file
    let db = "db.measured.test";
    lookup(rt, &r, "api.measured.test.")?;
    lookup(rt, &rh, "db.measured.test.")?;
    let n_cached = harness::pick(3000, 500);
    let q0 = dns.queries();
    let mut samples = [vec![], vec![], vec![]];
    for _ in 0..n_cached {
        let (t, ip) = lookup(rt, &r, "api.measured.test.")?;
        assert_eq!(ip, LOOPBACK);
        samples[0].push(t.as_nanos() as f64);
        let (t, ip) = lookup(rt, &rh, "db.measured.test.")?;
        assert_eq!(ip, LOOPBACK);
        samples[1].push(t.as_nanos() as f64);
        let t0 = Instant::now();
        let ip = hosts_reread(hosts_path, db)?; // open + parse + look, every time
        samples[2].push(t0.elapsed().as_nanos() as f64);
        assert_eq!(ip, Some(LOOPBACK));
    }
    // ANCHOR_END: cached
    let queries = (dns.queries() - q0) as f64 / n_cached as f64;
    let [s_cached, s_hosts, s_reread] = samples;
    let cached_names = ("cached in the resolver", "có trong cache của resolver");
    rows.push(LookupRow::new("cached", cached_names, s_cached, queries));
    let hosts_names = ("hosts file, in memory", "tệp hosts, đã nạp sẵn");
    rows.push(LookupRow::new("hosts", hosts_names, s_hosts, queries));
    let reread_names = ("hosts file, read per lookup", "tệp hosts, đọc lại mỗi lần");
    rows.push(LookupRow::new("hosts_reread", reread_names, s_reread, 0.0));

    // The large file: fewer rounds, each one a whole read of it.
    let mut big = Vec::new();
    for _ in 0..harness::pick(300, 40) {
        let t0 = Instant::now();
        let ip = hosts_reread(&files.big, db)?;
        big.push(t0.elapsed().as_nanos() as f64);
        assert_eq!(ip, Some(LOOPBACK));
    }
    let big_names = (
        "large hosts file, read per lookup",
        "tệp hosts lớn, đọc lại mỗi lần",
    );
    rows.push(LookupRow::new("hosts_reread_big", big_names, big, 0.0));
    Ok(())
}

/// Negative answers: NXDOMAIN, cold then cached (the SOA minimum allows it).
pub fn nx(ctx: &Ctx, names: &mut Names, rows: &mut Vec<LookupRow>) -> Result<(), BoxError> {
    let n_nx = harness::pick(200, 40);
    let q0 = ctx.dns.queries();
    let (mut cold_nx, mut cached_nx) = (Vec::with_capacity(n_nx), Vec::with_capacity(n_nx));
    for _ in 0..n_nx {
        let r = resolver(ctx.dns.addr(), ctx.normal_timeout, None);
        let name = names.next("nx.measured.test.");
        cold_nx.push(lookup_nx(ctx.rt, &r, &name)?.as_nanos() as f64);
        cached_nx.push(lookup_nx(ctx.rt, &r, &name)?.as_nanos() as f64);
    }
    // Both lookups' queries, per name.
    let nx_queries = (ctx.dns.queries() - q0) as f64 / n_nx as f64;
    let cold_names = ("NXDOMAIN, cold", "NXDOMAIN, cold");
    rows.push(LookupRow::new("nx_cold", cold_names, cold_nx, nx_queries));
    let cached_names = ("NXDOMAIN, cached", "NXDOMAIN, có trong cache");
    rows.push(LookupRow::new("nx_cached", cached_names, cached_nx, 0.0));
    Ok(())
}

/// Lookups whose first query packet is lost; returns how many.
pub fn lost(ctx: &Ctx, names: &mut Names, rows: &mut Vec<LookupRow>) -> Result<usize, BoxError> {
    let (rt, dns) = (ctx.rt, ctx.dns);
    // ANCHOR: lost
    // A lost packet: the server ignores the first query for names under
    // lost.measured.test.; the resolver waits for its timeout, then retries.
    let n_lost = harness::pick(5, 2);
    let q0 = dns.queries();
    let mut samples = Vec::with_capacity(n_lost);
    for _ in 0..n_lost {
        let r = resolver(dns.addr(), LOST_TIMEOUT, None);
        let (t, ip) = lookup(rt, &r, &names.next("lost.measured.test."))?;
        assert_eq!(ip, LOOPBACK);
        samples.push(t.as_nanos() as f64);
    }
    // ANCHOR_END: lost
    let queries = (dns.queries() - q0) as f64 / n_lost as f64;
    let lost_names = ("first packet lost", "mất gói đầu tiên");
    rows.push(LookupRow::new("lost", lost_names, samples, queries));
    Ok(n_lost)
}

/// One HTTP request's phases, summarized for a resolution case.
#[derive(serde::Serialize)]
pub struct HttpRow {
    pub key: &'static str,
    name: &'static str,
    name_vi: &'static str,
    resolve: Summary,
    connect: Summary,
    first_byte: Summary,
    total: Summary,
}

/// The HTTP part: its rows, and the server's counts.
pub struct Http {
    pub rows: Vec<HttpRow>,
    /// Requests measured per case.
    pub n: usize,
    /// Requests the experiment sends in all: the measured ones, the warm-up rounds, and
    /// the requests that fill the caches first.
    pub planned: usize,
    pub requests: u64,
    pub accepted: u64,
}

/// Untimed rounds of the five cases before the measured ones.
pub const HTTP_WARMUP_ROUNDS: usize = 2;

/// One HTTP request on a new connection per resolution case, interleaved.
pub fn http(ctx: &Ctx, files: &HostsFiles) -> Result<Http, BoxError> {
    let (rt, dns) = (ctx.rt, ctx.dns);
    let web = netlab::http::Server::start(netlab::http::Options::default())?;
    let port = web.port();
    let cached = resolver(dns.addr(), ctx.normal_timeout, None);
    let with_hosts = resolver(dns.addr(), ctx.normal_timeout, Some(files.table.clone()));
    request(rt, &cached, port)?; // fills the cache
    request(rt, &with_hosts, port)?;
    let fill = 2;
    let n = harness::pick(100, 15);
    // (key, name, name_vi, upstream delay for cold cases)
    let cases: [(&str, &str, &str, Option<u64>); 5] = [
        ("cold_20ms", "cold +20 ms", "cold +20 ms", Some(20)),
        ("cold_2ms", "cold +2 ms", "cold +2 ms", Some(2)),
        ("cold_0ms", "cold +0 ms", "cold +0 ms", Some(0)),
        ("cached", "cached", "có cache", None),
        ("hosts", "hosts file", "tệp hosts", None),
    ];
    let mut phases: Vec<Vec<Phases>> = (0..cases.len()).map(|_| Vec::new()).collect();
    for round in 0..n + HTTP_WARMUP_ROUNDS {
        for (i, &(key, _, _, delay)) in cases.iter().enumerate() {
            let p = match delay {
                Some(ms) => {
                    // A fresh resolver, and a server that forgot the name.
                    dns.forget();
                    dns.set_upstream_delay(Duration::from_millis(ms));
                    let r = resolver(dns.addr(), ctx.normal_timeout, None);
                    request(rt, &r, port)?
                }
                None if key == "cached" => request(rt, &cached, port)?,
                None => request(rt, &with_hosts, port)?,
            };
            if round >= HTTP_WARMUP_ROUNDS {
                phases[i].push(p);
            }
        }
    }
    dns.set_upstream_delay(Duration::ZERO);
    let (requests, accepted) = (web.requests(), web.accepted());
    drop(web);
    let rows = cases
        .iter()
        .zip(&phases)
        .map(|(&(key, name, name_vi, _), ps)| {
            let col = |f: fn(&Phases) -> f64| Summary::from_ns(ps.iter().map(f).collect());
            HttpRow {
                key,
                name,
                name_vi,
                resolve: col(|p| p.resolve),
                connect: col(|p| p.connect),
                first_byte: col(|p| p.first_byte),
                total: col(|p| p.total),
            }
        })
        .collect();
    let planned = fill + (n + HTTP_WARMUP_ROUNDS) * cases.len();
    Ok(Http {
        rows,
        n,
        planned,
        requests,
        accepted,
    })
}
