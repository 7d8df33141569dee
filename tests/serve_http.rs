//! `measured serve` over real HTTP: path safety, methods, content types, the 404 page, the
//! injected client, and the reload channel after edits, against `tests/fixtures/serve-site`
//! copied to a temporary folder and served on an ephemeral loopback port.
//!
//! Requests are written by hand on a `TcpStream`: an HTTP client library would normalise
//! `..` and backslashes away before they reach the server.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use measured::serve::{self, Event, RunningServer, ServeOptions};

/// Every wait in these tests ends by then.
const WAIT: Duration = Duration::from_secs(15);

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/serve-site");

const ARTICLE_EN: &str = "content/hello/index.en.md";

/// A copy of the fixture site, removed on drop.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for entry in walkdir::WalkDir::new(FIXTURE) {
        let entry = entry.expect("the fixture is readable");
        let rel = entry.path().strip_prefix(FIXTURE).unwrap();
        let to = dir.path().join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    dir
}

fn start(root: &Path) -> RunningServer {
    let server = serve::start(ServeOptions {
        root: root.to_path_buf(),
        port: 0,
        bind: "127.0.0.1".parse().unwrap(),
        open: false,
        drafts: false,
        only: None,
    })
    .unwrap_or_else(|d| panic!("serve did not start:\n{d}"));
    assert!(server.addr().ip().is_loopback());
    server
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, WAIT).expect("connect to the server");
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream.set_write_timeout(Some(WAIT)).unwrap();
    stream
}

/// Sends `method target` as written (no normalisation) and reads the whole answer.
fn request(addr: SocketAddr, method: &str, target: &str) -> Reply {
    let mut stream = connect(addr);
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

fn get(addr: SocketAddr, target: &str) -> Reply {
    request(addr, "GET", target)
}

/// A subscription to the reload channel, read event by event.
struct Channel {
    reader: BufReader<TcpStream>,
    /// Decoded body bytes not yet split into events.
    pending: String,
}

impl Channel {
    fn open(addr: SocketAddr) -> Channel {
        let mut stream = connect(addr);
        write!(
            stream,
            "GET {} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n",
            serve::RELOAD_ENDPOINT
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut head = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("read the head");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push(line);
        }
        assert!(head[0].contains(" 200 "), "{head:?}");
        assert!(
            head.iter()
                .any(|h| h.to_ascii_lowercase().contains("text/event-stream")),
            "{head:?}"
        );
        assert!(
            head.iter().any(|h| h
                .to_ascii_lowercase()
                .starts_with("transfer-encoding: chunked")),
            "{head:?}"
        );
        let mut channel = Channel {
            reader,
            pending: String::new(),
        };
        let (name, _) = channel.next(Instant::now() + WAIT);
        assert_eq!(name, "hello");
        channel
    }

    /// The next named event (name, data), skipping keep-alive comments.
    fn next(&mut self, deadline: Instant) -> (String, String) {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let block: String = self.pending.drain(..end + 2).collect();
                let mut name = None;
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = Some(v.trim().to_string());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
                    }
                }
                if let Some(name) = name {
                    return (name, data.join("\n"));
                }
                continue;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no event before the deadline");
            self.reader.get_ref().set_read_timeout(Some(left)).unwrap();
            self.read_chunk();
        }
    }

    /// The next chunk of the chunked body.
    fn read_chunk(&mut self) {
        let mut size = String::new();
        self.reader.read_line(&mut size).expect("a chunk size");
        let size = usize::from_str_radix(size.trim(), 16).expect("a hex chunk size");
        assert!(size > 0, "the reload channel ended");
        let mut chunk = vec![0; size + 2];
        self.reader.read_exact(&mut chunk).expect("a chunk");
        self.pending
            .push_str(&String::from_utf8_lossy(&chunk[..size]));
    }

    /// The next named event before `deadline`, or `None` if none came.
    fn poll(&mut self, deadline: Instant) -> Option<(String, String)> {
        loop {
            if self.pending.contains("\n\n") {
                return Some(self.next(deadline + WAIT));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            self.reader.get_ref().set_read_timeout(Some(left)).unwrap();
            match self.reader.fill_buf() {
                Ok(_) => self.read_chunk(),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return None;
                }
                Err(e) => panic!("the reload channel failed: {e}"),
            }
        }
    }

    /// Waits for the event `name`, skipping others; fails at the deadline.
    fn wait_for(&mut self, name: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let (got, data) = self.next(deadline);
            if got == name {
                return data;
            }
        }
    }
}

