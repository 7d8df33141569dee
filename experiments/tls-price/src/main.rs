//! The price of TLS: full and resumed TLS 1.3 / 1.2 handshakes against a plain TCP
//! connect on loopback, in wall time, CPU time on both sides, bytes and round trips.

mod wire;

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use harness::Summary;
use rustls::client::Resumption;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::server::ServerSessionMemoryCache;
use rustls::{ClientConfig, ClientConnection, HandshakeKind, ServerConfig, ServerConnection};
use wire::{Counted, thread_cpu_ns};

/// The name in the certificate. Only used for SNI and certificate checks: never looked up.
const SERVER_NAME: &str = "measured.test";
/// Entries in the server's session cache.
const SERVER_CACHE: usize = 8192;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One connection as the client saw it.
struct Sample {
    /// connect() start to the last byte of the response.
    wall_ns: f64,
    /// connect() start to the end of the TLS handshake (to the end of connect() for TCP).
    handshake_ns: f64,
    /// CPU time of the client thread during connect + handshake.
    client_cpu_ns: f64,
    /// CPU time of the server thread during accept + handshake (it sends it back).
    server_cpu_ns: f64,
    /// Times the client had to wait for the peer: connect() plus every read after a write.
    round_trips: u32,
    /// Bytes written and read by the client on the socket (TLS records included).
    bytes: u64,
    kind: Option<HandshakeKind>,
    kx_group: Option<String>,
    suite: Option<String>,
}

/// A listener on 127.0.0.1 served by one thread; stopped and joined on drop.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(tls: Option<Arc<ServerConfig>>) -> io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            loop {
                let cpu0 = thread_cpu_ns();
                let Ok((stream, _)) = listener.accept() else {
                    continue;
                };
                if flag.load(Ordering::Relaxed) {
                    break;
                }
                if let Err(e) = serve(stream, tls.as_ref(), cpu0) {
                    eprintln!("server: {e}");
                }
            }
        });
        Ok(Server {
            addr,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.addr); // wake the accept()
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

// ANCHOR: server
/// Serve one connection: handshake, read a one-byte request, answer with the
/// CPU time this thread spent from accept() to the end of the handshake.
fn serve(stream: TcpStream, tls: Option<&Arc<ServerConfig>>, cpu0: u64) -> Result<(), BoxError> {
    stream.set_nodelay(true)?;
    let mut sock = stream;
    let mut req = [0u8; 1];
    match tls {
        None => {
            let cpu = thread_cpu_ns() - cpu0;
            sock.read_exact(&mut req)?;
            sock.write_all(&cpu.to_le_bytes())?;
        }
        Some(cfg) => {
            let mut conn = ServerConnection::new(cfg.clone())?;
            while conn.is_handshaking() {
                conn.complete_io(&mut sock)?;
            }
            let cpu = thread_cpu_ns() - cpu0;
            let mut s = rustls::Stream::new(&mut conn, &mut sock);
            s.read_exact(&mut req)?;
            s.write_all(&cpu.to_le_bytes())?;
            conn.send_close_notify();
            conn.complete_io(&mut sock)?;
        }
    }
    Ok(())
}
// ANCHOR_END: server

// ANCHOR: client
/// One request on a fresh connection: connect, (TLS handshake), send one byte,
/// read the server's 8-byte answer.
fn once(addr: SocketAddr, tls: Option<&Arc<ClientConfig>>) -> Result<Sample, BoxError> {
    let cpu0 = thread_cpu_ns();
    let t0 = Instant::now();
    let tcp = TcpStream::connect(addr)?;
    tcp.set_nodelay(true)?;
    let mut sock = Counted::new(tcp); // counts bytes and waits for the peer
    let mut answer = [0u8; 8];
    let (handshake, client_cpu, kind, kx_group, suite) = match tls {
        None => {
            let (hs, cpu) = (t0.elapsed(), thread_cpu_ns() - cpu0);
            sock.write_all(b"?")?;
            sock.read_exact(&mut answer)?;
            (hs, cpu, None, None, None)
        }
        Some(cfg) => {
            let name = ServerName::try_from(SERVER_NAME)?;
            let mut conn = ClientConnection::new(cfg.clone(), name)?;
            while conn.is_handshaking() {
                conn.complete_io(&mut sock)?;
            }
            let (hs, cpu) = (t0.elapsed(), thread_cpu_ns() - cpu0);
            let mut s = rustls::Stream::new(&mut conn, &mut sock);
            s.write_all(b"?")?;
            s.read_exact(&mut answer)?;
            let kx = conn
                .negotiated_key_exchange_group()
                .map(|g| format!("{:?}", g.name()));
            let suite = conn
                .negotiated_cipher_suite()
                .map(|s| format!("{:?}", s.suite()));
            (hs, cpu, conn.handshake_kind(), kx, suite)
        }
    };
    Ok(Sample {
        wall_ns: t0.elapsed().as_nanos() as f64,
        handshake_ns: handshake.as_nanos() as f64,
        client_cpu_ns: client_cpu as f64,
        server_cpu_ns: u64::from_le_bytes(answer) as f64,
        round_trips: 1 + sock.waits(), // 1 = the SYN / SYN-ACK inside connect()
        bytes: sock.byte_count(),
        kind,
        kx_group,
        suite,
    })
}
// ANCHOR_END: client

// ANCHOR: configs
fn configs() -> Result<(Arc<ServerConfig>, Vec<Variant>, usize), BoxError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    // Self-signed ECDSA P-256 certificate (rcgen's default key type).
    let ck = rcgen::generate_simple_self_signed(vec![SERVER_NAME.to_string()])?;
    let cert: CertificateDer<'static> = ck.cert.der().clone();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der()));
    let cert_len = cert.len();

    // The server speaks TLS 1.3 and 1.2. Its session cache (256 entries by default)
    // is made large enough that no session is evicted during the run.
    let mut server = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])?
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], key)?;
    server.session_storage = ServerSessionMemoryCache::new(SERVER_CACHE);

    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert)?;
    let client = |version: &'static rustls::SupportedProtocolVersion, resume: bool| {
        let mut cfg = ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&[version])?
            .with_root_certificates(roots.clone())
            .with_no_client_auth();
        if !resume {
            cfg.resumption = Resumption::disabled(); // force a full handshake every time
        }
        Ok::<_, BoxError>(Some(Arc::new(cfg)))
    };
    use rustls::version::{TLS12, TLS13};
    let variants = vec![
        Variant::new("tcp", "TCP", None),
        Variant::new("tls13_full", "TLS 1.3", client(&TLS13, false)?),
        Variant::new("tls13_resumed", "TLS 1.3 PSK", client(&TLS13, true)?),
        Variant::new("tls12_full", "TLS 1.2", client(&TLS12, false)?),
        Variant::new("tls12_resumed", "TLS 1.2 session ID", client(&TLS12, true)?),
    ];
    Ok((Arc::new(server), variants, cert_len))
}
// ANCHOR_END: configs

