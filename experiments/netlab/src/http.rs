//! A tiny HTTP/1.1 server on 127.0.0.1 that counts the TCP connections it
//! accepted and the requests it answered.
//!
//! One thread accepts; each connection gets its own thread that answers
//! requests in a keep-alive loop until the client closes (or sends
//! `Connection: close`). Every accepted socket gets `TCP_NODELAY`: like Rust's
//! std and hyper, the kernel default leaves Nagle's algorithm on. Dropping the
//! [`Server`] stops everything and joins every thread.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the server answers.
#[derive(Debug, Clone)]
pub struct Options {
    /// Length of the response body, in bytes.
    pub body_len: usize,
    /// Time the server "works" on each request before answering.
    pub delay: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            body_len: 64,
            delay: Duration::ZERO,
        }
    }
}

struct Shared {
    stop: AtomicBool,
    accepted: AtomicU64,
    requests: AtomicU64,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// A running server; stops and joins its threads on drop.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept_thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Bind 127.0.0.1 on a free port and start serving.
    pub fn start(opts: Options) -> io::Result<Server> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            accepted: AtomicU64::new(0),
            requests: AtomicU64::new(0),
            threads: Mutex::new(Vec::new()),
        });
        let sh = shared.clone();
        let response = Arc::new(response_bytes(opts.body_len));
        let accept_thread = std::thread::Builder::new()
            .name("http-accept".into())
            .spawn(move || accept_loop(listener, sh, response, opts.delay))?;
        Ok(Server {
            addr,
            shared,
            accept_thread: Some(accept_thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// TCP connections accepted since start.
    pub fn accepted(&self) -> u64 {
        self.shared.accepted.load(Ordering::SeqCst)
    }

    /// HTTP requests answered since start.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept() with one last connection to ourselves.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.accept_thread.take() {
            let _ = t.join();
        }
        let threads = std::mem::take(&mut *self.shared.threads.lock().unwrap());
        for t in threads {
            let _ = t.join();
        }
    }
}

fn response_bytes(body_len: usize) -> Vec<u8> {
    let mut r = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {body_len}\r\n\r\n"
    )
    .into_bytes();
    r.resize(r.len() + body_len, b'x');
    r
}

// ANCHOR: accept
fn accept_loop(listener: TcpListener, sh: Arc<Shared>, response: Arc<Vec<u8>>, delay: Duration) {
    for stream in listener.incoming() {
        if sh.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        sh.accepted.fetch_add(1, Ordering::SeqCst); // one more TCP connection
        let _ = stream.set_nodelay(true); // std leaves Nagle on: turn it off
        let (sh2, resp) = (sh.clone(), response.clone());
        let handle = std::thread::spawn(move || {
            let _ = serve(stream, &sh2, &resp, delay);
        });
        let mut threads = sh.threads.lock().unwrap();
        threads.retain(|t| !t.is_finished());
        threads.push(handle);
    }
}
// ANCHOR_END: accept

/// Answer requests on one connection until the client closes it.
fn serve(mut stream: TcpStream, sh: &Shared, response: &[u8], delay: Duration) -> io::Result<()> {
    // Wake up now and then to notice a server shutdown.
    stream.set_read_timeout(Some(Duration::from_millis(50)))?;
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        // Answer every complete request already buffered (pipelining allowed).
        while let Some((len, close)) = parse_request(&buf) {
            buf.drain(..len);
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
            stream.write_all(response)?;
            sh.requests.fetch_add(1, Ordering::SeqCst);
            if close {
                return Ok(());
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Ok(()), // client closed: we close too (drop)
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e)
                if e.kind() == io::ErrorKind::WouldBlock || e.kind() == io::ErrorKind::TimedOut =>
            {
                if sh.stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
            }
            Err(e) => return Err(e),
        }
    }
}

/// If `buf` starts with a complete request, return its length and whether the
/// client asked to close the connection after it.
fn parse_request(buf: &[u8]) -> Option<(usize, bool)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let mut body = 0usize;
    let mut close = false;
    for line in head.split("\r\n").skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            body = value.parse().unwrap_or(0);
        } else if name.eq_ignore_ascii_case("connection") && value.eq_ignore_ascii_case("close") {
            close = true;
        }
    }
    if buf.len() < end + body {
        return None;
    }
    Some((end + body, close))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_counts() {
        let server = Server::start(Options::default()).unwrap();
        let mut s = TcpStream::connect(server.addr()).unwrap();
        for _ in 0..3 {
            s.write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n").unwrap();
            let mut got = vec![0u8; response_bytes(64).len()];
            s.read_exact(&mut got).unwrap();
            assert!(got.starts_with(b"HTTP/1.1 200 OK"));
        }
        drop(s);
        assert_eq!(server.accepted(), 1);
        assert_eq!(server.requests(), 3);
    }
}
