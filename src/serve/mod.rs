//! `measured serve`: the author's preview. Builds the site in memory, serves it on loopback,
//! watches the sources and rebuilds, and reloads the browser; a client of the build, never a
//! second copy of it.
//!
//! [`start`] returns a [`RunningServer`] that reports what happens as [`Event`]s; [`run`] is
//! the terminal front end that prints them until Ctrl-C.

mod http;
mod reload;
mod state;
mod watch;

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::watch as tokio_watch;

use crate::diag::{Diagnostic, Diagnostics, Place};
use crate::experiments::Progress;
use crate::pipeline::{BuildOptions, SearchIndex, SearchJob, SearchWhen, Session};
use state::Snapshot;
use watch::{Changes, Watcher};

pub use reload::ENDPOINT as RELOAD_ENDPOINT;
pub use state::Change;

/// What `measured serve` was asked for.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub root: PathBuf,
    pub port: u16,
    pub bind: IpAddr,
    pub open: bool,
    pub drafts: bool,
    /// Only this article (`--only`).
    pub only: Option<String>,
}

/// How long the loop waits for more events after a batch before it rebuilds: the debouncer
/// delivers the paths that went quiet at each tick, a save in an editor can touch several.
const SETTLE: Duration = Duration::from_millis(10);

/// What the server reports, in order; [`run`] prints them.
#[derive(Debug)]
pub enum Event {
    /// The server listens at `url`; `exposed` when other machines can reach it.
    Listening { url: String, exposed: bool },
    /// A build succeeded.
    Built(Rebuild),
    /// A build failed: the last good site stays up under an overlay.
    Failed {
        diagnostics: Diagnostics,
        took: Duration,
        /// Whether an earlier build succeeded (its site is still served).
        has_site: bool,
    },
    /// An experiment is being compiled or run (its sources changed).
    Experiment(String),
    /// The search index caught up with the pages (made after they were published).
    Indexed { files: usize, took: Duration },
    /// The search index could not be made; search shows the previous one.
    IndexFailed(Diagnostics),
    /// The watcher reported a problem (events may have been lost).
    WatchError(String),
    /// Opening the browser failed.
    OpenFailed(String),
    /// Ctrl-C: the server is stopping.
    Interrupted,
}

/// A successful build and what it did to the open pages.
#[derive(Debug)]
pub struct Rebuild {
    /// The sources that triggered it (empty for the first build).
    pub changed: Vec<PathBuf>,
    pub pages: usize,
    pub files: usize,
    pub took: Duration,
    pub warnings: Vec<Diagnostic>,
    /// `None` when no page had anything to update.
    pub effect: Option<Change>,
    /// The build before this one had failed.
    pub fixed: bool,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Listening { url, exposed } => {
                write!(f, "serving {url} (Ctrl-C to stop)")?;
                if *exposed {
                    write!(
                        f,
                        "\nwarning: listening on a non-loopback address: the preview is \
                         reachable from other machines on the network"
                    )?;
                }
                Ok(())
            }
            Event::Built(r) => write!(f, "{r}"),
            Event::Failed {
                diagnostics,
                took,
                has_site,
            } => {
                let serving = if *has_site {
                    "still serving the last good site"
                } else {
                    "serving the error until it is fixed"
                };
                let n = diagnostics.0.len();
                write!(
                    f,
                    "{diagnostics}\nbuild failed in {took:.1?} ({n} problem(s)); {serving}"
                )
            }
            Event::Experiment(line) => write!(f, "{line}"),
            Event::Indexed { files, took } => {
                write!(f, "search index updated in {took:.1?} ({files} files)")
            }
            Event::IndexFailed(diagnostics) => write!(
                f,
                "{diagnostics}\nwarning: the search index was not updated; search shows the \
                 previous one until the next save"
            ),
            Event::WatchError(e) => write!(f, "warning: watching the sources: {e}"),
            Event::OpenFailed(e) => write!(f, "warning: cannot open a browser: {e}"),
            Event::Interrupted => write!(f, "stopping"),
        }
    }
}

impl fmt::Display for Rebuild {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for w in &self.warnings {
            writeln!(f, "{}: warning: {}", w.place, w.message)?;
        }
        let Rebuild {
            pages, files, took, ..
        } = self;
        if self.changed.is_empty() {
            return write!(f, "built {pages} pages, {files} files in {took:.1?}");
        }
        let names: Vec<String> = self
            .changed
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let effect = match self.effect {
            None | Some(Change::Nothing) => "no page changed",
            Some(Change::Styles) => "stylesheets swapped",
            Some(Change::Pages) => "pages reloaded",
        };
        let fixed = if self.fixed { "error fixed, " } else { "" };
        write!(
            f,
            "rebuilt in {took:.1?} ({}): {fixed}{effect}",
            names.join(", ")
        )
    }
}