struct Variant {
    key: &'static str,
    name: &'static str,
    tls: Option<Arc<ClientConfig>>,
    samples: Vec<Sample>,
}

impl Variant {
    fn new(key: &'static str, name: &'static str, tls: Option<Arc<ClientConfig>>) -> Self {
        Variant {
            key,
            name,
            tls,
            samples: Vec::new(),
        }
    }
}

#[derive(serde::Serialize)]
struct Row {
    key: &'static str,
    name: &'static str,
    wall: Summary,
    handshake: Summary,
    client_cpu: Summary,
    server_cpu: Summary,
    cpu: Summary,
    /// Median (client + server CPU) / median wall time.
    cpu_share: f64,
    /// Flat medians for the stacked chart: client CPU, server CPU, the rest of the wall time.
    client_cpu_ns: f64,
    server_cpu_ns: f64,
    other_ns: f64,
    round_trips: u32,
    bytes: u64,
    resumed: usize,
    full: usize,
    kx_group: String,
    suite: String,
}

#[derive(serde::Serialize)]
struct Computed {
    key: &'static str,
    name: &'static str,
    round_trips: u32,
    local_ns: f64,
    rtt_1ms: f64,
    rtt_20ms: f64,
    rtt_150ms: f64,
}

const RTTS_MS: [f64; 3] = [1.0, 20.0, 150.0];

