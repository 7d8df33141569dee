//! A local hyper server on 127.0.0.1 that speaks either HTTP/1.1 or HTTP/2 (h2c, prior
//! knowledge) and notes the peer address of every connection its accept loop takes, so that
//! the experiment can match them with the connections its clients made.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::{http1, http2};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpSocket;
use tokio::task::JoinHandle;

/// What every request costs on the server (a stand-in for real work: a database call).
pub const WORK: Duration = Duration::from_millis(5);
/// What `/slow` costs.
pub const SLOW: Duration = Duration::from_millis(200);
/// HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS we announce (hyper's default is 200).
pub const MAX_STREAMS: u32 = 1000;
/// hyper's default for it.
pub const MAX_STREAMS_DEFAULT: u32 = 200;
/// The listener's backlog: connections the kernel has completed and keeps queued until the
/// accept loop takes them. A burst must fit, or the kernel drops what overflows and the
/// clients try again a second later. Linux caps it at `net.core.somaxconn`.
pub const BACKLOG: u32 = 4096;
/// tokio's (and the standard library's) backlog for `TcpListener::bind`.
pub const BACKLOG_DEFAULT: u32 = 128;

async fn handle(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let wait = if req.uri().path() == "/slow" {
        SLOW
    } else {
        WORK
    };
    tokio::time::sleep(wait).await;
    Ok(Response::new(Full::new(Bytes::from_static(b"ok"))))
}

pub struct Server {
    pub addr: SocketAddr,
    /// The peer address of every connection accepted.
    peers: Arc<Mutex<Vec<SocketAddr>>>,
    task: JoinHandle<()>,
}

impl Server {
    // ANCHOR: server
    /// Serves HTTP/2 when `h2`, else HTTP/1.1, and notes each connection's peer address.
    pub async fn start(h2: bool) -> std::io::Result<Server> {
        let socket = TcpSocket::new_v4()?;
        socket.set_reuseaddr(true)?;
        socket.bind(SocketAddr::from(([127, 0, 0, 1], 0)))?;
        let listener = socket.listen(BACKLOG)?; // room for a whole burst
        let addr = listener.local_addr()?;
        let peers = Arc::new(Mutex::new(Vec::new()));
        let seen = peers.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, peer)) = listener.accept().await {
                seen.lock().unwrap().push(peer); // one more connection, and from where
                let _ = stream.set_nodelay(true);
                let io = TokioIo::new(stream);
                tokio::spawn(async move {
                    let svc = service_fn(handle);
                    let _ = if h2 {
                        http2::Builder::new(TokioExecutor::new())
                            .max_concurrent_streams(MAX_STREAMS)
                            .serve_connection(io, svc)
                            .await
                    } else {
                        http1::Builder::new().serve_connection(io, svc).await
                    };
                });
            }
        });
        Ok(Server { addr, peers, task })
    }
    // ANCHOR_END: server

    /// The peer addresses of the connections accepted so far.
    pub fn peers(&self) -> Vec<SocketAddr> {
        self.peers.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The kernel's cap on a listener's backlog (`net.core.somaxconn`), if readable.
pub fn somaxconn() -> Option<u32> {
    std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .ok()?
        .trim()
        .parse()
        .ok()
}
