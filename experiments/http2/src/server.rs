//! A local hyper server on 127.0.0.1 that speaks either HTTP/1.1 or HTTP/2 (h2c, prior
//! knowledge) and counts the connections its accept loop takes.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::{http1, http2};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// What every request costs on the server (a stand-in for real work: a database call).
pub const WORK: Duration = Duration::from_millis(5);
/// What `/slow` costs.
pub const SLOW: Duration = Duration::from_millis(200);
/// HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS we announce (hyper's default is 200).
pub const MAX_STREAMS: u32 = 1000;

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
    accepted: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Server {
    // ANCHOR: server
    pub async fn start(h2: bool) -> std::io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = accepted.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::Relaxed); // one more TCP connection
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
        Ok(Server {
            addr,
            accepted,
            task,
        })
    }
    // ANCHOR_END: server

    pub fn accepted(&self) -> usize {
        self.accepted.load(Ordering::Relaxed)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}