/// A server running in the background; stopped when dropped.
pub struct RunningServer {
    addr: SocketAddr,
    events: mpsc::Receiver<Event>,
    event_tx: mpsc::Sender<Event>,
    loop_tx: mpsc::Sender<LoopMsg>,
    shutdown: tokio_watch::Sender<bool>,
    rebuild_loop: Option<JoinHandle<()>>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl RunningServer {
    /// The address the server listens on (the real port when asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://addr/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// What the server reports, in order (first build, listening, rebuilds, errors).
    pub fn events(&self) -> &mpsc::Receiver<Event> {
        &self.events
    }

    /// Reports [`Event::Interrupted`] on Ctrl-C.
    pub fn report_ctrl_c(&self) {
        let tx = self.event_tx.clone();
        if let Some(rt) = &self.runtime {
            rt.spawn(async move {
                if tokio::signal::ctrl_c().await.is_ok() {
                    let _ = tx.send(Event::Interrupted);
                }
            });
        }
    }

    /// Stops watching and serving; open reload channels end.
    pub fn stop(mut self) {
        self.stop_inner();
    }

    fn stop_inner(&mut self) {
        let _ = self.loop_tx.send(LoopMsg::Stop);
        let _ = self.shutdown.send(true);
        if let Some(handle) = self.rebuild_loop.take() {
            let _ = handle.join();
        }
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_secs(1));
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        self.stop_inner();
    }
}

/// What the rebuild loop receives.
enum LoopMsg {
    Files(notify_debouncer_full::DebounceEventResult),
    /// The indexer finished a job.
    Indexed {
        job: SearchJob,
        result: Result<SearchIndex, Diagnostics>,
        took: Duration,
    },
    Stop,
}

/// Makes search indexes on its own thread, so that publishing pages never waits for one; of
/// the requests that queued up while it worked, only the newest is made. Stops when the
/// rebuild loop drops its sender.
fn spawn_indexer(done: mpsc::Sender<LoopMsg>) -> std::io::Result<mpsc::Sender<SearchJob>> {
    let (tx, rx) = mpsc::channel::<SearchJob>();
    std::thread::Builder::new()
        .name("measured-index".into())
        .spawn(move || {
            while let Ok(mut job) = rx.recv() {
                while let Ok(newer) = rx.try_recv() {
                    job = newer;
                }
                let started = Instant::now();
                let result = job.run();
                let msg = LoopMsg::Indexed {
                    job,
                    result,
                    took: started.elapsed(),
                };
                if done.send(msg).is_err() {
                    return;
                }
            }
        })?;
    Ok(tx)
}

/// Binds, starts watching, builds, then serves. A failed first build is not an error: the
/// server shows the diagnostics until a save fixes them.
pub fn start(opts: ServeOptions) -> Result<RunningServer, Diagnostics> {
    let root = std::fs::canonicalize(&opts.root)
        .map_err(|e| crate::diag::io_error(&opts.root, "open the site folder", &e))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("measured-serve")
        .enable_all()
        .build()
        .map_err(|e| place_error(&root, format!("cannot start the server runtime: {e}")))?;
    // Bind before building, to fail fast on a busy port; connections wait for the build.
    let listener = bind(&runtime, SocketAddr::new(opts.bind, opts.port), &root)?;
    let addr = listener
        .local_addr()
        .map_err(|e| place_error(&root, format!("cannot read the listening address: {e}")))?;
    // Watch before building, so that a save during the first build is not lost.
    let (loop_tx, loop_rx) = mpsc::channel();
    let fs_tx = loop_tx.clone();
    let watcher = Watcher::new(&root, move |result| {
        let _ = fs_tx.send(LoopMsg::Files(result));
    })
    .map_err(|e| place_error(&root, format!("cannot watch the sources: {e}")))?;

    let indexer = spawn_indexer(loop_tx.clone())
        .map_err(|e| place_error(&root, format!("cannot start the search indexer: {e}")))?;
    let mut session = Session::new(BuildOptions {
        root: root.clone(),
        drafts: opts.drafts,
        only: opts.only.clone(),
        search: SearchWhen::Later,
        ..BuildOptions::default()
    });
    let (event_tx, events) = mpsc::channel();
    let instance = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let empty = Snapshot::empty(instance);
    let first = rebuild(&mut session, &empty, Vec::new(), true, &event_tx);
    let _ = event_tx.send(first.event);
    let snapshot = first.snapshot.unwrap_or(empty);
    let indexing = request_index(&indexer, None, first.search, &snapshot);

    let base = snapshot.base.clone();
    let (snapshots, shutdown) = spawn_http(&runtime, listener, snapshot);
    let _ = event_tx.send(Event::Listening {
        url: format!("http://{addr}{base}/"),
        exposed: !opts.bind.is_loopback(),
    });
    let ctx = LoopContext {
        session,
        root,
        watcher,
        snapshots,
        events: event_tx.clone(),
        indexer,
        indexing,
    };
    let rebuild_loop = std::thread::Builder::new()
        .name("measured-rebuild".into())
        .spawn(move || rebuild_loop(ctx, &loop_rx))
        .map_err(|e| place_error(&opts.root, format!("cannot start the rebuild thread: {e}")))?;
    Ok(RunningServer {
        addr,
        events,
        event_tx,
        loop_tx,
        shutdown,
        rebuild_loop: Some(rebuild_loop),
        runtime: Some(runtime),
    })
}

