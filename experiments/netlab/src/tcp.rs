//! Parser for `/proc/net/tcp` and `/proc/net/tcp6`, with state names and
//! counts filtered by our own ports.
//!
//! Each line of those files is one socket of this network namespace:
//! `sl local_address rem_address st ... inode`. Addresses are hex in the
//! kernel's byte order, ports are big-endian hex numbers, `st` is the TCP state.

use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// TCP states as numbered in the kernel (`include/net/tcp_states.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum State {
    Established,
    SynSent,
    SynRecv,
    FinWait1,
    FinWait2,
    TimeWait,
    Close,
    CloseWait,
    LastAck,
    Listen,
    Closing,
    NewSynRecv,
    Unknown(u8),
}

impl State {
    pub fn from_code(code: u8) -> State {
        match code {
            0x01 => State::Established,
            0x02 => State::SynSent,
            0x03 => State::SynRecv,
            0x04 => State::FinWait1,
            0x05 => State::FinWait2,
            0x06 => State::TimeWait,
            0x07 => State::Close,
            0x08 => State::CloseWait,
            0x09 => State::LastAck,
            0x0A => State::Listen,
            0x0B => State::Closing,
            0x0C => State::NewSynRecv,
            other => State::Unknown(other),
        }
    }

    /// The name `ss` and `netstat` print.
    pub fn name(self) -> &'static str {
        match self {
            State::Established => "ESTABLISHED",
            State::SynSent => "SYN_SENT",
            State::SynRecv => "SYN_RECV",
            State::FinWait1 => "FIN_WAIT1",
            State::FinWait2 => "FIN_WAIT2",
            State::TimeWait => "TIME_WAIT",
            State::Close => "CLOSE",
            State::CloseWait => "CLOSE_WAIT",
            State::LastAck => "LAST_ACK",
            State::Listen => "LISTEN",
            State::Closing => "CLOSING",
            State::NewSynRecv => "NEW_SYN_RECV",
            State::Unknown(_) => "UNKNOWN",
        }
    }
}

/// One socket line of `/proc/net/tcp{,6}`.
#[derive(Debug, Clone)]
pub struct Entry {
    pub local: SocketAddr,
    pub remote: SocketAddr,
    pub state: State,
    /// Which kernel timer is pending (`tr`): 0 none, 1 retransmit, 2 keepalive,
    /// 3 TIME_WAIT, 4 zero-window probe.
    pub timer: u8,
    /// Time left on that timer, in clock ticks (`tm->when`, USER_HZ units).
    pub timer_ticks: u64,
    pub inode: u64,
}

impl Entry {
    /// Time left on the pending timer, in seconds.
    pub fn timer_secs(&self) -> f64 {
        self.timer_ticks as f64 / clock_ticks_per_sec()
    }
}

/// USER_HZ, the unit of the timers in `/proc/net/tcp` (100 on Linux).
pub fn clock_ticks_per_sec() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if hz > 0 { hz as f64 } else { 100.0 }
}

fn parse_v4(hex: &str) -> Option<IpAddr> {
    // One u32 printed in host byte order (little-endian on x86 and arm64).
    let word = u32::from_str_radix(hex, 16).ok()?;
    Some(IpAddr::V4(Ipv4Addr::from(word.to_ne_bytes())))
}

fn parse_v6(hex: &str) -> Option<IpAddr> {
    // Four u32 words, each printed in host byte order.
    if hex.len() != 32 {
        return None;
    }
    let mut bytes = [0u8; 16];
    for i in 0..4 {
        let word = u32::from_str_radix(&hex[i * 8..i * 8 + 8], 16).ok()?;
        bytes[i * 4..i * 4 + 4].copy_from_slice(&word.to_ne_bytes());
    }
    Some(IpAddr::V6(Ipv6Addr::from(bytes)))
}

fn parse_addr(field: &str) -> Option<SocketAddr> {
    let (ip, port) = field.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let ip = if ip.len() == 8 {
        parse_v4(ip)?
    } else {
        parse_v6(ip)?
    };
    Some(SocketAddr::new(ip, port))
}

/// Parse one data line (not the header).
pub fn parse_line(line: &str) -> Option<Entry> {
    let mut f = line.split_whitespace();
    let _sl = f.next()?;
    let local = parse_addr(f.next()?)?;
    let remote = parse_addr(f.next()?)?;
    let state = State::from_code(u8::from_str_radix(f.next()?, 16).ok()?);
    let _queues = f.next()?; // tx_queue:rx_queue
    let (tr, when) = f.next()?.split_once(':')?; // tr:tm->when
    let timer = u8::from_str_radix(tr, 16).ok()?;
    let timer_ticks = u64::from_str_radix(when, 16).ok()?;
    // retrnsmt uid timeout inode
    let inode = f.nth(3)?.parse().ok()?;
    Some(Entry {
        local,
        remote,
        state,
        timer,
        timer_ticks,
        inode,
    })
}

