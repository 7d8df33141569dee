//! A small authoritative DNS server for the zone `measured.test.`, on 127.0.0.1 over UDP,
//! built on hickory-proto's message types. It can pretend to be a recursive resolver
//! with a cold cache: the first query for a name waits an "upstream" delay.

use std::collections::HashSet;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hickory_proto::op::{Edns, Message, MessageType, OpCode, ResponseCode};
use hickory_proto::rr::rdata::{A, SOA};
use hickory_proto::rr::{Name, RData, Record, RecordType};

/// The zone this server owns.
pub const ZONE: &str = "measured.test.";
/// TTL of the A records we serve, in seconds.
pub const TTL: u32 = 300;
/// SOA minimum: how long resolvers may cache a "no such name" answer, in seconds.
pub const NEGATIVE_TTL: u32 = 60;

struct Shared {
    stop: AtomicBool,
    /// Upstream delay for the first query of a name, in ns (0 = none).
    delay_ns: AtomicU64,
    /// Names already asked: the simulated recursive resolver's cache.
    seen: Mutex<HashSet<Name>>,
    queries: AtomicU64,
    delayed: AtomicU64,
    /// How much longer than asked each delayed query slept, in ns (a sleep ends late).
    late_ns: Mutex<Vec<u64>>,
    dropped: AtomicU64,
}

impl Shared {
    /// Sleep `delay_ns` and note how much longer than that the sleep lasted.
    fn upstream(&self, delay_ns: u64) {
        let t0 = Instant::now();
        std::thread::sleep(Duration::from_nanos(delay_ns));
        let slept = t0.elapsed().as_nanos() as u64;
        self.late_ns
            .lock()
            .unwrap()
            .push(slept.saturating_sub(delay_ns));
    }
}