fn bind(
    runtime: &tokio::runtime::Runtime,
    addr: SocketAddr,
    root: &Path,
) -> Result<tokio::net::TcpListener, Diagnostics> {
    runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|e| {
            Diagnostics::one(
                Diagnostic::new(Place::file(root), format!("cannot listen on {addr}: {e}"))
                    .with_hint("pick another port with --port, or stop the other server"),
            )
        })
}

/// Serves `snapshot` and its successors; returns the senders that publish the next snapshot
/// and stop the server.
fn spawn_http(
    runtime: &tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    snapshot: Snapshot,
) -> (
    tokio_watch::Sender<Arc<Snapshot>>,
    tokio_watch::Sender<bool>,
) {
    let (snapshot_tx, snapshot_rx) = tokio_watch::channel(Arc::new(snapshot));
    let (shutdown, shutdown_rx) = tokio_watch::channel(false);
    let app = http::router(http::AppState {
        snapshots: snapshot_rx,
        shutdown: shutdown_rx.clone(),
    });
    let mut stop_serving = shutdown_rx;
    runtime.spawn(async move {
        let stopped = async move {
            let _ = stop_serving.wait_for(|stop| *stop).await;
        };
        // Errors of single connections are handled inside; this returns when stopped.
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(stopped)
            .await;
    });
    (snapshot_tx, shutdown)
}

/// Serves until Ctrl-C, handing each event to `report` as it happens (`main` prints them).
pub fn run(opts: ServeOptions, mut report: impl FnMut(&Event)) -> Result<(), Diagnostics> {
    let open = opts.open;
    let server = start(opts)?;
    server.report_ctrl_c();
    if open {
        if let Err(e) = ::open::that_detached(server.url()) {
            let _ = server.event_tx.send(Event::OpenFailed(e.to_string()));
        }
    }
    while let Ok(event) = server.events().recv() {
        report(&event);
        if matches!(event, Event::Interrupted) {
            break;
        }
    }
    server.stop();
    Ok(())
}

fn place_error(root: &Path, message: String) -> Diagnostics {
    Diagnostics::one(Diagnostic::new(Place::file(root), message))
}

/// What the rebuild loop owns.
struct LoopContext {
    /// Keeps what did not change between builds.
    session: Session,
    root: PathBuf,
    watcher: Watcher,
    snapshots: tokio_watch::Sender<Arc<Snapshot>>,
    events: mpsc::Sender<Event>,
    indexer: mpsc::Sender<SearchJob>,
    /// The index last asked of the indexer and not made yet.
    indexing: Option<SearchJob>,
}

/// Asks the indexer for `job`, the index of the site of `snapshot`, unless it is already
/// making an index of the same articles; returns the index now being made.
fn request_index(
    indexer: &mpsc::Sender<SearchJob>,
    indexing: Option<SearchJob>,
    job: Option<SearchJob>,
    snapshot: &Snapshot,
) -> Option<SearchJob> {
    let (Some(job), Some(_)) = (job, &snapshot.site) else {
        return indexing;
    };
    if indexing.as_ref() == Some(&job) {
        return indexing;
    }
    match indexer.send(job.clone()) {
        Ok(()) => Some(job),
        Err(_) => None,
    }
}