fn summarize(v: &Variant) -> Row {
    let s = &v.samples;
    let col = |f: fn(&Sample) -> f64| Summary::from_ns(s.iter().map(f).collect());
    let wall = col(|x| x.wall_ns);
    let cpu = col(|x| x.client_cpu_ns + x.server_cpu_ns);
    let mut rts: Vec<u32> = s.iter().map(|x| x.round_trips).collect();
    rts.sort_unstable();
    let mut bytes: Vec<u64> = s.iter().map(|x| x.bytes).collect();
    bytes.sort_unstable();
    let last = s.last().expect("samples");
    let client_cpu = col(|x| x.client_cpu_ns);
    let server_cpu = col(|x| x.server_cpu_ns);
    Row {
        key: v.key,
        name: v.name,
        cpu_share: cpu.median / wall.median,
        client_cpu_ns: client_cpu.median,
        server_cpu_ns: server_cpu.median,
        other_ns: (wall.median - client_cpu.median - server_cpu.median).max(0.0),
        handshake: col(|x| x.handshake_ns),
        client_cpu,
        server_cpu,
        wall,
        cpu,
        round_trips: rts[rts.len() / 2],
        bytes: bytes[bytes.len() / 2],
        resumed: s
            .iter()
            .filter(|x| x.kind == Some(HandshakeKind::Resumed))
            .count(),
        full: s
            .iter()
            .filter(|x| matches!(x.kind, Some(HandshakeKind::Full)))
            .count(),
        kx_group: last.kx_group.clone().unwrap_or_else(|| "-".into()),
        suite: last.suite.clone().unwrap_or_else(|| "-".into()),
    }
}