/// All TCP sockets of this network namespace, IPv4 and IPv6.
pub fn read_all() -> Vec<Entry> {
    let mut out = Vec::new();
    for path in ["/proc/net/tcp", "/proc/net/tcp6"] {
        if let Ok(text) = std::fs::read_to_string(path) {
            out.extend(text.lines().skip(1).filter_map(parse_line));
        }
    }
    out
}

/// Which end of a connection to our server ports we count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Sockets whose *local* port is one of ours (the listener and the
    /// server's accepted sockets).
    Server,
    /// Sockets whose *remote* port is one of ours (our clients).
    Client,
    /// Both.
    Both,
}

/// Socket counts per state, for the sockets of our ports only.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Counts {
    pub listen: usize,
    pub established: usize,
    pub syn_sent: usize,
    pub syn_recv: usize,
    pub fin_wait1: usize,
    pub fin_wait2: usize,
    pub time_wait: usize,
    pub close_wait: usize,
    pub last_ack: usize,
    pub closing: usize,
    pub other: usize,
    pub total: usize,
}

impl Counts {
    fn add(&mut self, state: State) {
        match state {
            State::Listen => self.listen += 1,
            State::Established => self.established += 1,
            State::SynSent => self.syn_sent += 1,
            State::SynRecv | State::NewSynRecv => self.syn_recv += 1,
            State::FinWait1 => self.fin_wait1 += 1,
            State::FinWait2 => self.fin_wait2 += 1,
            State::TimeWait => self.time_wait += 1,
            State::CloseWait => self.close_wait += 1,
            State::LastAck => self.last_ack += 1,
            State::Closing => self.closing += 1,
            State::Close | State::Unknown(_) => self.other += 1,
        }
        self.total += 1;
    }
}

/// Does this socket belong to one of `ports`, on the given side?
pub fn matches(e: &Entry, ports: &[u16], side: Side) -> bool {
    let server = ports.contains(&e.local.port());
    // A listener's remote port is 0: never count it as a client.
    let client = e.remote.port() != 0 && ports.contains(&e.remote.port());
    match side {
        Side::Server => server,
        Side::Client => client,
        Side::Both => server || client,
    }
}

/// Count the sockets of `ports` on `side`, per state, from a fresh read.
// ANCHOR: count
pub fn count(ports: &[u16], side: Side) -> Counts {
    let mut c = Counts::default();
    for e in entries(ports, side) {
        c.add(e.state);
    }
    c
}

/// The sockets of `ports` on `side`, from fresh reads that agree.
///
/// `/proc/net/tcp` is not a snapshot: the kernel prints it a page at a time, and
/// while other programs open and close sockets, a line can come out twice or not
/// at all (a run of the series once counted one TIME_WAIT socket more than it had
/// connections, another dozens fewer). So a socket is listed once (by its two
/// addresses), and the file is read again until two reads in a row list the same
/// sockets in the same states.
pub fn entries(ports: &[u16], side: Side) -> Vec<Entry> {
    agreed(|| {
        read_all()
            .into_iter()
            .filter(|e| matches(e, ports, side))
            .collect()
    })
}
// ANCHOR_END: count

/// The sockets that two calls of `read` in a row agree on (ten calls at most), each
/// listed once.
fn agreed(mut read: impl FnMut() -> Vec<Entry>) -> Vec<Entry> {
    let mut once = || {
        let mut v = read();
        v.sort_by_key(|e| (e.local, e.remote, e.state));
        v.dedup_by_key(|e| (e.local, e.remote));
        v
    };
    let key = |v: &[Entry]| -> Vec<_> { v.iter().map(|e| (e.local, e.remote, e.state)).collect() };
    let mut last = once();
    for _ in 0..9 {
        let next = once();
        if key(&next) == key(&last) {
            return next;
        }
        last = next;
    }
    last
}

/// A listener on 127.0.0.1 whose port no other socket uses yet.
///
/// Counts filter sockets by port. The kernel may hand out a port again while
/// sockets of an earlier listener on it still wait in TIME_WAIT (for 60 s),
/// and those would be counted as ours: one such stale socket once turned an
/// expected 200 into 201. A port with any socket but the listener is skipped.
///
/// The port comes from below the ephemeral range (`ip_local_port_range`), which
/// `connect()` never takes as a local port: in that range the TIME_WAIT sockets of
/// every short-lived client on the machine sit, and once a hundred of the kernel's
/// own picks (port 0) in a row were all taken. The kernel's picks are the fallback.
pub fn fresh_listener() -> std::net::TcpListener {
    first_clean(candidates()).unwrap_or_else(|| {
        panic!("no port on 127.0.0.1 free of other sockets, below or in the ephemeral range")
    })
}

