//! The price of TLS: full and resumed TLS 1.3 / 1.2 handshakes against a plain TCP
//! connect on loopback, in wall time, CPU time on both sides, bytes, round trips and the
//! sessions the server stores.

mod report;
mod sessions;
mod wire;

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use rustls::client::Resumption;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{ClientConfig, ClientConnection, HandshakeKind, ServerConfig, ServerConnection};
use sessions::CountingStore;
use wire::{Counted, thread_cpu_ns};

/// The name in the certificate. Only used for SNI and certificate checks: never looked up.
const SERVER_NAME: &str = "measured.test";
/// Entries in the server's session cache.
const SERVER_CACHE: usize = 8192;
/// Entries in the session cache of rustls' `ServerConfig` by default.
const SERVER_CACHE_DEFAULT: usize = 256;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One connection as the client saw it.
pub struct Sample {
    /// connect() start to the last byte of the response.
    wall_ns: f64,
    /// connect() start to the end of the TLS handshake (to the end of connect() for TCP).
    handshake_ns: f64,
    /// CPU time of the client thread during connect + handshake.
    client_cpu_ns: f64,
    /// CPU time of the server thread during accept + handshake (it sends it back).
    server_cpu_ns: f64,
    /// Sessions the server stored for this connection (it sends the count back).
    stored: u64,
    /// Times the client had to wait for the peer: connect() plus every read after a write.
    round_trips: u32,
    /// Bytes written and read by the client on the socket (TLS records included).
    bytes: u64,
    kind: Option<HandshakeKind>,
    kx_group: Option<String>,
    suite: Option<String>,
}

/// The TLS side of the server: its configuration and its counted session store.
#[derive(Clone)]
struct TlsServer {
    config: Arc<ServerConfig>,
    store: Arc<CountingStore>,
}

/// A listener on 127.0.0.1 served by one thread; stopped and joined on drop.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(tls: Option<TlsServer>) -> io::Result<Self> {
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

/// The server's 16-byte answer: its CPU time, then the sessions it stored.
fn answer(cpu_ns: u64, stored: u64) -> [u8; 16] {
    let mut a = [0u8; 16];
    a[..8].copy_from_slice(&cpu_ns.to_le_bytes());
    a[8..].copy_from_slice(&stored.to_le_bytes());
    a
}

// ANCHOR: server
/// Serve one connection: handshake, read a one-byte request, answer with the CPU
/// time this thread spent from accept() to the end of the handshake, and the
/// sessions (TLS 1.3 tickets, a TLS 1.2 session ID) it stored for this connection.
fn serve(stream: TcpStream, tls: Option<&TlsServer>, cpu0: u64) -> Result<(), BoxError> {
    stream.set_nodelay(true)?;
    let mut sock = stream;
    let mut req = [0u8; 1];
    match tls {
        None => {
            let cpu = thread_cpu_ns() - cpu0;
            sock.read_exact(&mut req)?;
            sock.write_all(&answer(cpu, 0))?;
        }
        Some(tls) => {
            let stored0 = tls.store.stored();
            let mut conn = ServerConnection::new(tls.config.clone())?;
            while conn.is_handshaking() {
                conn.complete_io(&mut sock)?;
            }
            let cpu = thread_cpu_ns() - cpu0;
            let mut s = rustls::Stream::new(&mut conn, &mut sock);
            s.read_exact(&mut req)?;
            let stored = tls.store.stored() - stored0;
            s.write_all(&answer(cpu, stored))?;
            conn.send_close_notify();
            conn.complete_io(&mut sock)?;
        }
    }
    Ok(())
}
// ANCHOR_END: server

// ANCHOR: client
/// One request on a fresh connection: connect, (TLS handshake), send one byte,
/// read the server's 16-byte answer.
fn once(addr: SocketAddr, tls: Option<&Arc<ClientConfig>>) -> Result<Sample, BoxError> {
    let cpu0 = thread_cpu_ns();
    let t0 = Instant::now();
    let tcp = TcpStream::connect(addr)?;
    tcp.set_nodelay(true)?;
    let mut sock = Counted::new(tcp); // counts bytes and waits for the peer
    let mut answer = [0u8; 16];
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
    let [cpu, stored] =
        [&answer[..8], &answer[8..]].map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
    Ok(Sample {
        wall_ns: t0.elapsed().as_nanos() as f64,
        handshake_ns: handshake.as_nanos() as f64,
        client_cpu_ns: client_cpu as f64,
        server_cpu_ns: cpu as f64,
        stored,
        round_trips: 1 + sock.waits(), // 1 = the SYN / SYN-ACK inside connect()
        bytes: sock.byte_count(),
        kind,
        kx_group,
        suite,
    })
}
// ANCHOR_END: client

/// What the configurations chose, for the article.
pub struct Setup {
    cert_bytes: usize,
    /// The key-exchange groups the `ring` provider offers, in its order of preference.
    provider_groups: Vec<String>,
}

// ANCHOR: configs
fn configs() -> Result<(TlsServer, Vec<Variant>, Setup), BoxError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    // Self-signed ECDSA P-256 certificate (rcgen's default key type).
    let ck = rcgen::generate_simple_self_signed(vec![SERVER_NAME.to_string()])?;
    let cert: CertificateDer<'static> = ck.cert.der().clone();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der()));
    let cert_bytes = cert.len();

    // The server speaks TLS 1.3 and 1.2. It has no ticketer: TLS 1.3 tickets and
    // TLS 1.2 session IDs both point into its session cache (256 entries by
    // default), made large enough that no session is evicted during the run.
    let store = CountingStore::new(SERVER_CACHE);
    let mut server = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])?
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], key)?;
    server.session_storage = store.clone();

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
    let provider_groups = provider
        .kx_groups
        .iter()
        .map(|g| format!("{:?}", g.name()))
        .collect();
    let tls = TlsServer {
        config: Arc::new(server),
        store,
    };
    let setup = Setup {
        cert_bytes,
        provider_groups,
    };
    Ok((tls, variants, setup))
}
// ANCHOR_END: configs

pub struct Variant {
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

/// Connections of every variant, `warmup` rounds untimed then `n` measured.
fn measure(
    variants: &mut [Variant],
    tls: TlsServer,
    n: usize,
    warmup: usize,
) -> Result<(), BoxError> {
    let tcp_server = Server::start(None)?;
    let tls_server = Server::start(Some(tls))?;
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
    Ok(())
}

fn main() -> Result<(), BoxError> {
    let (n, warmup) = harness::pick((1000, 30), (200, 10));
    let (tls, mut variants, setup) = configs()?;
    measure(&mut variants, tls, n, warmup)?;
    let rows: Vec<report::Row> = variants.iter().map(report::summarize).collect();

    let mut res = harness::Results::new();
    res.input("n", n);
    res.input("warmup", warmup);
    res.input("server_cache", SERVER_CACHE);
    res.input("server_cache_default", SERVER_CACHE_DEFAULT);
    res.set("cert_bytes", setup.cert_bytes);
    res.set("key_type", "ECDSA P-256");
    res.set("provider", "ring");
    res.set("provider_groups", setup.provider_groups.join(", "));
    report::record(&mut res, &rows);
    report::derive(&mut res);
    report::tables(&mut res, &rows);
    res.write();
    Ok(())
}
