//! Live reload: the Server-Sent Events channel that tells open pages to reload, swap their
//! stylesheets, or show or clear the build-error overlay, and the small client script and
//! overlay markup injected into the HTML that `serve` (and only `serve`) sends.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use tokio::sync::watch;

use super::state::{Snapshot, Version};
use crate::diag::Diagnostics;
use crate::html::escape;

/// Where the client script listens.
pub const ENDPOINT: &str = "/__measured/reload";

/// The id of the overlay element.
const OVERLAY_ID: &str = "measured-overlay";

/// The client: one `EventSource`, four events. `__SINCE__` becomes the version of the page.
const CLIENT: &str = r#"<script>
(function () {
  "use strict";
  window.__measuredReloadReady = false;
  if (!window.EventSource) return;
  var source = new EventSource("/__measured/reload?since=__SINCE__");
  function clear() {
    var old = document.getElementById("measured-overlay");
    if (old) old.remove();
  }
  source.addEventListener("hello", function () { window.__measuredReloadReady = true; });
  source.addEventListener("error", function () { window.__measuredReloadReady = false; });
  source.addEventListener("reload", function () { source.close(); location.reload(); });
  source.addEventListener("styles", function () {
    var stamp = String(Date.now());
    document.querySelectorAll('link[rel~="stylesheet"]').forEach(function (link) {
      var url = new URL(link.href, location.href);
      if (url.origin !== location.origin) return;
      url.searchParams.set("measured", stamp);
      var fresh = link.cloneNode();
      fresh.href = url.href;
      fresh.addEventListener("load", function () { link.remove(); });
      fresh.addEventListener("error", function () { link.remove(); });
      link.after(fresh);
    });
  });
  source.addEventListener("overlay", function (e) {
    clear();
    document.body.insertAdjacentHTML("beforeend", e.data);
  });
  source.addEventListener("clear", clear);
})();
</script>"#;

/// What an open page is told to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Say the channel is open (the page sets `window.__measuredReloadReady`).
    Hello,
    Reload,
    /// Reload the stylesheets only.
    Styles,
    /// Show this overlay markup (replacing any other).
    Overlay(String),
    Clear,
}

/// What a page that has seen version `seen` must do to show `now`.
pub fn messages(seen: Version, now: &Snapshot) -> Vec<Message> {
    let v = now.version;
    if v.instance != seen.instance || v.pages != seen.pages {
        return vec![Message::Reload];
    }
    let mut out = Vec::new();
    if v.styles != seen.styles {
        out.push(Message::Styles);
    }
    if v.error != seen.error {
        out.push(match &now.error {
            Some(diags) => Message::Overlay(overlay(diags)),
            None => Message::Clear,
        });
    }
    out
}

/// The overlay listing each diagnostic as `path:line:col: message`, escaped.
pub fn overlay(diags: &Diagnostics) -> String {
    let mut text = String::new();
    for d in &diags.0 {
        text.push_str(&escape(&format!("{}: {}", d.place, d.message)));
        text.push('\n');
        if let Some(hint) = &d.hint {
            text.push_str(&escape(&format!("  help: {hint}")));
            text.push('\n');
        }
    }
    format!(
        concat!(
            r#"<div id="{id}" role="alert" style="position:fixed;inset:0;z-index:2147483647;"#,
            r#"overflow:auto;margin:0;padding:2rem;background:rgba(30,0,0,.93);color:#fff;"#,
            r#"font:15px/1.5 ui-monospace,monospace;text-align:left">"#,
            r#"<p style="margin:0 0 1rem;font-weight:bold;color:#ff8a80">"#,
            "The build failed; the last good version of the site is still served. ",
            "Fix the file and save: this message goes away by itself.</p>",
            r#"<pre style="margin:0;white-space:pre-wrap;font:inherit">{text}</pre></div>"#
        ),
        id = OVERLAY_ID,
        text = text
    )
}