fn fmt_ns(ns: f64) -> String {
    match ns {
        n if n >= 1e9 => format!("{:.2} s", n / 1e9),
        n if n >= 1e6 => format!("{:.1} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.1} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

fn main() -> Result<(), BoxError> {
    let quick = harness::quick();
    let (n, warmup) = if quick { (200, 10) } else { (1000, 30) };
    let (server_cfg, mut variants, cert_len) = configs()?;
    let tcp_server = Server::start(None)?;
    let tls_server = Server::start(Some(server_cfg))?;

    // ANCHOR: measure
    // Warm up every variant (this also fills the resumption caches), then
    // measure them interleaved, one connection each per round.
    for round in 0..warmup + n {
        for v in variants.iter_mut() {
            let addr = if v.tls.is_some() {
                tls_server.addr
            } else {
                tcp_server.addr
            };
            let sample = once(addr, v.tls.as_ref())?;
            if round >= warmup {
                v.samples.push(sample);
            }
        }
    }
    // ANCHOR_END: measure
    drop(tls_server);
    drop(tcp_server);

    let rows: Vec<Row> = variants.iter().map(summarize).collect();
    let computed: Vec<Computed> = rows
        .iter()
        .map(|r| {
            let at = |ms: f64| r.wall.median + f64::from(r.round_trips) * ms * 1e6;
            Computed {
                key: r.key,
                name: r.name,
                round_trips: r.round_trips,
                local_ns: r.wall.median,
                rtt_1ms: at(RTTS_MS[0]),
                rtt_20ms: at(RTTS_MS[1]),
                rtt_150ms: at(RTTS_MS[2]),
            }
        })
        .collect();

    let by = |k: &str| rows.iter().find(|r| r.key == k).expect("variant");
    let (tcp, t13, t13r, t12, t12r) = (
        by("tcp"),
        by("tls13_full"),
        by("tls13_resumed"),
        by("tls12_full"),
        by("tls12_resumed"),
    );

    print_report(&rows, &computed, n, cert_len);

    let mut res = harness::Results::new();
    res.set("n", n);
    res.set("warmup", warmup);
    res.set("cert_bytes", cert_len);
    res.set("key_type", "ECDSA P-256");
    res.set("provider", "ring");
    res.set("server_cache", SERVER_CACHE);
    res.set("server_cache_default", 256); // rustls' ServerConfig default

    res.set("rtts", RTTS_MS.map(|ms| ms * 1e6));
    for r in &rows {
        res.set(r.key, r);
    }
    res.set("rows", &rows);
    res.set("computed", &computed);
    res.set("kx_group", &t13.kx_group);
    res.set("suite13", &t13.suite);
    res.set("suite12", &t12.suite);
    // Derived figures the article quotes.
    res.set("tls13_extra_ns", t13.wall.median - tcp.wall.median);
    res.set("tls13_over_tcp", t13.wall.median / tcp.wall.median);
    res.set("tls13_extra_cpu_ns", t13.cpu.median - tcp.cpu.median);
    res.set(
        "tls13_extra_cpu_share",
        (t13.cpu.median - tcp.cpu.median) / (t13.wall.median - tcp.wall.median),
    );
    res.set("tls13_resume_speedup", t13.wall.median / t13r.wall.median);
    res.set("tls12_resume_speedup", t12.wall.median / t12r.wall.median);
    res.set(
        "tls13_resume_cpu_saved",
        1.0 - t13r.cpu.median / t13.cpu.median,
    );
    // The client's CPU over the server's in a full TLS 1.3 handshake, both from this run: a
    // loaded machine slows both sides of a run alike, so the ratio is decided on its own spread
    // across runs rather than on two spreads that each include the load's.
    res.set(
        "tls13_client_over_server_cpu",
        t13.client_cpu.median / t13.server_cpu.median,
    );
    // What TLS 1.3 resumption saves on each side, as a share of a full handshake's CPU.
    res.set(
        "tls13_resume_client_saved",
        1.0 - t13r.client_cpu.median / t13.client_cpu.median,
    );
    res.set(
        "tls13_resume_server_saved",
        1.0 - t13r.server_cpu.median / t13.server_cpu.median,
    );
    res.set(
        "tls12_resume_cpu_saved",
        1.0 - t12r.cpu.median / t12.cpu.median,
    );
    res.set("tls13_resume_saved_ns", t13.wall.median - t13r.wall.median);
    res.set("tls13_bytes_saved", t13.bytes as f64 - t13r.bytes as f64);
    res.set(
        "tls12_extra_rtts",
        i64::from(t12.round_trips) - i64::from(t13.round_trips),
    );
    res.set(
        "tls12_resume_rtts_saved",
        i64::from(t12.round_trips) - i64::from(t12r.round_trips),
    );
    res.set(
        "tls13_resume_rtts_saved",
        i64::from(t13.round_trips) - i64::from(t13r.round_trips),
    );
    res.set(
        "tls13_extra_rtts",
        i64::from(t13.round_trips) - i64::from(tcp.round_trips),
    );
    res.set(
        "tls12_resume_saved_150ms_ns",
        (f64::from(t12.round_trips) - f64::from(t12r.round_trips)) * 150e6,
    );
    res.set(
        "tls13_full_150ms_over_tcp",
        computed[1].rtt_150ms / computed[0].rtt_150ms,
    );
    res.write();
    Ok(())
}

fn print_report(rows: &[Row], computed: &[Computed], n: usize, cert_len: usize) {
    println!(
        "{n} connections per variant, loopback, rustls + ring, self-signed ECDSA P-256 certificate ({cert_len} bytes)\n"
    );
    println!(
        "{:<20} {:>10} {:>10} {:>11} {:>11} {:>6} {:>7} {:>8}  group",
        "variant", "wall", "handshake", "client CPU", "server CPU", "RTTs", "bytes", "resumed",
    );
    for r in rows {
        println!(
            "{:<20} {:>10} {:>10} {:>11} {:>11} {:>6} {:>7} {:>8}  {}",
            r.name,
            fmt_ns(r.wall.median),
            fmt_ns(r.handshake.median),
            fmt_ns(r.client_cpu.median),
            fmt_ns(r.server_cpu.median),
            r.round_trips,
            r.bytes,
            format!("{}/{}", r.resumed, r.wall.n),
            r.kx_group
        );
    }
    println!("\ncomputed, not measured: local median + round trips x RTT");
    println!(
        "{:<20} {:>6} {:>12} {:>12} {:>12}",
        "variant", "RTTs", "RTT 1 ms", "RTT 20 ms", "RTT 150 ms"
    );
    for c in computed {
        println!(
            "{:<20} {:>6} {:>12} {:>12} {:>12}",
            c.name,
            c.round_trips,
            fmt_ns(c.rtt_1ms),
            fmt_ns(c.rtt_20ms),
            fmt_ns(c.rtt_150ms)
        );
    }
}