/// The ports `fresh_listener` tries: every port from 1024 up to the ephemeral range,
/// from a start that differs between processes (so that two runs do not compete for
/// the same ports), then twenty picks of the kernel (port 0).
fn candidates() -> impl Iterator<Item = u16> {
    let low = sysctl_numbers("/proc/sys/net/ipv4/ip_local_port_range")
        .first()
        .map_or(32768, |&p| p.clamp(2048, 65535) as u16);
    let span = low - 1024;
    let start = (std::process::id() as u16).wrapping_mul(7919) % span;
    (0..span)
        .map(move |i| 1024 + (start + i) % span)
        .chain(std::iter::repeat_n(0, 20))
}

/// A listener on the first of `ports` (0: the kernel picks) that binds on 127.0.0.1
/// and that no socket but the listener itself uses.
fn first_clean(ports: impl Iterator<Item = u16>) -> Option<std::net::TcpListener> {
    ports
        .filter_map(|port| std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).ok())
        .find(|listener| {
            let port = listener
                .local_addr()
                .expect("the listener's address")
                .port();
            let c = count(&[port], Side::Both);
            c.total == c.listen
        })
}

/// Read a sysctl file (e.g. `/proc/sys/net/ipv4/tcp_fin_timeout`) as numbers.
pub fn sysctl_numbers(path: &str) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_v4_listen_line() {
        let line = "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1 0000000000000000 100 0 0 10 0";
        let e = parse_line(line).unwrap();
        assert_eq!(e.local, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(e.remote.port(), 0);
        assert_eq!(e.state, State::Listen);
        assert_eq!(e.inode, 12345);
        assert_eq!(e.timer, 0);
    }

    #[test]
    fn parses_time_wait_timer() {
        let line = "   5: 0100007F:9C40 0100007F:1F90 06 00000000:00000000 03:00001766 00000000     0        0 0 3 0000000000000000";
        let e = parse_line(line).unwrap();
        assert_eq!(e.state, State::TimeWait);
        assert_eq!(e.timer, 3);
        assert_eq!(e.timer_ticks, 0x1766);
    }

    #[test]
    fn a_port_with_other_sockets_is_skipped() {
        // A port with a connection on it (both ends counted) is not fresh, even once
        // its listener is gone: the next candidate is taken.
        let busy = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = busy.local_addr().unwrap().port();
        let _client = std::net::TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        let _server = busy.accept().unwrap();
        drop(busy);
        let fresh = first_clean(std::iter::once(port).chain(candidates())).expect("a clean port");
        let got = fresh.local_addr().unwrap().port();
        assert_ne!(got, port, "port {port} still has a connection");
        let c = count(&[got], Side::Both);
        assert_eq!((c.total, c.listen), (1, 1));
    }

    #[test]
    fn every_port_below_the_ephemeral_range_is_tried_before_the_kernels_picks() {
        // The kernel's picks come from the ephemeral range, where every short-lived
        // client's TIME_WAIT sockets sit: once a hundred picks in a row were all taken.
        let low = sysctl_numbers("/proc/sys/net/ipv4/ip_local_port_range")[0] as u16;
        let ports: Vec<u16> = candidates().collect();
        let span = usize::from(low - 1024);
        let mut below: Vec<u16> = ports[..span].to_vec();
        assert!(below.iter().all(|&p| (1024..low).contains(&p)));
        below.sort_unstable();
        below.dedup();
        assert_eq!(below.len(), span, "each port once");
        assert!(ports[span..].iter().all(|&p| p == 0));
    }

    #[test]
    fn a_fresh_listener_is_below_the_ephemeral_range_and_alone_on_its_port() {
        let low = sysctl_numbers("/proc/sys/net/ipv4/ip_local_port_range")[0] as u16;
        let fresh = fresh_listener();
        let port = fresh.local_addr().unwrap().port();
        assert!(port < low, "port {port} is in the ephemeral range");
        let c = count(&[port], Side::Both);
        assert_eq!((c.total, c.listen), (1, 1));
    }

    #[test]
    fn a_socket_printed_twice_or_skipped_by_one_read_is_counted_once() {
        // Lines of /proc/net/tcp as one read printed them while other sockets came and
        // went: socket a twice, then b missing, then both, twice.
        let line = |port: u16, state: &str| {
            format!(
                "   0: 0100007F:1F90 0100007F:{port:04X} {state} 00000000:00000000 03:00001766 00000000     0        0 0 3"
            )
        };
        let (a, b) = (line(40000, "06"), line(40001, "06"));
        let mut reads = vec![vec![&a, &a, &b], vec![&a], vec![&b, &a], vec![&a, &b]].into_iter();
        let got = agreed(|| {
            reads
                .next()
                .unwrap()
                .into_iter()
                .map(|l| parse_line(l).unwrap())
                .collect()
        });
        let ports: Vec<u16> = got.iter().map(|e| e.remote.port()).collect();
        assert_eq!(ports, [40000, 40001]);
    }

    #[test]
    fn parses_v6_loopback() {
        let line = "   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1";
        let e = parse_line(line).unwrap();
        assert_eq!(e.local, "[::1]:8080".parse().unwrap());
        assert_eq!(e.state.name(), "LISTEN");
    }
}
