//! DNS before the handshake: cold, cached and hosts-file name resolution measured
//! against a DNS server of our own on loopback, and the share of one HTTP request
//! that resolution takes.

mod measure;
mod report;
mod server;

use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hickory_resolver::config::{
    ConnectionConfig, LookupIpStrategy, NameServerConfig, ResolveHosts, ResolverConfig,
    ResolverOpts,
};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::{Hosts, Resolver};
use server::DnsServer;
use tokio::runtime::Runtime;

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type Dns = Resolver<TokioRuntimeProvider>;

/// Upstream delays of the simulated recursive resolver on a cache miss.
const DELAYS_MS: [u64; 3] = [0, 2, 20];
/// The resolver timeout used for the lost-packet case (hickory's default is 5 s).
const LOST_TIMEOUT: Duration = Duration::from_millis(200);
/// Lines of the large hosts file (an ad-blocking list is of this order or larger).
const BIG_HOSTS_LINES: usize = 10_000;

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

/// A hosts file of `lines` lines, an ad-blocking list's kind, with our name last.
fn big_hosts(lines: usize) -> String {
    let mut text = String::from("# a long hosts file written by the dns experiment\n");
    for i in 0..lines.saturating_sub(2) {
        text.push_str(&format!("0.0.0.0     ads{i}.tracker.example\n"));
    }
    text.push_str("127.0.0.1   db.measured.test\n");
    text
}

/// What a C library does on every getaddrinfo() (glibc's `files` module): open
/// the file, read it line by line up to the first line that names `name`.
fn hosts_reread(path: &Path, name: &str) -> io::Result<Option<IpAddr>> {
    let text = std::fs::read_to_string(path)?;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default(); // no comments
        let mut fields = line.split_whitespace();
        let Some(addr) = fields.next() else {
            continue; // an empty line
        };
        if fields.any(|n| n.eq_ignore_ascii_case(name))
            && let Ok(ip @ IpAddr::V4(_)) = addr.parse()
        {
            return Ok(Some(ip));
        }
    }
    Ok(None)
}
// ANCHOR_END: hosts

/// Connections opened so far: each gets its own source address.
static CONNECTIONS: AtomicUsize = AtomicUsize::new(0);

/// A connection to `ip:port` from a loopback address of its own, 127.2.x.y, so that no two
/// connections of a run share a four-tuple. The server closes each connection first and
/// keeps it in TIME_WAIT; on a machine crowded with TIME_WAIT sockets the kernel handed a
/// client port out again, and the SYN that met the server's TIME_WAIT waited for its
/// retransmission: about 4 s, in some runs for most requests.
fn connect_from_own_address(ip: IpAddr, port: u16) -> io::Result<TcpStream> {
    use socket2::{Domain, Protocol, Socket, Type};
    let i = CONNECTIONS.fetch_add(1, Ordering::Relaxed) % 62_500;
    let own = Ipv4Addr::new(127, 2, (i / 250) as u8, (i % 250 + 1) as u8);
    let s = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP))?;
    s.bind(&SocketAddr::from((own, 0)).into())?;
    s.connect(&SocketAddr::from((ip, port)).into())?;
    Ok(s.into())
}

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
    let mut s = connect_from_own_address(ip, port)?;
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

fn main() -> Result<(), BoxError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let dns = DnsServer::start()?;
    let dir = tempfile::tempdir()?; // removed on drop, even on error
    let files = measure::HostsFiles::write(dir.path())?;
    let ctx = measure::Ctx {
        rt: &rt,
        dns: &dns,
        normal_timeout: ResolverOpts::default().timeout,
    };
    let mut rows = Vec::new();
    let mut names = measure::Names::default();
    measure::warm_up(&ctx, &mut names)?;
    let sleep_late_ns = measure::cold(&ctx, &mut names, &mut rows)?;
    let delayed_cold = dns.delayed();
    measure::cached(&ctx, &files, &mut rows)?;
    measure::nx(&ctx, &mut names, &mut rows)?;
    let n_lost = measure::lost(&ctx, &mut names, &mut rows)?;
    let dropped = dns.dropped();
    let http = measure::http(&ctx, &files)?;

    let mut res = harness::Results::new();
    res.set("zone", server::ZONE);
    res.set("ttl_s", server::TTL);
    res.set("negative_ttl_s", server::NEGATIVE_TTL);
    for (i, d) in DELAYS_MS.iter().enumerate() {
        res.input_duration(&format!("delays_ns.{i}"), *d as f64 * 1e6);
        res.set(&format!("sleep_late_ns.{i}"), sleep_late_ns[i]);
    }
    res.input_duration("lost_timeout_ns", LOST_TIMEOUT.as_nanos() as f64);
    res.set("default_timeout_ns", ctx.normal_timeout.as_nanos() as f64);
    res.set("default_attempts", ResolverOpts::default().attempts);
    res.set("hosts_lines", HOSTS_FILE.lines().count());
    res.input("hosts_big_lines", BIG_HOSTS_LINES);
    res.set("delayed_cold", delayed_cold);
    res.set("dropped", dropped);
    res.input("n_lost", n_lost);
    report::record(&mut res, &rows, &http);
    report::computed(&mut res);
    report::derive(&mut res);
    report::tables(&mut res);
    res.write();

    drop(rt); // stops the resolvers' background tasks
    drop(dns); // stops and joins the server thread
    dir.close()?; // removes the temporary folder
    Ok(())
}