/// Waits for changes, gathers every event that follows closely, rebuilds once, publishes;
/// one build at a time, so saves during a build end in one more build, not several.
fn rebuild_loop(mut ctx: LoopContext, rx: &mpsc::Receiver<LoopMsg>) {
    while let Ok(msg) = rx.recv() {
        let mut changes = Changes::default();
        let mut stop = !take(&mut ctx, msg, &mut changes);
        while !stop {
            match rx.recv_timeout(SETTLE) {
                Ok(msg) => stop = !take(&mut ctx, msg, &mut changes),
                Err(_) => break,
            }
        }
        if stop {
            return;
        }
        if changes.is_empty() {
            continue;
        }
        if let Err(e) = ctx.watcher.refresh(&changes) {
            let _ = ctx.events.send(Event::WatchError(e.to_string()));
        }
        let now = ctx.snapshots.borrow().clone();
        // Lost events name no path: anything may have changed.
        let whole = changes.kinds.contains(&watch::Kind::Unknown);
        let changed = changes.paths.into_iter().collect();
        let done = rebuild(&mut ctx.session, &now, changed, whole, &ctx.events);
        if let Some(snapshot) = done.snapshot {
            ctx.snapshots.send_replace(Arc::new(snapshot));
        }
        let _ = ctx.events.send(done.event);
        let published = ctx.snapshots.borrow().clone();
        ctx.indexing = request_index(&ctx.indexer, ctx.indexing.take(), done.search, &published);
    }
}

/// Adds a message's changes; `false` on [`LoopMsg::Stop`].
fn take(ctx: &mut LoopContext, msg: LoopMsg, changes: &mut Changes) -> bool {
    match msg {
        LoopMsg::Stop => false,
        LoopMsg::Files(Ok(events)) => {
            changes.merge(watch::changes(&ctx.root, &events));
            true
        }
        LoopMsg::Files(Err(errors)) => {
            for e in errors {
                let _ = ctx.events.send(Event::WatchError(e.to_string()));
            }
            true
        }
        LoopMsg::Indexed { job, result, took } => {
            // An index of pages since replaced is dropped: the newer one is on its way.
            if ctx.indexing.as_ref() != Some(&job) {
                return true;
            }
            ctx.indexing = None;
            let event = match result {
                Ok(index) => {
                    let files = index.files();
                    let now = ctx.snapshots.borrow().clone();
                    if let Some(next) = now.with_search(&files) {
                        ctx.snapshots.send_replace(Arc::new(next));
                    }
                    ctx.session.search_done(index);
                    Event::Indexed {
                        files: files.len(),
                        took,
                    }
                }
                Err(diagnostics) => Event::IndexFailed(diagnostics),
            };
            let _ = ctx.events.send(event);
            true
        }
    }
}

/// The result of one build: the snapshot to publish (if anything changed), the report, and
/// the search index still to make.
struct Done {
    snapshot: Option<Snapshot>,
    event: Event,
    search: Option<SearchJob>,
}

/// Builds after the files `changed` changed (`whole`: and maybe others).
fn rebuild(
    session: &mut Session,
    now: &Snapshot,
    changed: Vec<PathBuf>,
    whole: bool,
    events: &mpsc::Sender<Event>,
) -> Done {
    let started = Instant::now();
    let report = Report(events);
    let result = if whole || changed.is_empty() {
        session.build(&report)
    } else {
        session.build_after(&changed, &report)
    };
    match result {
        Ok(built) => {
            let (pages, files) = (built.pages, built.output.len());
            let search = built.search.clone();
            let base: Arc<str> = Arc::from(built.config.base_path.as_str());
            let next = now.succeeded(built.output).map(|(mut s, change)| {
                s.base = base;
                (s, change)
            });
            let effect = next.as_ref().map(|(_, change)| *change);
            Done {
                snapshot: next.map(|(s, _)| s),
                event: Event::Built(Rebuild {
                    changed,
                    pages,
                    files,
                    took: started.elapsed(),
                    warnings: built.warnings,
                    effect,
                    fixed: now.error.is_some(),
                }),
                search,
            }
        }
        Err(diagnostics) => Done {
            snapshot: now.failed(diagnostics.clone()),
            event: Event::Failed {
                diagnostics,
                took: started.elapsed(),
                has_site: now.site.is_some(),
            },
            search: None,
        },
    }
}

/// Experiments' progress, reported as [`Event::Experiment`] lines.
struct Report<'a>(&'a mpsc::Sender<Event>);

impl Report<'_> {
    fn say(&self, line: String) {
        let _ = self.0.send(Event::Experiment(line));
    }
}

impl Progress for Report<'_> {
    fn compile_started(&self, names: &[String]) {
        self.say(format!("compiling experiments: {}", names.join(", ")));
    }

    fn compile_finished(&self, ok: bool, elapsed: Duration) {
        let how = if ok { "compiled" } else { "compiling failed" };
        self.say(format!("experiments {how} in {elapsed:.1?}"));
    }

    fn run_started(&self, name: &str, index: usize, total: usize) {
        self.say(format!("running experiment {name} ({index}/{total})"));
    }

    fn run_finished(&self, name: &str, ok: bool, elapsed: Duration) {
        let how = if ok { "finished" } else { "failed" };
        self.say(format!("experiment {name} {how} in {elapsed:.1?}"));
    }
}
