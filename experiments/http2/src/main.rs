//! HTTP/1.1 vs HTTP/2 against a local hyper server: a burst of parallel requests
//! (connections opened, total time) and head-of-line blocking behind one slow response.

mod report;
mod server;

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use server::Server;
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tower_service::Service;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Requests sent at once in a burst.
const PARALLEL: usize = 300;
/// Fast requests queued behind one slow one in the head-of-line test.
const FAST: usize = 20;

// ANCHOR: burst
/// Sends PARALLEL requests at once through hyper-util's pooled client and waits for
/// all of them. Returns the time and the connections the client started meanwhile,
/// counted by its connector as it starts each one: a connection a request started and
/// then did not need is still completed in the background, and it is counted here, in
/// the burst that started it, however late it reaches the server.
async fn burst(client: &Pooled) -> Result<(f64, usize), BoxError> {
    let uri: Uri = format!("http://{}/", client.addr).parse()?;
    let before = client.counts.started.load(Ordering::SeqCst);
    let t0 = Instant::now();
    let mut set = JoinSet::new();
    for _ in 0..PARALLEL {
        let (c, u) = (client.client.clone(), uri.clone());
        set.spawn(async move {
            let res = c.get(u).await?;
            res.into_body().collect().await?;
            Ok::<_, BoxError>(())
        });
    }
    while let Some(r) = set.join_next().await {
        r??;
    }
    let elapsed = t0.elapsed().as_nanos() as f64;
    let after = client.counts.started.load(Ordering::SeqCst);
    Ok((elapsed, after - before))
}

/// hyper-util's pooled client, with the counts of the connections its connector opened.
struct Pooled {
    client: Client<Counting, Empty<Bytes>>,
    counts: Arc<Counts>,
    addr: SocketAddr,
}

fn client(h2: bool, addr: SocketAddr) -> Pooled {
    let mut http = HttpConnector::new(); // 127.0.0.1 literals: no resolver involved
    http.set_nodelay(true);
    let counts = Arc::new(Counts::default());
    let counting = Counting {
        http,
        counts: counts.clone(),
    };
    let client = Client::builder(TokioExecutor::new())
        .http2_only(h2) // h2c with prior knowledge
        .build(counting);
    Pooled {
        client,
        counts,
        addr,
    }
}

/// Connections a connector started, how those that finished connecting ended, and the
/// local address of each one that connected.
#[derive(Default)]
pub struct Counts {
    started: AtomicUsize,
    established: AtomicUsize,
    failed: AtomicUsize,
    locals: Mutex<Vec<SocketAddr>>,
}

/// An `HttpConnector` that counts the connections it is asked to open, and their outcome.
#[derive(Clone)]
struct Counting {
    http: HttpConnector,
    counts: Arc<Counts>,
}

type Connecting = Pin<Box<dyn Future<Output = Result<TokioIo<TcpStream>, BoxError>> + Send>>;

impl Service<Uri> for Counting {
    type Response = TokioIo<TcpStream>;
    type Error = BoxError;
    type Future = Connecting;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.http.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let counts = self.counts.clone();
        counts.started.fetch_add(1, Ordering::SeqCst);
        let connecting = self.http.call(dst);
        Box::pin(async move {
            let r = connecting.await;
            let outcome = match &r {
                Ok(io) => {
                    if let Ok(local) = io.inner().local_addr() {
                        counts.locals.lock().unwrap().push(local);
                    }
                    &counts.established
                }
                Err(_) => &counts.failed,
            };
            outcome.fetch_add(1, Ordering::SeqCst);
            Ok(r?)
        })
    }
}
// ANCHOR_END: burst

fn request(addr: SocketAddr, path: &str) -> Result<Request<Empty<Bytes>>, BoxError> {
    Ok(Request::get(format!("http://{addr}{path}")).body(Empty::new())?)
}

// ANCHOR: hol
/// One slow request, then FAST quick ones, all wanted at time zero, on ONE connection.
/// Returns when each finished, measured from time zero (index 0 is the slow one).
async fn head_of_line(h2: bool, addr: SocketAddr) -> Result<Vec<f64>, BoxError> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let io = TokioIo::new(stream);
    let mut done = vec![0.0; FAST + 1];
    let path = |i: usize| if i == 0 { "/slow" } else { "/" };
    if h2 {
        // HTTP/2: every request is its own stream, all in flight together.
        let (sender, conn) =
            hyper::client::conn::http2::handshake(TokioExecutor::new(), io).await?;
        tokio::spawn(conn);
        let t0 = Instant::now();
        let mut set = JoinSet::new();
        for i in 0..=FAST {
            let (mut s, req) = (sender.clone(), request(addr, path(i))?);
            set.spawn(async move {
                s.send_request(req).await?.into_body().collect().await?;
                Ok::<_, BoxError>((i, t0.elapsed()))
            });
        }
        while let Some(r) = set.join_next().await {
            let (i, t) = r??;
            done[i] = t.as_nanos() as f64;
        }
    } else {
        // HTTP/1.1: one request at a time on the connection; the next waits its turn.
        let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await?;
        tokio::spawn(conn);
        let t0 = Instant::now();
        for (i, slot) in done.iter_mut().enumerate() {
            sender.ready().await?;
            sender
                .send_request(request(addr, path(i))?)
                .await?
                .into_body()
                .collect()
                .await?;
            *slot = t0.elapsed().as_nanos() as f64;
        }
    }
    Ok(done)
}
// ANCHOR_END: hol

/// What the bursts measured, per protocol (index 0 HTTP/1.1, 1 HTTP/2), over the measured
/// rounds; `clients` holds every client's connection counts, warm-up round included.
#[derive(Default)]
pub struct Bursts {
    cold: [Vec<f64>; 2],
    warm: [Vec<f64>; 2],
    conns_cold: [Vec<usize>; 2],
    conns_warm: [Vec<usize>; 2],
    clients: [Vec<Arc<Counts>>; 2],
}

