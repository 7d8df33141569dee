//! The HTTP side of `serve`: one axum handler that answers GET and HEAD from the in-memory
//! output (never from disk), refuses unsafe paths, names content types, and hands the reload
//! channel to [`super::reload`].

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use tokio::sync::watch;

use super::reload;
use super::state::Snapshot;
use crate::output::Output;

/// What every request handler can see.
#[derive(Clone)]
pub struct AppState {
    pub snapshots: watch::Receiver<Arc<Snapshot>>,
    pub shutdown: watch::Receiver<bool>,
}

/// The whole server: every path goes to [`handle`].
pub fn router(state: AppState) -> Router {
    Router::new().fallback(handle).with_state(state)
}

async fn handle(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let mut response = if method != Method::GET && method != Method::HEAD {
        let mut r = (StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD\n").into_response();
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    } else if uri.path() == reload::ENDPOINT {
        reload::events(
            state.snapshots.clone(),
            state.shutdown.clone(),
            &headers,
            uri.query(),
        )
    } else {
        let now = state.snapshots.borrow().clone();
        respond(&now, &uri)
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The answer to a GET of `uri` (axum drops the body of a HEAD answer and keeps its length).
fn respond(now: &Snapshot, uri: &Uri) -> Response {
    let Some(site) = &now.site else {
        return html(
            StatusCode::SERVICE_UNAVAILABLE,
            reload::error_page(now),
            "text/html; charset=utf-8",
        );
    };
    let found = match under_base(uri.path(), &now.base) {
        Under::Path(path) => match safe_path(path) {
            Some(rel) => lookup(site, &rel),
            None => Target::Missing,
        },
        Under::Base => Target::Redirect,
        Under::Outside if uri.path() == "/" => {
            let location = format!("{}/", now.base);
            return (StatusCode::FOUND, [(header::LOCATION, location)]).into_response();
        }
        Under::Outside => Target::Missing,
    };
    match found {
        Target::File(key) => file(now, &key, StatusCode::OK),
        Target::Redirect => {
            let mut location = format!("{}/", uri.path());
            if let Some(q) = uri.query() {
                location = format!("{location}?{q}");
            }
            (
                StatusCode::MOVED_PERMANENTLY,
                [(header::LOCATION, location)],
            )
                .into_response()
        }
        Target::Missing if site.files.contains_key("404.html") => {
            file(now, "404.html", StatusCode::NOT_FOUND)
        }
        Target::Missing => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

fn file(now: &Snapshot, key: &str, status: StatusCode) -> Response {
    let Some(bytes) = now.site.as_ref().and_then(|s| s.get(key)) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let content_type = content_type(key);
    if content_type.starts_with("text/html") {
        html(status, reload::inject(bytes, now), &content_type)
    } else {
        let body = Body::from(bytes.to_vec());
        (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
    }
}

fn html(status: StatusCode, body: Vec<u8>, content_type: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, content_type.to_string())],
        body,
    )
        .into_response()
}

/// Where a request path stands against the path the site is served under.
#[derive(Debug, PartialEq, Eq)]
enum Under<'a> {
    /// Inside it: the site path that follows (`/a/` for `/blog/a/`).
    Path(&'a str),
    /// The base itself without its slash (`/blog`): answer with `/blog/`.
    Base,
    /// Outside it: what the host would answer there is not this site.
    Outside,
}

/// The site path of `path` on a site served under `base` (`/blog`, or empty at the root).
fn under_base<'a>(path: &'a str, base: &str) -> Under<'a> {
    match path.strip_prefix(base) {
        _ if base.is_empty() => Under::Path(path),
        Some("") => Under::Base,
        Some(rest) if rest.starts_with('/') => Under::Path(rest),
        _ => Under::Outside,
    }
}

/// How a safe relative path maps onto the output.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    File(String),
    /// `dir` names a folder with an index: answer with `dir/`.
    Redirect,
    Missing,
}