/// Writes `text` to `path` the way editors save: a temporary file renamed over the original.
fn save_atomically(path: &Path, text: &str) {
    let tmp: PathBuf = path.with_file_name(format!(
        ".{}.tmp",
        path.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn paths_outside_the_output_answer_404() {
    let site = site();
    // A link out of the site in content/, static/ or templates/ fails the build
    // (tests/safety.rs), so the output never holds what it leads to.
    let server = start(site.path());
    let addr = server.addr();
    assert_eq!(get(addr, "/style.css").status, 200, "the fixture serves");
    for target in [
        "/../site.toml",
        "/%2e%2e/site.toml",
        "/%2E%2E/site.toml",
        "/..%2fsite.toml",
        "/..%2Fcontent/hello/index.en.md",
        "/a\\..\\x",
        "/a%5c..%5csite.toml",
        "//etc/passwd",
        "/%2fetc/passwd",
        "/site.toml",
        "/content/hello/index.en.md",
        "/a%00b",
    ] {
        let reply = get(addr, target);
        assert_eq!(reply.status, 404, "{target}");
        assert!(!reply.text().contains("secret"), "{target}");
        assert!(!reply.text().contains("base_url"), "{target}");
    }
}

#[test]
fn only_get_and_head_are_allowed() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        let reply = request(addr, method, "/");
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("allow"), Some("GET, HEAD"), "{method}");
    }
    let head = request(addr, "HEAD", "/en/hello/");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "HEAD has no body");
    let length: usize = head.header("content-length").unwrap().parse().unwrap();
    assert_eq!(length, get(addr, "/en/hello/").body.len());
}

#[test]
fn content_types_caching_folders_and_404() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    let cases = [
        ("/", "text/html; charset=utf-8"),
        ("/en/hello/", "text/html; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml; charset=utf-8"),
        ("/robots.txt", "text/plain; charset=utf-8"),
    ];
    for (target, want) in cases {
        let reply = get(addr, target);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(reply.header("content-type"), Some(want), "{target}");
        assert_eq!(reply.header("cache-control"), Some("no-store"), "{target}");
    }
    let js = get(addr, "/theme.js");
    let js_type = js.header("content-type").unwrap();
    assert!(js_type.ends_with("javascript; charset=utf-8"), "{js_type}");
    let feed = get(addr, "/en/atom.xml");
    let feed_type = feed.header("content-type").unwrap();
    assert!(feed_type.ends_with("xml; charset=utf-8"), "{feed_type}");

    let bare = get(addr, "/en/hello?x=1");
    assert_eq!(bare.status, 301);
    assert_eq!(bare.header("location"), Some("/en/hello/?x=1"));

    let missing = get(addr, "/en/no-such-page/");
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(missing.header("cache-control"), Some("no-store"));
    let built = measured::build_in_memory(&measured::BuildOptions {
        root: site.path().to_path_buf(),
        ..Default::default()
    })
    .unwrap();
    let page_404 = built.output.text("404.html").unwrap();
    let title = page_404
        .split("<title>")
        .nth(1)
        .and_then(|t| t.split("</title>").next())
        .unwrap();
    assert!(missing.text().contains(title), "the site's own 404 page");
}

#[test]
fn the_client_is_in_served_html_only() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    let page = get(addr, "/en/hello/").text();
    let script = page
        .find(serve::RELOAD_ENDPOINT)
        .expect("the client script");
    assert!(script < page.rfind("</body>").unwrap(), "before </body>");
    assert!(page.contains("The first article"));
    assert!(
        !get(addr, "/style.css")
            .text()
            .contains(serve::RELOAD_ENDPOINT)
    );

    let built = measured::build_in_memory(&measured::BuildOptions {
        root: site.path().to_path_buf(),
        ..Default::default()
    })
    .unwrap();
    for (path, bytes) in &built.output.files {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains("__measured"),
            "{path}: the build output has no client"
        );
    }
}