/// `rounds` measured rounds after one warm-up round: per protocol, a cold burst on a new
/// client, then a warm one on the same client.
async fn bursts(servers: &[Server; 2], rounds: usize) -> Result<Bursts, BoxError> {
    let mut b = Bursts::default();
    // ANCHOR: rounds
    for round in 0..=rounds {
        for (p, srv) in servers.iter().enumerate() {
            let c = client(p == 1, srv.addr); // a new client: an empty pool
            let (t_cold, n_cold) = burst(&c).await?;
            let (t_warm, n_warm) = burst(&c).await?; // same client, pool filled
            b.clients[p].push(c.counts.clone());
            if round > 0 {
                // round 0 is a warm-up
                b.cold[p].push(t_cold);
                b.warm[p].push(t_warm);
                b.conns_cold[p].push(n_cold);
                b.conns_warm[p].push(n_warm);
            }
        }
    }
    // ANCHOR_END: rounds
    Ok(b)
}

// ANCHOR: settle
/// Both sides' counts once every connection the clients started has connected or failed
/// and the server has accepted every one that connected (the same address and port on
/// both sides): read when that has held for 200 ms, or after 30 s (a connect whose SYN
/// was lost retries after 1, 3, 7, 15 s).
async fn settle(srv: &Server, clients: &[Arc<Counts>]) -> Settled {
    let sum = |f: fn(&Counts) -> &AtomicUsize| -> usize {
        clients.iter().map(|c| f(c).load(Ordering::SeqCst)).sum()
    };
    let now = || {
        let locals: Vec<SocketAddr> = clients
            .iter()
            .flat_map(|c| c.locals.lock().unwrap().clone())
            .collect();
        let peers = srv.peers();
        Settled {
            started: sum(|c| &c.started),
            established: sum(|c| &c.established),
            failed: sum(|c| &c.failed),
            accepted: peers.len(),
            matched: matched(&locals, &peers),
        }
    };
    let limit = Instant::now() + Duration::from_secs(30);
    let mut agreed_since = None;
    while Instant::now() < limit {
        let n = now();
        if n.started != n.established + n.failed || n.matched != n.established {
            agreed_since = None;
        } else if agreed_since.get_or_insert_with(Instant::now).elapsed()
            >= Duration::from_millis(200)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    now()
}
// ANCHOR_END: settle

/// How many of the client's connections (local addresses) the server accepted (peer
/// addresses): each one matched at most once, as a port can be used again later.
fn matched(locals: &[SocketAddr], peers: &[SocketAddr]) -> usize {
    let mut open: HashMap<SocketAddr, usize> = HashMap::new();
    for p in peers {
        *open.entry(*p).or_default() += 1;
    }
    locals
        .iter()
        .filter(|l| match open.get_mut(l) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .count()
}

/// The connections of all rounds, as each side counted them.
#[derive(Clone, Copy, Default)]
pub struct Settled {
    /// Connections the clients' connectors started,
    started: usize,
    /// of which connected,
    established: usize,
    /// and failed.
    failed: usize,
    /// Connections the server accepted,
    accepted: usize,
    /// of which the clients had connected (same address and port).
    matched: usize,
}

/// `reps` head-of-line runs per protocol: (fast requests' completion times, slow ones').
async fn hol_runs(servers: &[Server; 2], reps: usize) -> Result<[[Vec<f64>; 2]; 2], BoxError> {
    let (mut fast, mut slow) = ([vec![], vec![]], [vec![], vec![]]);
    for _ in 0..reps {
        for (p, srv) in servers.iter().enumerate() {
            let done = head_of_line(p == 1, srv.addr).await?;
            slow[p].push(done[0]);
            fast[p].extend_from_slice(&done[1..]);
        }
    }
    Ok([fast, slow])
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), BoxError> {
    let (rounds, hol_reps) = harness::pick((15, 5), (4, 2));
    let servers = [Server::start(false).await?, Server::start(true).await?];
    let b = bursts(&servers, rounds).await?;
    let mut counts = [Settled::default(); 2];
    for (p, srv) in servers.iter().enumerate() {
        counts[p] = settle(srv, &b.clients[p]).await;
    }
    let [fast, slow] = hol_runs(&servers, hol_reps).await?;
    drop(servers);

    let protos = report::summarize(&b, counts, &fast, &slow);
    let mut res = harness::Results::new();
    res.input("parallel", PARALLEL);
    res.input("rounds", rounds);
    res.input("fast", FAST);
    res.input_duration("work_ns", server::WORK.as_nanos() as f64);
    res.input_duration("slow_ns", server::SLOW.as_nanos() as f64);
    res.input("max_streams", server::MAX_STREAMS);
    res.input("max_streams_default", server::MAX_STREAMS_DEFAULT);
    res.input("backlog", server::BACKLOG);
    res.input("backlog_default", server::BACKLOG_DEFAULT);
    if let Some(cap) = server::somaxconn() {
        res.set("somaxconn", cap); // a fact about this machine
    }
    report::record(&mut res, &protos);
    report::tables(&mut res);
    res.write();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_matches_once_and_only_with_its_own_port() {
        let a = |port| SocketAddr::from(([127, 0, 0, 1], port));
        // Port 1 used twice by the client; the server accepted it twice, plus port 3
        // that no client connect reported.
        let locals = [a(1), a(2), a(1)];
        let peers = [a(1), a(3), a(1)];
        assert_eq!(matched(&locals, &peers), 2);
        assert_eq!(matched(&locals, &peers[..1]), 1);
        assert_eq!(matched(&[], &peers), 0);
    }
}