/// A running server; stopped and joined on drop.
pub struct DnsServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl DnsServer {
    /// Bind a free UDP port on 127.0.0.1 and serve.
    pub fn start() -> io::Result<DnsServer> {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))?;
        // Wake up now and then to notice a shutdown.
        socket.set_read_timeout(Some(Duration::from_millis(20)))?;
        let addr = socket.local_addr()?;
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            delay_ns: AtomicU64::new(0),
            seen: Mutex::new(HashSet::new()),
            queries: AtomicU64::new(0),
            delayed: AtomicU64::new(0),
            late_ns: Mutex::new(Vec::new()),
            dropped: AtomicU64::new(0),
        });
        let sh = shared.clone();
        let thread = std::thread::Builder::new()
            .name("dns-server".into())
            .spawn(move || serve(socket, &sh))?;
        Ok(DnsServer {
            addr,
            shared,
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Delay of the first query of every name from now on.
    pub fn set_upstream_delay(&self, d: Duration) {
        self.shared
            .delay_ns
            .store(d.as_nanos() as u64, Ordering::SeqCst);
    }

    /// Forget every name asked so far (as if the upstream cache had expired).
    pub fn forget(&self) {
        self.shared.seen.lock().unwrap().clear();
    }

    /// Queries received since start (dropped ones included).
    pub fn queries(&self) -> u64 {
        self.shared.queries.load(Ordering::SeqCst)
    }

    /// Queries answered after the upstream delay.
    pub fn delayed(&self) -> u64 {
        self.shared.delayed.load(Ordering::SeqCst)
    }

    /// Where the delayed queries stand now, for [`DnsServer::late_since`].
    pub fn sleep_mark(&self) -> usize {
        self.shared.late_ns.lock().unwrap().len()
    }

    /// How much longer than asked the delayed queries since `mark` slept: the median, in ns
    /// (0 when none was delayed). Each lookup sends one query, so it is at most the median
    /// of what those lookups took beyond the delay.
    pub fn late_since(&self, mark: usize) -> f64 {
        let late = self.shared.late_ns.lock().unwrap();
        let mut since: Vec<f64> = late[mark..].iter().map(|&ns| ns as f64).collect();
        if since.is_empty() {
            return 0.0;
        }
        since.sort_by(f64::total_cmp);
        let n = since.len();
        if n % 2 == 1 {
            since[n / 2]
        } else {
            (since[n / 2 - 1] + since[n / 2]) / 2.0
        }
    }

    /// Queries deliberately left unanswered (the "lost packets").
    pub fn dropped(&self) -> u64 {
        self.shared.dropped.load(Ordering::SeqCst)
    }
}

impl Drop for DnsServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

// ANCHOR: serve
/// Receive a query, decide the answer, wait if the name is new to the
/// simulated upstream cache, send the answer (or lose it on purpose).
fn serve(socket: UdpSocket, sh: &Shared) {
    let mut buf = [0u8; 1500];
    while !sh.stop.load(Ordering::SeqCst) {
        let Ok((len, peer)) = socket.recv_from(&mut buf) else {
            continue; // read timeout: check the stop flag
        };
        let Ok(request) = Message::from_vec(&buf[..len]) else {
            continue; // not DNS: ignore
        };
        sh.queries.fetch_add(1, Ordering::SeqCst);
        let Some(query) = request.queries.first() else {
            continue;
        };
        let name = query.name().to_lowercase();
        let first_time = sh.seen.lock().unwrap().insert(name.clone());
        // Names under lost.measured.test.: the first packet goes missing.
        if first_time && is_under(&name, "lost.measured.test.") {
            sh.dropped.fetch_add(1, Ordering::SeqCst);
            continue;
        }
        let delay = sh.delay_ns.load(Ordering::SeqCst);
        if first_time && delay > 0 {
            sh.delayed.fetch_add(1, Ordering::SeqCst);
            sh.upstream(delay); // the "upstream" lookup: a timed sleep
        }
        if let Ok(bytes) = answer(&request, &name, query.query_type()).to_vec() {
            let _ = socket.send_to(&bytes, peer);
        }
    }
}
// ANCHOR_END: serve

// ANCHOR: answer
/// The zone: `api.measured.test.` and every name under `cold.`, `lost.` and
/// `www.measured.test.` have an A record 127.0.0.1; any other name in the zone
/// does not exist (NXDOMAIN, with the SOA that tells resolvers how long they
/// may cache that).
fn answer(request: &Message, name: &Name, qtype: RecordType) -> Message {
    let mut msg = Message::response(request.metadata.id, OpCode::Query);
    msg.metadata.message_type = MessageType::Response;
    msg.metadata.recursion_desired = request.metadata.recursion_desired;
    msg.metadata.authoritative = true;
    msg.add_queries(request.queries.clone());
    if request.edns.is_some() {
        msg.set_edns(Edns::new());
    }
    let zone = Name::from_ascii(ZONE).expect("zone name");
    if !zone.zone_of(name) {
        msg.metadata.response_code = ResponseCode::Refused; // not our zone
        return msg;
    }
    let exists = name.to_ascii() == "api.measured.test."
        || [
            "cold.measured.test.",
            "lost.measured.test.",
            "www.measured.test.",
        ]
        .iter()
        .any(|parent| is_under(name, parent));
    if exists && qtype == RecordType::A {
        let a = RData::A(A(Ipv4Addr::LOCALHOST));
        msg.add_answer(Record::from_rdata(name.clone(), TTL, a));
    } else {
        // NXDOMAIN, or NOERROR with no data (the name exists, not this type).
        if !exists {
            msg.metadata.response_code = ResponseCode::NXDomain;
        }
        let soa = SOA::new(
            Name::from_ascii("ns.measured.test.").expect("name"),
            Name::from_ascii("hostmaster.measured.test.").expect("name"),
            1,
            3600,
            600,
            86400,
            NEGATIVE_TTL,
        );
        msg.add_authority(Record::from_rdata(zone, NEGATIVE_TTL, RData::SOA(soa)));
    }
    msg
}
// ANCHOR_END: answer

/// True if `name` is a strict subdomain of `parent`.
fn is_under(name: &Name, parent: &str) -> bool {
    let p = Name::from_ascii(parent).expect("parent name");
    p.zone_of(name) && name.num_labels() > p.num_labels()
}