#[test]
fn an_edit_reloads_open_pages() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    let mut channel = Channel::open(addr);
    let path = site.path().join(ARTICLE_EN);
    let text = std::fs::read_to_string(&path).unwrap();
    save_atomically(
        &path,
        &text.replace("The first article", "The edited article"),
    );
    channel.wait_for("reload");
    let page = get(addr, "/en/hello/").text();
    assert!(
        page.contains("The edited article"),
        "the new text is served"
    );
}

/// Every file under `root` but the caches in `.measured/`, with its bytes.
fn files_but_caches(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".measured")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().to_path_buf();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn serve_writes_no_output_and_nothing_into_the_sources() {
    let site = site();
    let mut expected = files_but_caches(site.path());
    let server = start(site.path());
    let mut channel = Channel::open(server.addr());
    let path = site.path().join(ARTICLE_EN);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("The first article", "The edited article");
    save_atomically(&path, &text);
    channel.wait_for("reload");
    drop(server);
    for (rel, bytes) in &mut expected {
        if *rel == Path::new(ARTICLE_EN) {
            *bytes = text.clone().into_bytes();
        }
    }
    assert_eq!(
        files_but_caches(site.path()),
        expected,
        "the only change is the author's own edit"
    );
}

#[test]
fn a_stylesheet_edit_swaps_styles_without_reload() {
    let site = site();
    let server = start(site.path());
    let mut channel = Channel::open(server.addr());
    let css = site.path().join("static/style.css");
    let text = std::fs::read_to_string(&css).unwrap();
    save_atomically(&css, &text.replace("rgb(0, 0, 0)", "rgb(200, 0, 0)"));
    let (name, _) = channel.next(Instant::now() + WAIT);
    assert_eq!(name, "styles");
    assert!(
        get(server.addr(), "/style.css")
            .text()
            .contains("rgb(200, 0, 0)")
    );
}

#[test]
fn a_build_error_shows_an_overlay_until_fixed() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    let mut channel = Channel::open(addr);
    let path = site.path().join(ARTICLE_EN);
    let good = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, good.replace("title: \"Hello\"", "title: [Hello")).unwrap();

    let overlay = channel.wait_for("overlay");
    assert!(overlay.contains("measured-overlay"), "{overlay}");
    assert!(
        overlay.contains("index.en.md:2:"),
        "names file and line: {overlay}"
    );
    let page = get(addr, "/en/hello/");
    assert_eq!(page.status, 200, "the last good site is still served");
    assert!(page.text().contains("The first article"));
    assert!(page.text().contains("id=\"measured-overlay\""));
    assert!(page.text().contains("index.en.md:2:"));

    std::fs::write(&path, &good).unwrap();
    channel.wait_for("clear");
    assert!(
        !get(addr, "/en/hello/")
            .text()
            .contains("id=\"measured-overlay\"")
    );
}

#[test]
fn a_failed_first_build_serves_the_overlay_and_recovers() {
    let site = site();
    let path = site.path().join(ARTICLE_EN);
    let good = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, good.replace("date: 2026-01-02", "date: someday")).unwrap();
    let server = start(site.path());
    let addr = server.addr();
    let page = get(addr, "/en/hello/");
    assert_eq!(page.status, 503);
    assert!(page.text().contains("id=\"measured-overlay\""));
    assert!(page.text().contains("index.en.md:"));
    assert!(page.text().contains(serve::RELOAD_ENDPOINT));

    let mut channel = Channel::open(addr);
    std::fs::write(&path, &good).unwrap();
    channel.wait_for("reload");
    assert_eq!(get(addr, "/en/hello/").status, 200);
}