/// `html` with the client script (and the overlay, while an error stands) before `</body>`.
pub fn inject(html: &[u8], now: &Snapshot) -> Vec<u8> {
    let mut extra = CLIENT.replace("__SINCE__", &now.version.to_string());
    if let Some(diags) = &now.error {
        extra.push_str(&overlay(diags));
    }
    let at = find_body_end(html).unwrap_or(html.len());
    let mut out = Vec::with_capacity(html.len() + extra.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(extra.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

/// The page shown while the very first build has not succeeded.
pub fn error_page(now: &Snapshot) -> Vec<u8> {
    let html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
                <title>Build failed · measured serve</title></head><body></body></html>\n";
    inject(html.as_bytes(), now)
}

/// The byte offset of the last `</body>`, in any letter case.
fn find_body_end(html: &[u8]) -> Option<usize> {
    const TAG: &[u8] = b"</body>";
    (0..=html.len().checked_sub(TAG.len())?)
        .rev()
        .find(|&i| html[i..i + TAG.len()].eq_ignore_ascii_case(TAG))
}

/// The SSE response for a page that has seen `seen` (from `Last-Event-ID` on a reconnection,
/// else from its `since` query); it ends when the server shuts down.
pub fn events(
    snapshots: watch::Receiver<Arc<Snapshot>>,
    shutdown: watch::Receiver<bool>,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Response {
    let from_header = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(Version::parse);
    let from_query = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("since="))
        .and_then(Version::parse);
    let current = snapshots.borrow().version;
    let seen = from_header.or(from_query).unwrap_or(current);
    let channel = Channel {
        snapshots,
        shutdown,
        seen,
        queue: VecDeque::from([Message::Hello]),
        first: true,
    };
    Sse::new(stream(channel))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// One page's subscription.
struct Channel {
    snapshots: watch::Receiver<Arc<Snapshot>>,
    shutdown: watch::Receiver<bool>,
    seen: Version,
    queue: VecDeque<Message>,
    /// Compare with the current snapshot once before waiting: the page may already be stale.
    first: bool,
}

fn stream(channel: Channel) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(channel, |mut ch| async move {
        loop {
            if let Some(message) = ch.queue.pop_front() {
                let event = to_event(&message, ch.seen);
                return Some((Ok(event), ch));
            }
            if !ch.first {
                tokio::select! {
                    changed = ch.snapshots.changed() => changed.ok()?,
                    _ = ch.shutdown.changed() => return None,
                }
            }
            ch.first = false;
            let now = ch.snapshots.borrow_and_update().clone();
            ch.queue.extend(messages(ch.seen, &now));
            ch.seen = now.version;
        }
    })
}

fn to_event(message: &Message, seen: Version) -> Event {
    let event = Event::default().id(seen.to_string());
    match message {
        Message::Hello => event.event("hello").data("open"),
        Message::Reload => event.event("reload").data("reload"),
        Message::Styles => event.event("styles").data("styles"),
        Message::Overlay(html) => event.event("overlay").data(html),
        Message::Clear => event.event("clear").data("clear"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Diagnostic, Place};

    fn snapshot(pages: u64, styles: u64, error: u64, diags: Option<Diagnostics>) -> Snapshot {
        Snapshot {
            version: Version {
                instance: 9,
                pages,
                styles,
                error,
            },
            site: None,
            error: diags.map(Arc::new),
            base: Arc::from(""),
        }
    }

    #[test]
    fn a_page_change_reloads_whatever_else_changed() {
        let seen = snapshot(1, 0, 0, None).version;
        assert_eq!(messages(seen, &snapshot(1, 0, 0, None)), vec![]);
        assert_eq!(
            messages(seen, &snapshot(2, 1, 0, None)),
            vec![Message::Reload]
        );
        assert_eq!(
            messages(seen, &snapshot(1, 1, 0, None)),
            vec![Message::Styles]
        );
        let mut other_run = seen;
        other_run.instance = 8;
        assert_eq!(
            messages(other_run, &snapshot(1, 0, 0, None)),
            vec![Message::Reload]
        );
    }

    #[test]
    fn the_overlay_escapes_and_names_the_place() {
        let diags = Diagnostics::one(
            Diagnostic::new(
                Place::at("content/a/index.en.md", 3, 7),
                "unknown key <b>`titel`</b>",
            )
            .with_hint("did you mean `title`?"),
        );
        let seen = snapshot(1, 0, 0, None).version;
        let [Message::Overlay(html)] = &messages(seen, &snapshot(1, 0, 1, Some(diags)))[..] else {
            panic!("expected one overlay message");
        };
        assert!(html.contains("content/a/index.en.md:3:7: unknown key &lt;b&gt;`titel`&lt;/b&gt;"));
        assert!(html.contains("help: did you mean `title`?"));
        assert_eq!(
            messages(seen, &snapshot(1, 0, 1, None)),
            vec![Message::Clear]
        );
    }

    #[test]
    fn inject_goes_before_the_last_body_end() {
        let now = snapshot(3, 1, 0, None);
        let html = b"<html><body><p>x</p></BODY></html>";
        let out = String::from_utf8(inject(html, &now)).unwrap();
        let script = out.find("<script>").unwrap();
        assert!(out[script..].contains("since=9.3.1.0"));
        assert!(script > out.find("<p>x</p>").unwrap());
        assert!(out.ends_with("</script></BODY></html>"));
        let bare = String::from_utf8(inject(b"no body", &now)).unwrap();
        assert!(bare.starts_with("no body<script>"));
    }
}