fn lookup(site: &Output, rel: &str) -> Target {
    if rel.is_empty() || rel.ends_with('/') {
        let index = format!("{rel}index.html");
        return if site.files.contains_key(&index) {
            Target::File(index)
        } else {
            Target::Missing
        };
    }
    if site.files.contains_key(rel) {
        Target::File(rel.to_string())
    } else if site.files.contains_key(&format!("{rel}/index.html")) {
        Target::Redirect
    } else {
        Target::Missing
    }
}

/// The output path a request path names, percent-decoded, or `None` when it could leave the
/// output: `..` or `.` segments, backslashes, NUL, a second leading slash (an absolute path).
pub fn safe_path(raw: &str) -> Option<String> {
    let decoded = percent_decode_str(raw).decode_utf8().ok()?;
    let rel = decoded.strip_prefix('/')?;
    if rel.starts_with('/') || rel.contains(['\\', '\0']) {
        return None;
    }
    if rel.split('/').any(|seg| seg == ".." || seg == ".") {
        return None;
    }
    Some(rel.to_string())
}

/// The `Content-Type` of an output file, with `charset=utf-8` on text.
pub fn content_type(path: &str) -> String {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let essence = mime.essence_str();
    let text = mime.type_() == mime_guess::mime::TEXT
        || matches!(
            essence,
            "application/javascript"
                | "application/json"
                | "application/xml"
                | "application/atom+xml"
                | "application/rss+xml"
                | "application/manifest+json"
                | "image/svg+xml"
        );
    if text {
        format!("{essence}; charset=utf-8")
    } else {
        essence.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_paths_are_refused() {
        for raw in [
            "/../site.toml",
            "/%2e%2e/site.toml",
            "/..%2fsite.toml",
            "/a%5c..%5cx",
            "/a/./b",
            "//etc/passwd",
            "/%2fetc/passwd",
            "/a%00b",
            "/%ff",
            "relative",
        ] {
            assert_eq!(safe_path(raw), None, "{raw}");
        }
        assert_eq!(safe_path("/"), Some(String::new()));
        assert_eq!(
            safe_path("/en/xin%20ch%C3%A0o/"),
            Some("en/xin chào/".into())
        );
        assert_eq!(safe_path("/a..b/c"), Some("a..b/c".into()));
    }

    #[test]
    fn folders_get_their_index_and_a_slash() {
        let mut site = Output::default();
        site.insert("index.html".into(), vec![]);
        site.insert("en/index.html".into(), vec![]);
        site.insert("style.css".into(), vec![]);
        assert_eq!(lookup(&site, ""), Target::File("index.html".into()));
        assert_eq!(lookup(&site, "en/"), Target::File("en/index.html".into()));
        assert_eq!(lookup(&site, "en"), Target::Redirect);
        assert_eq!(lookup(&site, "style.css"), Target::File("style.css".into()));
        assert_eq!(lookup(&site, "style.css/"), Target::Missing);
        assert_eq!(lookup(&site, "fr/"), Target::Missing);
    }

    #[test]
    fn a_site_under_a_path_is_served_under_it_only() {
        assert_eq!(under_base("/blog/a/", "/blog"), Under::Path("/a/"));
        assert_eq!(under_base("/blog/", "/blog"), Under::Path("/"));
        assert_eq!(under_base("/blog", "/blog"), Under::Base);
        assert_eq!(under_base("/blogger/", "/blog"), Under::Outside);
        assert_eq!(under_base("/a/", "/blog"), Under::Outside);
        assert_eq!(under_base("/", "/blog"), Under::Outside);
        assert_eq!(under_base("/a/", ""), Under::Path("/a/"));
    }

    #[test]
    fn text_types_say_utf8() {
        assert_eq!(content_type("a/index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("style.css"), "text/css; charset=utf-8");
        assert!(content_type("theme.js").ends_with("javascript; charset=utf-8"));
        assert_eq!(content_type("favicon.svg"), "image/svg+xml; charset=utf-8");
        assert!(content_type("atom.xml").ends_with("xml; charset=utf-8"));
        assert_eq!(content_type("robots.txt"), "text/plain; charset=utf-8");
        assert_eq!(content_type("a.json"), "application/json; charset=utf-8");
        assert_eq!(content_type("photo.png"), "image/png");
        assert_eq!(content_type("blob"), "application/octet-stream");
    }
}