/// Waits for the search index made after a build, skipping other events.
fn wait_indexed(server: &RunningServer) {
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match server.events().recv_timeout(left).expect("a search index") {
            Event::Indexed { files, .. } => {
                assert!(files > 0);
                return;
            }
            Event::IndexFailed(d) => panic!("indexing failed: {d}"),
            _ => {}
        }
    }
}

#[test]
fn the_search_index_follows_the_pages_without_a_reload() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    wait_indexed(&server);
    let entry = get(addr, "/search/en/index.json");
    assert_eq!(entry.status, 200, "the first index is served");
    let vi_entry = get(addr, "/search/vi/index.json");
    assert_eq!(vi_entry.status, 200, "one index per language");
    let mut channel = Channel::open(addr);
    let path = site.path().join(ARTICLE_EN);
    let text = std::fs::read_to_string(&path).unwrap();
    save_atomically(
        &path,
        &text.replace("The first article", "The zanzibar article"),
    );
    channel.wait_for("reload");
    assert!(
        get(addr, "/en/hello/").text().contains("zanzibar"),
        "pages first"
    );
    wait_indexed(&server);
    let after = get(addr, "/search/en/index.json");
    assert_eq!(after.status, 200);
    assert_ne!(after.body, entry.body, "a new index of the edited page");
    let vi_after = get(addr, "/search/vi/index.json");
    assert_eq!(
        vi_after.body, vi_entry.body,
        "the other language's index is kept"
    );
    if let Some((name, _)) = channel.poll(Instant::now() + Duration::from_millis(300)) {
        panic!("a new search index sent `{name}` to open pages");
    }
}

#[test]
fn a_burst_of_saves_is_coalesced_into_at_most_two_rebuilds() {
    let site = site();
    let server = start(site.path());
    let first = server.events().recv_timeout(WAIT).unwrap();
    assert!(matches!(first, Event::Built(_)), "{first}");
    let en = site.path().join(ARTICLE_EN);
    let text = std::fs::read_to_string(&en).unwrap();
    // An atomic save, a second save, a new article, a deleted one, and editor droppings.
    save_atomically(&en, &text.replace("first", "burst"));
    std::fs::write(&en, text.replace("first", "final")).unwrap();
    std::fs::write(site.path().join("content/hello/.#index.vi.md"), "lock").unwrap();
    std::fs::write(site.path().join("content/hello/index.vi.md~"), "backup").unwrap();
    std::fs::create_dir(site.path().join("content/third")).unwrap();
    std::fs::write(
        site.path().join("content/third/index.en.md"),
        "---\ntitle: \"Third\"\ndate: 2026-01-04\n---\n\nThe third.\n",
    )
    .unwrap();
    std::fs::remove_file(site.path().join("content/second/index.vi.md")).unwrap();

    // The changes that arrive within the debounce window (25 ms) are one rebuild, and those
    // that arrive while it runs are the next: on a loaded machine, where the writes above or
    // the watcher's thread wait for a core longer than the window, the burst may end in two.
    // Without coalescing, its seven file operations would be more rebuilds than that.
    let mut rebuilds: Vec<Vec<PathBuf>> = Vec::new();
    let deadline = Instant::now() + WAIT;
    while !rebuilds
        .iter()
        .flatten()
        .any(|p| p.starts_with("content/third"))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match server.events().recv_timeout(left).expect("a rebuild") {
            Event::Listening { .. } | Event::Indexed { .. } => continue,
            Event::Built(r) => rebuilds.push(r.changed.clone()),
            other => panic!("unexpected: {other}"),
        }
    }
    let quiet = Instant::now() + Duration::from_millis(600);
    while let Ok(more) = server
        .events()
        .recv_timeout(quiet.saturating_duration_since(Instant::now()))
    {
        match more {
            // The search index follows each rebuild on its own thread.
            Event::Indexed { .. } => {}
            Event::Built(r) => rebuilds.push(r.changed.clone()),
            other => panic!("unexpected: {other}"),
        }
    }
    assert!(
        rebuilds.len() <= 2,
        "one burst, {} rebuilds: {rebuilds:?}",
        rebuilds.len()
    );
    let changed: Vec<&PathBuf> = rebuilds.iter().flatten().collect();
    for path in [ARTICLE_EN, "content/second/index.vi.md"] {
        assert!(
            changed.iter().any(|p| p.as_path() == Path::new(path)),
            "{path}: {changed:?}"
        );
    }
    assert!(
        !changed
            .iter()
            .any(|p| p.to_string_lossy().contains('~') || p.to_string_lossy().contains(".#")),
        "editor backups and locks are ignored: {changed:?}"
    );
    let page = get(server.addr(), "/en/hello/").text();
    assert!(page.contains("The final article"));
    assert_eq!(get(server.addr(), "/en/third/").status, 200);
    assert_eq!(get(server.addr(), "/second/").status, 404);
}

#[test]
fn a_site_under_a_path_is_previewed_under_it() {
    let site = site();
    let toml = site.path().join("site.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("https://serve.example.org", "https://user.example.io/blog/"),
    )
    .unwrap();
    let server = start(site.path());
    let addr = server.addr();
    let listening = std::iter::from_fn(|| server.events().recv_timeout(WAIT).ok())
        .find_map(|e| match e {
            Event::Listening { url, .. } => Some(url),
            _ => None,
        })
        .expect("a Listening event");
    assert_eq!(listening, format!("http://{addr}/blog/"));
    let home = get(addr, "/blog/");
    assert_eq!(home.status, 200);
    assert!(
        home.text().contains("href=\"/blog/style.css\""),
        "{}",
        home.text()
    );
    assert_eq!(get(addr, "/blog/style.css").status, 200);
    assert_eq!(get(addr, "/blog/en/hello/").status, 200);
    for (target, location) in [
        ("/blog", "/blog/"),
        ("/", "/blog/"),
        ("/blog/en/hello", "/blog/en/hello/"),
    ] {
        let reply = get(addr, target);
        assert!(
            [301, 302].contains(&reply.status),
            "{target}: {}",
            reply.status
        );
        assert_eq!(reply.header("location"), Some(location), "{target}");
    }
    for outside in ["/en/hello/", "/style.css", "/blogger/"] {
        let reply = get(addr, outside);
        assert_eq!(reply.status, 404, "{outside}");
        assert!(
            reply.text().contains("href=\"/blog/"),
            "{outside}: the site's 404 page"
        );
    }
}

#[test]
fn an_edit_of_a_standalone_page_reloads_it() {
    let site = site();
    let page = site.path().join("pages/about/index.en.md");
    std::fs::create_dir_all(page.parent().unwrap()).unwrap();
    std::fs::write(&page, "---\ntitle: About\n---\nFirst words.\n").unwrap();
    let server = start(site.path());
    let addr = server.addr();
    assert!(get(addr, "/en/about/").text().contains("First words."));
    let mut channel = Channel::open(addr);
    save_atomically(&page, "---\ntitle: About\n---\nEdited words.\n");
    channel.wait_for("reload");
    assert!(get(addr, "/en/about/").text().contains("Edited words."));
}

#[test]
fn a_formula_nested_thousands_deep_shows_an_overlay_and_the_server_keeps_serving() {
    let site = site();
    let server = start(site.path());
    let addr = server.addr();
    let mut channel = Channel::open(addr);
    let path = site.path().join(ARTICLE_EN);
    let good = std::fs::read_to_string(&path).unwrap();
    let deep = format!("${}y{}$", "\\sqrt{".repeat(3000), "}".repeat(3000));
    save_atomically(&path, &format!("{good}\n{deep}\n"));

    let overlay = channel.wait_for("overlay");
    assert!(
        overlay.contains("index.en.md:9:") && overlay.contains("it nests more than 40 levels deep"),
        "names file, line and what is wrong: {overlay}"
    );
    let page = get(addr, "/en/hello/");
    assert_eq!(page.status, 200, "the last good site is still served");
    assert!(page.text().contains("The first article"));
    assert!(page.text().contains("id=\"measured-overlay\""));

    save_atomically(&path, &good);
    channel.wait_for("clear");
    assert!(
        !get(addr, "/en/hello/")
            .text()
            .contains("id=\"measured-overlay\"")
    );
}
